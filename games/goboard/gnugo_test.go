package goboard

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/core"
)

// The differential check against GNU Go 3.8 over GTP.
//
// GNU Go runs as `gnugo --mode gtp --chinese-rules`; its defaults are the
// rules of this package's Board: suicide forbidden (--forbid-suicide) and
// simple ko (--simple-ko), which forbids the immediate retake of a
// single-stone ko and nothing more; a pass clears it. --chinese-rules makes
// final_score count area (stones plus surrounded empty points) minus komi.
//
// Each game is played on both boards: a random phase (light moves, uniformly
// random legal moves that may fill eyes, and rare passes) and then a light
// playout of ours to its end. At every position GNU Go's is_legal is asked
// about a sample of points for both colors — every empty point without an
// empty neighbour (eyes, suicides, ko points, captures), a few other empty
// points and an occupied one — and compared with LegalAs; every move is sent
// with play, which GNU Go must accept. At the end, where every empty point is
// an eye or a point neither side may play, GNU Go's final_score is compared
// with Score.
//
// Disagreements on scores have one known cause, which the test classifies
// instead of failing on: GNU Go's final_score first removes the stones its
// life-and-death analysis calls dead, while area counting (Tromp–Taylor)
// counts every stone on the board. A light playout ends as soon as neither
// side has a move but eye fills, which leaves, e.g., a chain with one true
// eye and a false eye, or a chain that could be captured after a sequence
// of moves, on the board; GNU Go sees such a chain as dead. The test
// recomputes our area with the stones of GNU Go's final_status_list dead
// removed: when that matches final_score, the disagreement is explained.
// Any other difference fails the test.
//
// GNUGO_GAMES sets the number of games (default 12, about a few seconds),
// GNUGO_SEED the seed, GNUGO the binary; scripts/gnugo-check.sh runs more.

// gnugoCounts are the figures of a differential run.
type gnugoCounts struct {
	games, positions, queries, plays, scores int
	unsettled                                int // games not compared on score
	legal, occupied, suicide, ko, superko    int // queries by our answer
	legality, rejected, unexplained          int // disagreements that fail the test
	deadStones                               int // score differences explained by GNU Go's dead stones
}

func (c gnugoCounts) String() string {
	return fmt.Sprintf("gnugo: games=%d positions=%d legality_queries=%d (legal=%d occupied=%d suicide=%d ko=%d superko=%d) plays=%d score_comparisons=%d unsettled_ends=%d "+
		"disagreements: legality=%d play_rejected=%d score_unexplained=%d score_explained_by_dead_stones=%d",
		c.games, c.positions, c.queries, c.legal, c.occupied, c.suicide, c.ko, c.superko, c.plays, c.scores, c.unsettled, c.legality, c.rejected, c.unexplained, c.deadStones)
}

func envInt(t *testing.T, name string, def int) int {
	t.Helper()
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		t.Fatalf("%s=%q, want a non-negative integer", name, s)
	}
	return n
}

func TestGNUGo(t *testing.T) {
	path := FindGNUGo()
	if path == "" {
		t.Skip("gnugo not found (on PATH, /usr/games/gnugo or $GNUGO): skipping the GNU Go differential check; install it with apt-get install gnugo")
	}
	games := envInt(t, "GNUGO_GAMES", 30)
	seed := envInt(t, "GNUGO_SEED", 1)
	start := func(t *testing.T, args ...string) *gtpEngine {
		t.Helper()
		e, err := startGTP(path, append([]string{"--mode", "gtp", "--chinese-rules", "--level", "0"}, args...)...)
		if err != nil {
			t.Fatalf("starting %s: %v", path, err)
		}
		t.Cleanup(func() { e.close() })
		return e
	}
	sizes := []int{9, 9, 9, 5, 7, 13}
	t.Run("rules=simple-ko", func(t *testing.T) {
		e := start(t)
		rng := core.NewRNG(uint64(seed))
		var n gnugoCounts
		for i := range games {
			size := sizes[i%len(sizes)]
			if err := gnugoGame(t, e, rng, size, &n); err != nil {
				t.Fatalf("game %d (size %d): %v\nGTP commands:\n%s", i+1, size, err, strings.Join(e.log, "\n"))
			}
		}
		t.Log(n)
		if d := n.legality + n.rejected + n.unexplained; d > 0 {
			t.Errorf("%d disagreements with GNU Go", d)
		}
	})
	t.Run("rules=positional-superko", func(t *testing.T) {
		e := start(t, "--positional-superko")
		rng := core.NewRNG(uint64(seed) + 1)
		var n gnugoCounts
		for i := range max(games/3, 1) {
			size := sizes[i%len(sizes)]
			if err := gnugoTreeGame(t, e, rng, size, &n); err != nil {
				t.Fatalf("game %d (size %d): %v\nGTP commands:\n%s", i+1, size, err, strings.Join(e.log, "\n"))
			}
		}
		t.Log(n)
		if d := n.legality + n.rejected; d > 0 {
			t.Errorf("%d disagreements with GNU Go", d)
		}
	})
	t.Run("positions", func(t *testing.T) {
		simple, superko := start(t), start(t, "--positional-superko")
		for _, tc := range []struct {
			name    string
			size    int
			setup   []string
			queries []string // colored vertices, "b B2"
			score   bool     // compare final_score too
		}{
			{"seki", 5, setupMoves(t, 5, Black, sekiDiagram), []string{"b C5", "w C5", "w A5", "b E5", "w A1", "b A5"}, true},
			{"ko", 5, append(setupMoves(t, 5, Black, koDiagram), "C3"), []string{"w B3", "b B3"}, false},
			{"double ko", 7, append(setupMoves(t, 7, Black, doubleKo), "C6", "C2", "pass", "B6"), []string{"b B2", "b A7"}, false},
		} {
			for _, e := range []*gtpEngine{simple, superko} {
				if err := gnugoPosition(t, e, e == superko, tc.name, tc.size, tc.setup, tc.queries, tc.score); err != nil {
					t.Fatalf("%s: %v\nGTP commands:\n%s", tc.name, err, strings.Join(e.log, "\n"))
				}
			}
		}
	})
}

// gnugoPosition sets up a position on GNU Go's board and ours (a Board with
// simple ko, or a Game with positional superko for superko's engine) and
// compares the legality of queries and, if score, final_score.
func gnugoPosition(t *testing.T, e *gtpEngine, superko bool, name string, size int, setup, queries []string, score bool) error {
	t.Helper()
	e.log = e.log[:0]
	b, err := NewBoard(Config{Size: size}, setup...)
	if err != nil {
		return err
	}
	g, err := NewGame(Config{Size: size}, setup...)
	if err != nil {
		return err
	}
	if err := gtpSetup(e, b, setup); err != nil {
		return err
	}
	for _, q := range queries {
		reply, err := e.send("is_legal " + q)
		if err != nil {
			return err
		}
		c, m, err := b.parseMove(q)
		if err != nil {
			return err
		}
		ours := b.LegalAs(c, m)
		if superko && c == g.b.toMove {
			ours = g.Legal(m)
		}
		if (reply == "1") != (ours == nil) {
			t.Errorf("%s (superko %v): is_legal %s: GNU Go %s, ours %v\n%s", name, superko, q, reply, ours, b)
		}
	}
	if score {
		reply, err := e.send("final_score")
		if err != nil {
			return err
		}
		theirs, err := parseGTPScore(reply)
		if err != nil {
			return err
		}
		if theirs != b.Score() {
			t.Errorf("%s: final_score %s, ours %+v\n%s", name, reply, b.Score(), b)
		}
	}
	return nil
}

// gtpSetup sends boardsize, clear_board, komi and the moves of a setup.
func gtpSetup(e *gtpEngine, b *Board, moves []string) error {
	cmds := []string{fmt.Sprint("boardsize ", b.size), "clear_board", fmt.Sprint("komi ", b.Komi())}
	c := Black
	for _, s := range moves {
		f := strings.Fields(s)
		v := f[len(f)-1]
		if len(f) == 2 {
			c = Black
			if strings.HasPrefix(strings.ToLower(f[0]), "w") {
				c = White
			}
		}
		cmds = append(cmds, fmt.Sprintf("play %s %s", gtpColor(c), v))
		c = c.Opponent()
	}
	for _, cmd := range cmds {
		if _, err := e.send(cmd); err != nil {
			return err
		}
	}
	return nil
}

// gnugoTreeGame plays one game through a Game (positional superko, listed
// moves only: no eye fills) against GNU Go run with --positional-superko,
// comparing Game.Legal with is_legal for the player to move at a sample of
// points of every position.
func gnugoTreeGame(t *testing.T, e *gtpEngine, rng *core.RNG, size int, n *gnugoCounts) error {
	t.Helper()
	g, err := NewGame(Config{Size: size})
	if err != nil {
		return err
	}
	if err := gtpSetup(e, &g.b, nil); err != nil {
		return err
	}
	e.log = e.log[:0]
	n.games++
	for g.Kind() != core.Terminal {
		n.positions++
		b := &g.b
		for _, m := range legalitySample(b, rng) {
			reply, err := e.send(fmt.Sprintf("is_legal %s %s", gtpColor(b.toMove), Vertex(m, size)))
			if err != nil {
				return err
			}
			n.queries++
			ours := g.Legal(m)
			n.count(ours)
			if (reply == "1") != (ours == nil) {
				n.legality++
				t.Errorf("is_legal %s %s: GNU Go %s, ours %v\n%s", gtpColor(b.toMove), Vertex(m, size), reply, ours, b)
			}
		}
		k := g.NumMoves()
		i := k - 1 // the pass
		if k > 1 && rng.IntN(20) > 0 {
			i = rng.IntN(k - 1)
		}
		c, m := b.toMove, g.Move(i)
		g.Play(i)
		n.plays++
		if _, err := e.send(fmt.Sprintf("play %s %s", gtpColor(c), Vertex(m, size))); err != nil {
			n.rejected++
			t.Errorf("GNU Go rejects our legal move %s %s: %v\n%s", gtpColor(c), Vertex(m, size), err, b)
			return nil
		}
	}
	return nil
}

// gtpColor names a color in GTP.
func gtpColor(c Color) string {
	if c == Black {
		return "black"
	}
	return "white"
}

// gnugoGame plays one game on our board and on GNU Go's and counts the
// comparisons. It returns an error only when the engine fails.
func gnugoGame(t *testing.T, e *gtpEngine, rng *core.RNG, size int, n *gnugoCounts) error {
	t.Helper()
	b, err := NewBoard(Config{Size: size})
	if err != nil {
		return err
	}
	e.log = e.log[:0]
	if err := gtpSetup(e, b, nil); err != nil {
		return err
	}
	n.games++
	random := rng.IntN(size * size * 3 / 2) // length of the random phase
	for b.Status() == Playing {
		n.positions++
		if err := compareLegality(t, e, rng, b, n); err != nil {
			return err
		}
		m := chooseMove(b, rng, b.moves < random)
		c := b.ToMove()
		if err := b.Play(m); err != nil {
			t.Fatalf("our own move %s: %v", Vertex(m, size), err)
		}
		n.plays++
		if _, err := e.send(fmt.Sprintf("play %s %s", gtpColor(c), Vertex(m, size))); err != nil {
			n.rejected++
			t.Errorf("GNU Go rejects our legal move %s %s: %v\n%s", gtpColor(c), Vertex(m, size), err, b)
			return nil
		}
	}
	if b.Status() != TwoPasses || !settled(b) {
		n.unsettled++ // capped, or ended by a random pass while moves remained
		return nil
	}
	return compareScore(t, e, b, n)
}

// settled reports whether neither player has a legal move at b but the pass
// and eye fills: the end of a light playout.
func settled(b *Board) bool {
	for i := range b.nEmpty {
		p := int(b.empty[i])
		if b.playable(Black, p) || b.playable(White, p) {
			return false
		}
	}
	return true
}

// chooseMove picks the next move: in the random phase a light move (3 in 5),
// a uniformly random legal move, eye fills included (3 in 10), or a pass (1
// in 10, never after a pass); after it, light moves only.
func chooseMove(b *Board, rng *core.RNG, random bool) int {
	r := rng.IntN(10)
	switch {
	case !random || r < 6:
		c := *b
		c.playLight(rng)
		return lastMove(b, &c)
	case r == 9 && b.passes == 0:
		return b.Pass()
	}
	var legal []int
	for m := range b.size * b.size {
		if b.IsLegal(m) {
			legal = append(legal, m)
		}
	}
	if len(legal) == 0 {
		return b.Pass()
	}
	return legal[rng.IntN(len(legal))]
}

// legalitySample returns the points to ask about at b's position: every
// empty point without an empty neighbour (eyes, suicides, ko points,
// captures), three random other empty points and a random occupied one.
func legalitySample(b *Board, rng *core.RNG) []int {
	var sample, open, occupied []int
	for m := range b.size * b.size {
		p := b.index(m)
		switch {
		case b.color[p] != Empty:
			occupied = append(occupied, m)
		case b.nb[p]>>8 == 0:
			sample = append(sample, m)
		default:
			open = append(open, m)
		}
	}
	for range 3 {
		if len(open) > 0 {
			sample = append(sample, open[rng.IntN(len(open))])
		}
	}
	if len(occupied) > 0 {
		sample = append(sample, occupied[rng.IntN(len(occupied))])
	}
	return sample
}

// count counts a query by our answer.
func (c *gnugoCounts) count(ours error) {
	switch {
	case ours == nil:
		c.legal++
	case errors.Is(ours, ErrOccupied):
		c.occupied++
	case errors.Is(ours, ErrSuicide):
		c.suicide++
	case errors.Is(ours, ErrKo):
		c.ko++
	case errors.Is(ours, ErrSuperko):
		c.superko++
	}
}

// compareLegality asks GNU Go about legalitySample's points at b's
// position, for both colors.
func compareLegality(t *testing.T, e *gtpEngine, rng *core.RNG, b *Board, n *gnugoCounts) error {
	t.Helper()
	for _, m := range legalitySample(b, rng) {
		for _, c := range []Color{b.ToMove(), b.ToMove().Opponent()} {
			reply, err := e.send(fmt.Sprintf("is_legal %s %s", gtpColor(c), Vertex(m, b.size)))
			if err != nil {
				return err
			}
			n.queries++
			ours := b.LegalAs(c, m)
			n.count(ours)
			if theirs := reply == "1"; theirs != (ours == nil) {
				n.legality++
				t.Errorf("is_legal %s %s: GNU Go %s, ours %v (to move %v, ko %s)\n%s",
					gtpColor(c), Vertex(m, b.size), reply, ours, b.ToMove(), Vertex(b.Ko(), b.size), b)
			}
		}
	}
	return nil
}

// compareScore compares GNU Go's final_score with ours at the end of a game.
func compareScore(t *testing.T, e *gtpEngine, b *Board, n *gnugoCounts) error {
	t.Helper()
	reply, err := e.send("final_score")
	if err != nil {
		return err
	}
	theirs, err := parseGTPScore(reply)
	if err != nil {
		return err
	}
	n.scores++
	ours := b.Score()
	if theirs == ours {
		return nil
	}
	dead, err := e.send("final_status_list dead")
	if err != nil {
		return err
	}
	// Our area with GNU Go's dead stones taken off the board.
	c := *b
	for _, v := range strings.Fields(dead) {
		m, err := ParseVertex(v, b.size)
		if err != nil {
			return err
		}
		if p := c.index(m); c.color[p] != Empty {
			c.remove(int(c.chain[p]))
		}
	}
	if c.Score() == theirs && dead != "" {
		n.deadStones++
		t.Logf("final_score %s, ours %+v: GNU Go calls %s dead; without them ours is %+v\n%s",
			reply, ours, strings.Join(strings.Fields(dead), " "), c.Score(), b)
		return nil
	}
	n.unexplained++
	t.Errorf("final_score %s, ours %+v (dead: %q)\n%s", reply, ours, dead, b)
	return nil
}

// parseGTPScore reads "B+3.5", "W+0.5" or "0" as Black's score.
func parseGTPScore(s string) (float64, error) {
	if s == "0" {
		return 0, nil
	}
	if len(s) < 3 || s[1] != '+' || s[0] != 'B' && s[0] != 'W' {
		return 0, fmt.Errorf("final_score %q, want B+x, W+x or 0", s)
	}
	v, err := strconv.ParseFloat(s[2:], 64)
	if err != nil {
		return 0, fmt.Errorf("final_score %q: %v", s, err)
	}
	if s[0] == 'W' {
		v = -v
	}
	return v, nil
}
