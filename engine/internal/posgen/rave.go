package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/engine"
	"github.com/mctscheck/mctscheck/games/goboard"
)

// raveMain is posgen -rave: candidates for positions that trap RAVE. Each
// candidate is a board whose two walls have three single-point eyes each
// (C10, C13, C16 and R10, R13, R16: filling one keeps a wall pass-alive)
// and a zone on the bottom edge, around the frontier, filled by random
// legal moves (no player filling its own eye) until a few empty points are
// left; the side to move is drawn too. Light playouts from the position
// (each root move in turn, then uniformly random moves, Pachi's and the
// paper's roll-outs) give, for every count k of black stones on the upper
// frontier (columns J and K), the mover's win rate; the k where it is
// nearest 1/2 is solved exactly, and then its neighbours, towards the
// hardest k at which the mover still wins. A candidate is kept when the
// mover then has a single winning move W, not the pass: it is printed in
// the positions file format with its solution, the light playouts' win
// rate after W and after the best other move, and W's AMAF value (the win
// rate of the playouts in which the mover played W at a later turn).
// With -subtle, a zone whose best root move in the light playouts is more
// than 0.1 ahead of the second is skipped before solving: an obvious
// move, which RAVE finds. The counts of each outcome go to stderr.
func raveMain(args []string) {
	fs := flag.NewFlagSet("posgen -rave", flag.ExitOnError)
	seed := fs.Uint64("seed", 1, "the search's `seed`: candidate i draws from (seed, i)")
	n := fs.Int("n", 100, "candidates to generate")
	from := fs.Int("from", 0, "the first candidate's number (candidate i is the same whatever -from and -n)")
	x0 := fs.Int("x0", 8, "the zone's first column (0 is A)")
	x1 := fs.Int("x1", 11, "the zone's last column")
	rows := fs.Int("rows", 3, "the zone's rows, from the bottom edge")
	grow := fs.Int("grow", 5, "fill the zone until this many of its points are empty")
	subtle := fs.Bool("subtle", false, "skip zones with an obvious move in the light playouts")
	playouts := fs.Int("playouts", 2000, "light playouts per candidate")
	nodes := fs.Int("nodes", 150_000, "the solver's bound on the positions it searches for one board")
	_ = fs.Parse(args)
	if *x0 < 1 || *x1 > 17 || *x0 > *x1 || *rows < 1 || *rows > 6 || *grow < 1 || *from < 0 || *n < 1 {
		fmt.Fprintln(os.Stderr, "posgen -rave: want 1 ≤ x0 ≤ x1 ≤ 17, 1 ≤ rows ≤ 6, grow ≥ 1, from ≥ 0, n ≥ 1")
		os.Exit(2)
	}
	g := raveGen{zone: zone{*x0, *x1, *rows}, grow: *grow, subtle: *subtle, playouts: *playouts, nodes: *nodes}
	fmt.Printf("# Candidates for positions that trap RAVE (see docs/engines.md).\n")
	fmt.Printf("# Made by: go run ./engine/internal/posgen %s\n", strings.Join(append([]string{"-rave"}, args...), " "))
	fmt.Printf("# Rules: area scoring (Tromp-Taylor), komi 7.5, positional superko, two passes end the game.\n\n")
	count := map[string]int{}
	for i := *from; i < *from+*n; i++ {
		rng := rand.New(rand.NewPCG(*seed, uint64(i)))
		p, outcome := g.candidate(rng, fmt.Sprintf("rave-s%d-%d", *seed, i))
		count[outcome]++
		if p != nil {
			p.Format(os.Stdout)
			fmt.Println()
		}
		if done := i + 1 - *from; done%50 == 0 || done == *n {
			fmt.Fprintf(os.Stderr, "posgen -rave: %d candidates: %d kept (a single winning move); %d with several winning moves or none; %d too big to solve within -nodes; %d obvious (-subtle); %d illegal zones\n",
				done, count["kept"], count["several"], count["too big"], count["obvious"], count["illegal"])
		}
	}
}

// zone is the rectangle filled by random play: columns x0 to x1, the
// bottom rows.
type zone struct{ x0, x1, rows int }

func (z zone) points() []int {
	var out []int
	for y := range z.rows {
		for x := z.x0; x <= z.x1; x++ {
			out = append(out, y*19+x)
		}
	}
	return out
}

type raveGen struct {
	zone
	grow, playouts, nodes int
	subtle                bool
}

// raveEyes are the walls' single-point eyes, three each.
var raveEyes = [][2]int{{2, 9}, {2, 12}, {2, 15}, {16, 9}, {16, 12}, {16, 15}}

// tunePoints are the upper frontier's points that decide the balance:
// column J, then column K, from the top row down to the row above the
// zone's; the first k of them are black, the others white.
func (z zone) tunePoints() []int {
	var out []int
	for _, x := range []int{8, 9} {
		for y := 18; y > z.rows; y-- {
			if x == 8 && (y == 9 || y == 12 || y == 15) {
				continue // beside an eye: keep the wall whole
			}
			out = append(out, y*19+x)
		}
	}
	return out
}

// withBlack returns p with the first k tune points black, the others white.
func (z zone) withBlack(p *engine.Position, k int) *engine.Position {
	q := *p
	for i, m := range z.tunePoints() {
		q.Stones[m] = O
		if i < k {
			q.Stones[m] = X
		}
	}
	return &q
}

// candidate makes one candidate; outcome is "kept", "several", "too big",
// "obvious" or "illegal".
func (g raveGen) candidate(rng *rand.Rand, name string) (*engine.Position, string) {
	p := g.fill(rng)
	if p == nil {
		return nil, "illegal"
	}
	st, ok := g.lightPlayouts(p, core.NewRNG(rng.Uint64()))
	if !ok {
		return nil, "illegal"
	}
	k := st.balance()
	if g.subtle {
		if best, second := st.direct(k); best-second > 0.1 {
			return nil, "obvious"
		}
	}
	sol, k, err := g.boundary(p, k)
	switch {
	case err != nil:
		return nil, "too big"
	case sol == nil || len(sol.Optimal) != 1 || sol.Optimal[0] == engine.Size*engine.Size:
		return nil, "several"
	}
	q := g.withBlack(p, k)
	q.Name, q.Case = name, "rave-candidate"
	annotate(q, sol)
	w := sol.Optimal[0]
	dw, other, amaf, later := st.of(k, w)
	q.Known = append(q.Known, fmt.Sprintf("light playouts (%d, each root move in turn): the mover wins %.2f after %s, at most %.2f after another move; %s's AMAF value, over the %d playouts that played it at a later turn, %.2f",
		g.playouts, dw, engine.Vertex(w), other, engine.Vertex(w), later, amaf))
	return q, "kept"
}

// fill makes the board: the walls, the frontier half black, the zone
// emptied and filled by random legal moves of alternate sides (none
// filling its own eye) until grow points are left, and the side to move.
func (g raveGen) fill(rng *rand.Rand) *engine.Position {
	p := &engine.Position{ToMove: X}
	for m := range engine.Size * engine.Size {
		p.Stones[m] = O
		if m%19 < 9 {
			p.Stones[m] = X
		}
	}
	for _, e := range raveEyes {
		p.Stones[e[1]*19+e[0]] = E
	}
	p = g.withBlack(p, len(g.tunePoints())/2)
	for _, m := range g.points() {
		p.Stones[m] = E
	}
	game, err := gameOf(p)
	if err != nil {
		return nil
	}
	for range 300 {
		empty := 0
		for _, m := range g.points() {
			if game.Board().At(m) == E {
				empty++
			}
		}
		if empty <= g.grow {
			break
		}
		// A random listed move inside the zone, or the pass when there is
		// none (the listed moves are the light playout's: no own eye).
		var inside []int
		for i := range game.NumMoves() {
			if m := game.Move(i); m < engine.Size*engine.Size && m/19 < g.rows && m%19 >= g.x0 && m%19 <= g.x1 {
				inside = append(inside, i)
			}
		}
		if len(inside) == 0 {
			game.Play(game.NumMoves() - 1)
			continue
		}
		game.Play(inside[rng.IntN(len(inside))])
	}
	for _, m := range g.points() {
		p.Stones[m] = game.Board().At(m)
	}
	if rng.IntN(2) == 1 {
		p.ToMove = O
	}
	if _, _, err := p.Setup(); err != nil {
		return nil
	}
	return p
}

// gameOf returns the game at p's position, p's setup played from the empty
// board.
func gameOf(p *engine.Position) (*goboard.Game, error) {
	setup, _, err := p.Setup()
	if err != nil {
		return nil, err
	}
	moves := make([]string, len(setup))
	for i, s := range setup {
		moves[i] = s.GTP()
	}
	return goboard.NewGame(goboard.Config{Size: engine.Size, Komi: engine.Komi, MaxMoves: 100 * engine.Size * engine.Size}, moves...)
}

// lightStats are light playouts from a position: for each, its root move,
// its final score at the k the board was made with, and the moves the
// mover played first at a later turn.
type lightStats struct {
	mover goboard.Color
	k0    int // the k of the board played out
	kMax  int
	roots []int
	runs  []lightRun
}

type lightRun struct {
	root  int
	score float64
	later []int
}

// lightPlayouts plays g.playouts light playouts from p, each root move in
// turn: uniformly random listed moves (goboard.Light, as Pachi's
// playout=light) to the end of the game.
func (g raveGen) lightPlayouts(p *engine.Position, rng *core.RNG) (*lightStats, bool) {
	game, err := gameOf(p)
	if err != nil {
		return nil, false
	}
	st := &lightStats{mover: p.ToMove, k0: len(g.tunePoints()) / 2, kMax: len(g.tunePoints())}
	for i := range game.NumMoves() - 1 { // the pass is last
		st.roots = append(st.roots, game.Move(i))
	}
	if len(st.roots) < 2 {
		return nil, false
	}
	for i := range g.playouts {
		game.Reset()
		game.Play(i % len(st.roots)) // the roots are listed in the same order at every reset
		root := st.roots[i%len(st.roots)]
		played := map[int]bool{root: true}
		run := lightRun{root: root}
		for mover := false; game.Kind() != core.Terminal; mover = !mover {
			i := goboard.Light{}.Choose(game, rng)
			if m := game.Move(i); m < engine.Size*engine.Size && !played[m] {
				played[m] = true
				if mover {
					run.later = append(run.later, m)
				}
			}
			game.Play(i)
		}
		run.score = game.Board().Score()
		st.runs = append(st.runs, run)
	}
	return st, true
}

// wins says whether a playout of final score s (at k0) is a win for the
// mover with k black tune points: each point more for Black adds 2.
func (st *lightStats) wins(s float64, k int) bool {
	s += 2 * float64(k-st.k0)
	return s > 0 == (st.mover == X)
}

// balance returns the k at which the mover's win rate is nearest 1/2.
func (st *lightStats) balance() int {
	best, at := 2.0, 0
	for k := 0; k <= st.kMax; k++ {
		w := 0
		for _, r := range st.runs {
			if st.wins(r.score, k) {
				w++
			}
		}
		if d := math.Abs(float64(w)/float64(len(st.runs)) - 0.5); d < best {
			best, at = d, k
		}
	}
	return at
}

// rate returns the mover's win rate at k over the playouts that pick does.
func (st *lightStats) rate(k int, pick func(lightRun) bool) (float64, int) {
	w, n := 0, 0
	for _, r := range st.runs {
		if pick(r) {
			n++
			if st.wins(r.score, k) {
				w++
			}
		}
	}
	if n == 0 {
		return 0, 0
	}
	return float64(w) / float64(n), n
}

// direct returns the best and second best win rates after a root move.
func (st *lightStats) direct(k int) (best, second float64) {
	best, second = -1, -1
	for _, m := range st.roots {
		d, _ := st.rate(k, func(r lightRun) bool { return r.root == m })
		if d > best {
			best, second = d, best
		} else if d > second {
			second = d
		}
	}
	return best, second
}

// of returns, at k, the win rate after w, the best after another root
// move, and w's AMAF value with its playouts.
func (st *lightStats) of(k, w int) (direct, other, amaf float64, later int) {
	direct, _ = st.rate(k, func(r lightRun) bool { return r.root == w })
	for _, m := range st.roots {
		if m != w {
			d, _ := st.rate(k, func(r lightRun) bool { return r.root == m })
			other = max(other, d)
		}
	}
	amaf, later = st.rate(k, func(r lightRun) bool {
		for _, m := range r.later {
			if m == w {
				return true
			}
		}
		return false
	})
	return direct, other, amaf, later
}

// boundary solves p at k and walks k towards the hardest balance at which
// the mover still wins (fewer black tune points when Black moves), at
// most 8 steps; it returns that solution and k, or nil if the walk found
// no win. An error is a board too big for the solver.
func (g raveGen) boundary(p *engine.Position, k int) (*engine.Solution, int, error) {
	solve := func(k int) (*engine.Solution, error) {
		return g.withBlack(p, k).Solve(engine.SolveLimits{Nodes: g.nodes})
	}
	harder := -1
	if p.ToMove == O {
		harder = 1
	}
	sol, err := solve(k)
	if err != nil {
		return nil, 0, err
	}
	if sol.Value != 1 {
		for range 8 {
			if k -= harder; k < 0 || k > len(g.tunePoints()) {
				return nil, 0, nil
			}
			if sol, err = solve(k); err != nil || sol.Value == 1 {
				return sol, k, err
			}
		}
		return nil, 0, nil
	}
	for range 8 {
		next := k + harder
		if next < 0 || next > len(g.tunePoints()) {
			break
		}
		s, err := solve(next)
		if err != nil || s.Value != 1 {
			break
		}
		sol, k = s, next
	}
	return sol, k, nil
}
