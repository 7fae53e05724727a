package match

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"runtime"
	"sync"

	"github.com/mctscheck/mctscheck/core"
)

// Player is one side of a match: a selection rule and the backup its
// searches use.
type Player struct {
	// Name labels the player in records and reports, e.g. a rule spec.
	Name string
	// Rule is the selection rule. Its Select must be safe to call from
	// several goroutines at once (one search per game runs in each worker),
	// as the catalogue's rules are.
	Rule core.Rule
	// Backup is the backup of its searches.
	Backup core.Backup
}

// Config sets up a match of A against B. Game, A.Rule, B.Rule, Games and
// Budget are required; the zero value of the other fields means the
// defaults.
type Config struct {
	// Game is the game played (Go or ConnectFour).
	Game Game
	// A and B are the two players. A moves first in the even-numbered games
	// (0, 2, …) and B in the odd ones.
	A, B Player
	// Games is the number of games, 1 to MaxGames.
	Games int
	// First is the index of the first game: the match plays games First to
	// First+Games−1, so that a long match can be played in parts, each
	// game the same as in one long match. 0 to MaxGames.
	First int
	// Budget is the number of simulations of every search, one search per
	// move, MinBudget to MaxBudget.
	Budget int
	// Workers is the number of games played at once; 0 means GOMAXPROCS.
	// The result does not depend on it.
	Workers int
	// Seed fixes every random choice of the match: game i's searches are
	// seeded from GameSeed(Seed, i), whatever worker plays it.
	Seed uint64
	// Decision picks the move from each search; the zero value is
	// core.MostVisited, Algorithm 1's decision.
	Decision core.Decision
	// Progress, if not nil, is called after each game with the number of
	// games finished and the record of the one that just finished, from one
	// goroutine at a time.
	Progress func(done int, r *Record)
}

// Bounds of Config.
const (
	MaxGames = 1_000_000
	// MinBudget is the smallest budget of a search that decides a move: a
	// practical-mode search rolls out from the root on its first
	// simulation and expands the root only on its second.
	MinBudget = 2
	MaxBudget = 1 << 24
)

// Record is one game of a match.
type Record struct {
	// Index is the game's number, from 0 (Config.First for a match's first
	// game).
	Index int
	// Seed is the game's seed, GameSeed(Config.Seed, Index).
	Seed uint64
	// AFirst tells whether A moved first (Black in Go).
	AFirst bool
	// Moves are the move identities played, first player first: Go points
	// (Vertex) and Size² for the pass; Connect Four columns 0 to 6.
	Moves []int
	// First is the outcome for the first player: 1 a win, 1/2 a draw, 0 a
	// loss.
	First float64
	// End says how the game ended, e.g. "two passes", "move cap",
	// "four in a row", "full board".
	End string
	// Score is Go's final area score for Black (Black's area minus White's
	// minus komi); 0 for Connect Four.
	Score float64
	// Text is the game as a record file: SGF for Go, a move string for
	// Connect Four.
	Text string
}

// AScore is A's outcome: 1 a win, 1/2 a draw, 0 a loss.
func (r *Record) AScore() float64 {
	if r.AFirst {
		return r.First
	}
	return 1 - r.First
}

// Result is the outcome of a match, from A's point of view.
type Result struct {
	// Games is the number of games played.
	Games int
	// Wins, Draws and Losses count A's results.
	Wins, Draws, Losses int
	// Rate is A's score per game, (Wins + Draws/2)/Games, and [Low, High]
	// its 95% Wilson score interval (see Wilson).
	Rate, Low, High float64
	// FirstRate and SecondRate are A's score per game in the games where it
	// moved first and second.
	FirstRate, SecondRate float64
	// Records are the games, by index.
	Records []Record
}

// Play plays the match that cfg describes and returns its result. Games are
// spread over cfg.Workers goroutines; each game depends only on its index
// and the match's seed, so the result is the same for any number of
// workers. The error is the first game's error in index order (a rule that
// failed, a game that broke its contract), or the context's.
func Play(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, cfg.Games)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	recs := make([]Record, cfg.Games)
	errs := make([]error, cfg.Games)
	next := make(chan int)
	var mu sync.Mutex
	done := 0
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a, b := NewThinker(cfg.A), NewThinker(cfg.B)
			for i := range next {
				r, err := playGame(ctx, &cfg, cfg.First+i, a, b)
				if err != nil {
					errs[i] = err
					cancel()
					continue
				}
				recs[i] = *r
				mu.Lock()
				done++
				if cfg.Progress != nil {
					cfg.Progress(done, &recs[i])
				}
				mu.Unlock()
			}
		}()
	}
	for i := range cfg.Games {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	for i, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return nil, fmt.Errorf("match: game %d: %w", cfg.First+i, err)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return summarize(recs), nil
}

// check validates cfg.
func (cfg *Config) check() error {
	switch {
	case cfg.Game == nil:
		return errors.New("match: no game")
	case cfg.A.Rule == nil || cfg.B.Rule == nil:
		return errors.New("match: a player without a rule")
	case cfg.Games < 1 || cfg.Games > MaxGames:
		return fmt.Errorf("match: %d games, want 1 to %d", cfg.Games, MaxGames)
	case cfg.Budget < MinBudget || cfg.Budget > MaxBudget:
		return fmt.Errorf("match: budget %d, want %d to %d simulations", cfg.Budget, MinBudget, MaxBudget)
	case cfg.First < 0 || cfg.First > MaxGames:
		return fmt.Errorf("match: first game %d, want 0 to %d", cfg.First, MaxGames)
	case cfg.Workers < 0:
		return fmt.Errorf("match: %d workers, want 0 (GOMAXPROCS) or more", cfg.Workers)
	case cfg.Decision > core.Secure:
		return fmt.Errorf("match: unknown decision rule %d", cfg.Decision)
	}
	return nil
}

// GameSeed is the seed of game i of a match with the given seed, a
// splitmix64 hash of both; the search for the move at ply p of that game is
// seeded with GameSeed(GameSeed(seed, i), p).
func GameSeed(seed uint64, i int) uint64 {
	z := seed ^ (uint64(i)+1)*0x9E3779B97F4A7C15
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// playGame plays game i of the match to the end, with a and b thinking
// for cfg.A and cfg.B.
func playGame(ctx context.Context, cfg *Config, i int, a, b *Thinker) (*Record, error) {
	rec := &Record{Index: i, Seed: GameSeed(cfg.Seed, i), AFirst: i%2 == 0}
	st, err := cfg.Game.New()
	if err != nil {
		return nil, err
	}
	first, second := &cfg.A, &cfg.B
	if !rec.AFirst {
		first, second, a, b = second, first, b, a
	}
	for ply := 0; !st.Over(); ply++ {
		p, th := first, a
		if ply%2 == 1 {
			p, th = second, b
		}
		m, err := th.think(ctx, st, cfg.Budget, cfg.Decision, GameSeed(rec.Seed, ply))
		if err != nil {
			return nil, fmt.Errorf("move %d (%s): %w", ply+1, p.Name, err)
		}
		if err := st.Play(m); err != nil {
			return nil, fmt.Errorf("move %d (%s): %w", ply+1, p.Name, err)
		}
		rec.Moves = append(rec.Moves, m)
	}
	rec.First, rec.End, rec.Score = st.Result()
	black, white := first.Name, second.Name
	rec.Text = st.Record(RecordInfo{First: black, Second: white, Index: i, Seed: rec.Seed})
	return rec, nil
}

// Think runs one search of budget simulations for p from the state's
// current position, seeded with seed, and returns the identity of the move
// that decision picks. It is the move a match plays, and what the GTP
// engine's genmove plays. A program that thinks move after move uses a
// Thinker, whose searches are these, in memory allocated once.
func Think(ctx context.Context, st State, p Player, budget int, decision core.Decision, seed uint64) (int, error) {
	return NewThinker(p).Think(ctx, st, budget, decision, seed)
}

// Thinker thinks for one player, move after move: its Think is the
// package's Think, the same move for the same state, budget, decision and
// seed, but its searches are one core.Search, moved to each new position
// by core.Search.ResetGame, so that the tree's memory is allocated and
// touched once in a game or a GTP session rather than once a move. (A
// page of fresh memory costs the process more than the simulations that
// fill it on some virtual machines: docs/speed.md.) It is not safe for
// concurrent use.
type Thinker struct {
	p   Player
	s   *core.Search
	pol core.Policy // the roll-out policy that s was made with
}

// NewThinker returns a Thinker for p.
func NewThinker(p Player) *Thinker { return &Thinker{p: p} }

// Think runs one search of budget simulations from the state's current
// position, seeded with seed, and returns the identity of the move that
// decision picks.
func (t *Thinker) Think(ctx context.Context, st State, budget int, decision core.Decision, seed uint64) (int, error) {
	if st.Over() {
		return 0, errors.New("match: the game is over")
	}
	if t.p.Rule == nil {
		return 0, errors.New("match: a player without a rule")
	}
	if budget < MinBudget || budget > MaxBudget {
		return 0, fmt.Errorf("match: budget %d, want %d to %d simulations", budget, MinBudget, MaxBudget)
	}
	return t.think(ctx, st, budget, decision, seed)
}

func (t *Thinker) think(ctx context.Context, st State, budget int, decision core.Decision, seed uint64) (int, error) {
	g, pol := st.Root()
	if t.s == nil || !samePolicy(pol, t.pol) || t.s.ResetGame(g, seed) != nil {
		s, err := core.New(g, t.p.Rule, core.Config{Seed: seed, Growth: core.GrowPractical, Backup: t.p.Backup, Rollout: pol,
			Capacity: capacity(g, budget)})
		if err != nil {
			return 0, err
		}
		t.s, t.pol = s, pol
	}
	if err := t.s.Run(ctx, budget); err != nil {
		return 0, err
	}
	d := t.s.Decide(decision)
	if d < 0 {
		return 0, errors.New("the search decided no move")
	}
	g.Reset()
	if mv, ok := g.(core.Mover); ok {
		return mv.Move(d), nil
	}
	return d, nil
}

// capacity is the arena that a search of budget simulations of g reserves
// up front (untouched until the tree grows into it): a node for each child
// that budget expansions add while no position has more moves than the
// root, up to one chunk of the arena (core.ChunkNodes), beyond which the
// arena grows without copying.
func capacity(g core.Game, budget int) int {
	g.Reset()
	return min(1+budget*max(g.NumMoves(), 1), core.ChunkNodes)
}

// samePolicy reports whether roll-out policies a and b are the same value,
// so that a search made with one serves the other.
func samePolicy(a, b core.Policy) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return reflect.ValueOf(a).Comparable() && reflect.ValueOf(b).Comparable() && a == b
}

// summarize counts the results of the records.
func summarize(recs []Record) *Result {
	r := &Result{Games: len(recs), Records: recs}
	var first, second, nFirst, nSecond float64
	for i := range recs {
		s := recs[i].AScore()
		switch {
		case s == 1:
			r.Wins++
		case s == 0:
			r.Losses++
		default:
			r.Draws++
		}
		if recs[i].AFirst {
			first, nFirst = first+s, nFirst+1
		} else {
			second, nSecond = second+s, nSecond+1
		}
	}
	r.Rate, r.Low, r.High = Wilson(float64(r.Wins)+float64(r.Draws)/2, r.Games)
	r.FirstRate, r.SecondRate = ratio(first, nFirst), ratio(second, nSecond)
	return r
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return math.NaN()
	}
	return a / b
}

// Wilson returns the rate score/n and its 95% Wilson score interval
// (E. B. Wilson, 1927), z = 1.96:
//
//	(p + z²/2n ± z·sqrt(p(1−p)/n + z²/4n²)) / (1 + z²/n),   p = score/n
//
// Draws count as half a win in score. The interval treats each game as a
// Bernoulli trial; draws, whose outcome 1/2 varies less, make it slightly
// conservative. For n = 0 it returns NaN, 0, 1.
func Wilson(score float64, n int) (rate, low, high float64) {
	if n <= 0 {
		return math.NaN(), 0, 1
	}
	const z = 1.959963984540054
	nf := float64(n)
	p := score / nf
	den := 1 + z*z/nf
	mid := (p + z*z/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	return p, max(0, mid-half), min(1, mid+half)
}
