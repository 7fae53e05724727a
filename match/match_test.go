package match

import (
	"context"
	"errors"
	"math"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/games/connect4"
	"github.com/mctscheck/mctscheck/games/goboard"
	"github.com/mctscheck/mctscheck/rules"
)

// gameNamed returns the game of a -game name: "connect4" or "goN".
func gameNamed(t testing.TB, name string) Game {
	t.Helper()
	if name == "connect4" {
		return ConnectFour()
	}
	size, err := strconv.Atoi(strings.TrimPrefix(name, "go"))
	if err != nil {
		t.Fatalf("game %q: %v", name, err)
	}
	g, err := Go(goboard.Config{Size: size})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// player returns the player of a rule spec.
func player(t *testing.T, spec string) Player {
	t.Helper()
	in, err := rules.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	return Player{Name: in.Spec, Rule: in.Rule, Backup: in.Backup}
}

func TestWilson(t *testing.T) {
	tests := []struct {
		score     float64
		n         int
		rate      float64
		low, high float64
	}{
		{50, 100, 0.5, 0.4038, 0.5962},
		{0, 10, 0, 0, 0.2775},
		{10, 10, 1, 0.7225, 1},
		{300, 600, 0.5, 0.4601, 0.5399}, // ±4% at 600 games
		{317.5, 600, 317.5 / 600.0, 0.4892, 0.5688},
	}
	for _, tt := range tests {
		rate, low, high := Wilson(tt.score, tt.n)
		if math.Abs(rate-tt.rate) > 1e-12 || math.Abs(low-tt.low) > 5e-5 || math.Abs(high-tt.high) > 5e-5 {
			t.Errorf("Wilson(%v, %d) = %.4f [%.4f, %.4f], want %.4f [%.4f, %.4f]", tt.score, tt.n, rate, low, high, tt.rate, tt.low, tt.high)
		}
	}
	if rate, low, high := Wilson(0, 0); !math.IsNaN(rate) || low != 0 || high != 1 {
		t.Errorf("Wilson(0, 0) = %v [%v, %v], want NaN [0, 1]", rate, low, high)
	}
}

// TestDeterministic: a match's games depend on the seed and the game's
// index only, not on the number of workers, and a match played in parts
// (First) plays the same games.
func TestDeterministic(t *testing.T) {
	ctx := context.Background()
	a, b := player(t, "threshold:v=0.3,rule=mc-rave"), player(t, "mc-rave")
	for _, name := range []string{"connect4", "go5"} {
		game := gameNamed(t, name)
		cfg := Config{Game: game, A: a, B: b, Games: 6, Budget: 40, Seed: 7, Workers: 1}
		one, err := Play(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Workers = 3
		three, err := Play(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(one, three); diff != "" {
			t.Errorf("%s: 1 worker and 3 workers differ (-1 +3):\n%s", name, diff)
		}
		cfg.First, cfg.Games = 4, 2
		part, err := Play(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(one.Records[4:], part.Records); diff != "" {
			t.Errorf("%s: games 4 and 5 played apart differ (-whole +part):\n%s", name, diff)
		}
		for i, r := range one.Records {
			if r.Index != i || r.AFirst != (i%2 == 0) || len(r.Moves) == 0 || r.End == "" || r.End == "playing" {
				t.Errorf("%s: record %d: index %d, A first %v, %d moves, end %q", name, i, r.Index, r.AFirst, len(r.Moves), r.End)
			}
		}
		if one.Wins+one.Draws+one.Losses != 6 || one.Games != 6 {
			t.Errorf("%s: %d+%d+%d results of %d games", name, one.Wins, one.Draws, one.Losses, one.Games)
		}
	}
}

// TestRecords: the records replay to their results: Connect Four's move
// strings through connect4.Parse, Go's moves through goboard, and the SGF
// holds them.
func TestRecords(t *testing.T) {
	ctx := context.Background()
	p := player(t, "uct")
	game := ConnectFour()
	res, err := Play(ctx, Config{Game: game, A: p, B: p, Games: 4, Budget: 30, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Records {
		pos, err := connect4.Parse(r.Text)
		if err != nil || !pos.Over() || pos.Stones() != len(r.Moves) {
			t.Errorf("connect4 game %d: %q: %v, over %v", r.Index, r.Text, err, pos.Over())
		}
		want := 0.5
		if pos.Won() {
			want = float64(pos.Stones() % 2)
		}
		if r.First != want {
			t.Errorf("connect4 game %d: first player's result %v, want %v", r.Index, r.First, want)
		}
	}
	gogame, err := Go(goboard.Config{Size: 5})
	if err != nil {
		t.Fatal(err)
	}
	res, err = Play(ctx, Config{Game: gogame, A: p, B: p, Games: 2, Budget: 30, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Records {
		b, err := goboard.NewBoard(goboard.Config{Size: 5})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range r.Moves {
			if err := b.Play(m); err != nil {
				t.Fatalf("go game %d: %v", r.Index, err)
			}
		}
		if b.Status() == goboard.Playing || b.Reward() != r.First || b.Score() != r.Score || b.Status().String() != r.End {
			t.Errorf("go game %d: replayed to %v, reward %v, score %v; record says %q, %v, %v", r.Index, b.Status(), b.Reward(), b.Score(), r.End, r.First, r.Score)
		}
		for _, want := range []string{"(;GM[1]FF[4]", "SZ[5]KM[7.5]RU[Chinese]", "PB[uct:c=", "RE[", ";B[", ";W["} {
			if !strings.Contains(r.Text, want) {
				t.Errorf("go game %d: no %q in the SGF:\n%s", r.Index, want, r.Text)
			}
		}
		if got := strings.Count(r.Text, ";B[") + strings.Count(r.Text, ";W["); got != len(r.Moves) {
			t.Errorf("go game %d: %d moves in the SGF, want %d", r.Index, got, len(r.Moves))
		}
	}
}

// TestGoStateErrors: illegal and malformed moves are errors that say why,
// and leave the state as it was.
func TestGoStateErrors(t *testing.T) {
	st, err := NewGoState(goboard.Config{Size: 5})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.PlayAs("b", "C3"); err != nil {
		t.Fatal(err)
	}
	// GoState is goboard.History's: its TestHistory has the table of
	// refused moves; one of them here shows the state passes them on.
	if err := st.PlayAs("w", "C3"); err == nil || !strings.Contains(err.Error(), "occupied") {
		t.Errorf("PlayAs(w, C3) on C3 = %v, want an error about occupied", err)
	}
	if len(st.Moves()) != 1 || st.Board().MovesPlayed() != 1 {
		t.Errorf("after refused moves: %v", st.Moves())
	}
	if err := st.Play(25); err != nil { // a pass by White
		t.Fatal(err)
	}
	if err := st.Play(25); err != nil || !st.Over() {
		t.Fatalf("two passes: %v, over %v", err, st.Over())
	}
	if err := st.Play(0); !errors.Is(err, goboard.ErrOver) {
		t.Errorf("a move after the end: %v, want ErrOver", err)
	}
	if _, err := Think(context.Background(), st, player(t, "uct"), 10, core.MostVisited, 1); err == nil {
		t.Error("Think after the end: no error")
	}
}

func TestConfigErrors(t *testing.T) {
	ctx := context.Background()
	p := player(t, "uct")
	game := ConnectFour()
	for _, tt := range []struct {
		cfg  Config
		want string
	}{
		{Config{A: p, B: p, Games: 1, Budget: 2}, "no game"},
		{Config{Game: game, A: p, Games: 1, Budget: 2}, "without a rule"},
		{Config{Game: game, A: p, B: p, Games: 0, Budget: 2}, "0 games"},
		{Config{Game: game, A: p, B: p, Games: 1, Budget: 0}, "budget 0"},
		{Config{Game: game, A: p, B: p, Games: 1, Budget: 1}, "budget 1, want 2 to"},
		{Config{Game: game, A: p, B: p, Games: 1, Budget: MaxBudget + 1}, "budget"},
		{Config{Game: game, A: p, B: p, Games: 1, Budget: 2, First: -1}, "first game -1"},
		{Config{Game: game, A: p, B: p, Games: 1, Budget: 2, Workers: -1}, "-1 workers"},
	} {
		if _, err := Play(ctx, tt.cfg); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Play: %v, want an error about %q", err, tt.want)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Play(cctx, Config{Game: game, A: p, B: p, Games: 2, Budget: 10}); !errors.Is(err, context.Canceled) {
		t.Errorf("Play with a cancelled context: %v", err)
	}
}

// panicky is a rule that panics: a match reports it as the search's
// *core.RuleError.
type panicky struct{}

func (panicky) Select(*core.Site) int { panic("boom") }

func TestRuleFailure(t *testing.T) {
	p := player(t, "uct")
	_, err := Play(context.Background(), Config{Game: ConnectFour(), A: p, B: Player{Name: "panicky", Rule: panicky{}}, Games: 2, Budget: 10})
	if _, ok := errors.AsType[*core.RuleError](err); !ok || !strings.Contains(err.Error(), "panicky") {
		t.Errorf("a panicking rule: %v, want a *core.RuleError that names the player", err)
	}
}

// TestMinBudget: a search of MinBudget simulations decides a move in every
// game, at the start and after a pass; one simulation is refused, as is a
// match of such searches.
func TestMinBudget(t *testing.T) {
	ctx := context.Background()
	p := player(t, "uct")
	g5, _ := Go(goboard.Config{Size: 5})
	g9, _ := Go(goboard.Config{})
	for _, game := range []Game{ConnectFour(), g5, g9} {
		st, err := game.New()
		if err != nil {
			t.Fatal(err)
		}
		for ply := range 3 {
			m, err := Think(ctx, st, p, MinBudget, core.MostVisited, uint64(ply))
			if err != nil {
				t.Fatalf("%s, ply %d: %v", game.Name(), ply, err)
			}
			if err := st.Play(m); err != nil {
				t.Fatalf("%s, ply %d: the search chose %d: %v", game.Name(), ply, m, err)
			}
		}
		if _, err := Think(ctx, st, p, MinBudget-1, core.MostVisited, 1); err == nil || !strings.Contains(err.Error(), "budget 1, want 2") {
			t.Errorf("%s: Think with %d simulation: %v", game.Name(), MinBudget-1, err)
		}
		if _, err := Play(ctx, Config{Game: game, A: p, B: p, Games: 1, Budget: MinBudget}); err != nil {
			t.Errorf("%s: a match at MinBudget: %v", game.Name(), err)
		}
	}
}

// TestThinker checks that a Thinker, thinking move after move and from
// one game to another (Connect Four, 5×5 and 9×9 Go), plays the moves of
// Think, whose every search is new.
func TestThinker(t *testing.T) {
	ctx := context.Background()
	p := player(t, "uct")
	th := NewThinker(p)
	g5, _ := Go(goboard.Config{Size: 5})
	g9, _ := Go(goboard.Config{})
	for _, game := range []Game{ConnectFour(), g5, g9, ConnectFour()} {
		st, err := game.New()
		if err != nil {
			t.Fatal(err)
		}
		for ply := range 4 {
			want, err := Think(ctx, st, p, 300, core.MostVisited, uint64(ply))
			if err != nil {
				t.Fatal(err)
			}
			got, err := th.Think(ctx, st, 300, core.MostVisited, uint64(ply))
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("%s, ply %d: the Thinker played %d, Think %d", game.Name(), ply, got, want)
			}
			if err := st.Play(want); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestThinkerKeepsMemory checks that a Thinker's second search allocates
// no new tree, where Think's does.
func TestThinkerKeepsMemory(t *testing.T) {
	ctx := context.Background()
	p := player(t, "uct")
	st, err := gameNamed(t, "go9").New()
	if err != nil {
		t.Fatal(err)
	}
	allocated := func(f func()) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	think := func(th *Thinker) {
		if _, err := th.Think(ctx, st, 1000, core.MostVisited, 1); err != nil {
			t.Fatal(err)
		}
	}
	th := NewThinker(p)
	think(th)
	const tree = 1000 * 81 * 16 // a node for each child of each of 1,000 expansions
	if fresh := allocated(func() { think(NewThinker(p)) }); fresh < tree {
		t.Fatalf("a new search allocated %d bytes, less than its tree's %d: the test measures nothing", fresh, tree)
	}
	if again := allocated(func() { think(th) }); again > tree/20 {
		t.Errorf("the Thinker's second search allocated %d bytes, want at most %d: its tree is new", again, tree/20)
	}
}
