package core

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// node is one stored position: 16 bytes. Children of a node are contiguous in
// the arena, so a node needs only the index of its first child; the number of
// children comes from the game while the search stands on it.
type node struct {
	w     float64 // sum of real rewards, max's perspective
	n     uint32  // real simulations through the node
	first int32   // first child in the arena; -1 until expanded
}

// virtual is a node's virtual experience (K1, K2), max's perspective.
type virtual struct{ n, w float64 }

// amafStat is a node's all-moves-as-first count and reward sum, max's perspective.
type amafStat struct {
	n uint32
	w float64
}

// step is one stored node of the current simulation's path.
type step struct {
	node int32
	kids int32 // number of children, once the descent has left the node
	kind Kind
}

// playedMove is one player move of the current simulation, for AMAF.
type playedMove struct {
	depth int32
	move  int32
	side  int32 // 0 for max, 1 for min
}

// Search is one Monte-Carlo tree search over a game with a rule. It is not
// safe for concurrent use; run one Search per goroutine.
type Search struct {
	game  Game
	rule  Rule
	cfg   Config
	needs Needs
	heur  Heuristic // non-nil when virtual experience or priors use it
	mover Mover     // non-nil when AMAF uses it

	rng   RNG
	sims  int64
	err   error
	nodes []node
	virt  []virtual  // parallel to nodes when needs.Virtual != nil
	prior []float64  // parallel to nodes when needs.Priors
	amaf  []amafStat // parallel to nodes when needs.AMAF
	moves []int32    // parallel to nodes when needs.AMAF: move identity of the edge
	mm    []float64  // parallel to nodes with BackupMinimax

	path   []step
	played []playedMove
	seen   []uint32 // AMAF marks by key, compared with stamp
	stamp  uint32
	limit  int // move identities are < limit
	site   Site
	inRule bool // a panic now comes from the rule
}

// New returns a search of game with rule, configured by cfg. It returns an
// error when cfg is out of range or rule is nil.
func New(game Game, rule Rule, cfg Config) (*Search, error) {
	switch {
	case game == nil:
		return nil, errors.New("core: nil game")
	case rule == nil:
		return nil, errors.New("core: nil rule")
	case cfg.Growth > GrowPractical:
		return nil, fmt.Errorf("core: unknown growth mode %d", cfg.Growth)
	case cfg.Backup > BackupMinimax:
		return nil, fmt.Errorf("core: unknown backup %d", cfg.Backup)
	case cfg.ExpandAfter < 0:
		return nil, fmt.Errorf("core: ExpandAfter %d is negative", cfg.ExpandAfter)
	case cfg.Capacity < 0:
		return nil, fmt.Errorf("core: Capacity %d is negative", cfg.Capacity)
	case cfg.MaxNodes < 0:
		return nil, fmt.Errorf("core: MaxNodes %d is negative", cfg.MaxNodes)
	}
	if cfg.ExpandAfter == 0 {
		cfg.ExpandAfter = 1
	}
	s := &Search{game: game, rule: rule, cfg: cfg, needs: NeedsOf(rule)}
	if h, ok := game.(Heuristic); ok && (s.needs.Priors || s.needs.Virtual != nil) {
		s.heur = h
	}
	if s.needs.AMAF {
		if m, ok := game.(Mover); ok {
			s.mover = m
			s.limit = m.MoveLimit()
		}
	}
	capacity := max(cfg.Capacity, 1)
	s.nodes = make([]node, 0, capacity)
	if s.needs.Virtual != nil {
		s.virt = make([]virtual, 0, capacity)
	}
	if s.needs.Priors {
		s.prior = make([]float64, 0, capacity)
	}
	if s.needs.AMAF {
		s.amaf = make([]amafStat, 0, capacity)
		s.moves = make([]int32, 0, capacity)
		s.seen = make([]uint32, 2*max(s.limit, 1))
	}
	if cfg.Backup == BackupMinimax {
		s.mm = make([]float64, 0, capacity)
	}
	s.path = make([]step, 0, 64)
	s.played = make([]playedMove, 0, 64)
	s.Reset(cfg.Seed)
	return s, nil
}

// Reset empties the tree and reseeds the search, keeping its memory, so that
// one Search can serve many seeds without allocating.
func (s *Search) Reset(seed uint64) {
	s.rng.Seed(seed)
	s.cfg.Seed = seed
	s.sims = 0
	s.err = nil
	s.nodes = s.nodes[:0]
	s.virt = s.virt[:0]
	s.prior = s.prior[:0]
	s.amaf = s.amaf[:0]
	s.moves = s.moves[:0]
	s.mm = s.mm[:0]
	s.grow(1)
	s.nodes[0].first = -1
	if s.prior != nil {
		s.prior[0] = math.NaN()
	}
}

// Sims is the number of simulations run since New or Reset.
func (s *Search) Sims() int64 { return s.sims }

// Nodes is the number of stored nodes, visited or not: a node is stored as
// soon as its parent is expanded.
func (s *Search) Nodes() int { return len(s.nodes) }

// BytesPerNode is the arena memory each stored node costs with this search's
// rule and configuration: 16 bytes, plus 16 for virtual experience, 8 for
// priors, 20 for AMAF and 8 for minimax backups.
func (s *Search) BytesPerNode() int {
	b := 16
	if s.virt != nil {
		b += 16
	}
	if s.prior != nil {
		b += 8
	}
	if s.amaf != nil {
		b += 16 + 4
	}
	if s.mm != nil {
		b += 8
	}
	return b
}

// Run performs sims more simulations, or fewer if ctx ends first (checked
// every 256 simulations; Run then returns ctx.Err()). Calling Run again goes
// on with the same tree, so a caller can inspect the search at checkpoints of
// its choice. After any other error the search is spoiled: Run returns the
// same error until Reset.
func (s *Search) Run(ctx context.Context, sims int) (err error) {
	if sims <= 0 {
		return fmt.Errorf("core: budget of %d simulations, want at least 1", sims)
	}
	if s.err != nil {
		return s.err
	}
	if s.sims+int64(sims) > math.MaxUint32 {
		return fmt.Errorf("core: %d simulations would overflow the node counters", s.sims+int64(sims))
	}
	defer func() {
		if p := recover(); p != nil {
			if s.inRule {
				s.err = &RuleError{Path: s.pathMoves(), Sim: s.sims, Panic: p}
			} else {
				s.err = &GameError{Path: s.pathMoves(), Sim: s.sims, Msg: fmt.Sprintf("panic: %v", p)}
			}
			s.inRule = false
			err = s.err
		}
	}()
	done := ctx.Done()
	for i := range sims {
		if done != nil && i&255 == 255 {
			select {
			case <-done:
				return ctx.Err()
			default:
			}
		}
		if err := s.simulate(); err != nil {
			s.err = err
			return err
		}
		s.sims++
	}
	return nil
}

// simulate runs one simulation: descent, growth, roll-out and backup.
func (s *Search) simulate() error {
	g := s.game
	g.Reset()
	s.path = s.path[:0]
	s.played = s.played[:0]
	paper := s.cfg.Growth == GrowPaper
	cur := int32(0)
	var reward float64
	for depth := int32(0); ; depth++ {
		kind := g.Kind()
		s.path = append(s.path, step{node: cur, kind: kind})
		if kind == Terminal {
			reward = g.Reward()
			break
		}
		if s.nodes[cur].first < 0 {
			if !paper && (s.nodes[cur].n < uint32(s.cfg.ExpandAfter) || s.full(g.NumMoves())) {
				r, err := s.rollout(depth)
				if err != nil {
					return err
				}
				reward = r
				break
			}
			if err := s.expand(cur, kind); err != nil {
				return err
			}
		}
		first := s.nodes[cur].first
		k := g.NumMoves()
		s.path[len(s.path)-1].kids = int32(k)
		var i int
		if kind == Chance {
			var err error
			if i, err = s.sample(k); err != nil {
				return err
			}
		} else {
			if kind != Max && kind != Min {
				return s.errorf("unknown kind %v", kind)
			}
			i = s.choose(cur, first, k, kind, depth)
			if uint(i) >= uint(k) {
				return &RuleError{Path: s.pathMoves(), Sim: s.sims, Index: i, Len: k}
			}
			if s.amaf != nil {
				s.play(depth, kind, s.moves[first+int32(i)])
			}
		}
		g.Play(i)
		cur = first + int32(i)
	}
	if !(reward >= 0 && reward <= 1) {
		return s.errorf("terminal reward %v outside [0,1]", reward)
	}
	s.backup(reward)
	return nil
}

// full reports whether expanding k children would cross MaxNodes.
func (s *Search) full(k int) bool {
	return s.cfg.MaxNodes > 0 && len(s.nodes)+k > s.cfg.MaxNodes
}

// choose sets up the site of node cur and asks the rule for a child.
func (s *Search) choose(cur, first int32, k int, kind Kind, depth int32) int {
	st := &s.site
	end := first + int32(k)
	st.kids = s.nodes[first:end]
	st.self = s.nodes[cur]
	st.flip = kind == Min
	st.depth = int(depth)
	st.t = s.sims
	st.rng = &s.rng
	st.hasLog = false
	if s.virt != nil {
		st.virt = s.virt[first:end]
		st.sVirt = s.virt[cur]
	}
	if s.prior != nil {
		st.prior = s.prior[first:end]
	}
	if s.amaf != nil {
		st.amaf = s.amaf[first:end]
	}
	if s.mm != nil {
		st.mm = s.mm[first:end]
		st.sMM = s.mm[cur]
	}
	s.inRule = true
	i := s.rule.Select(st)
	s.inRule = false
	return i
}

// sample draws a child of the current chance position by its probabilities.
func (s *Search) sample(k int) (int, error) {
	u := s.rng.Float64()
	acc := 0.0
	for i := range k {
		acc += s.game.Prob(i)
		if u < acc {
			return i, nil
		}
	}
	if math.Abs(acc-1) > 1e-9 {
		return 0, s.errorf("chance probabilities sum to %v, want 1", acc)
	}
	return k - 1, nil
}

// grow appends k zeroed nodes (and their optional statistics) to the arena.
func (s *Search) grow(k int) {
	n := len(s.nodes) + k
	if n > cap(s.nodes) {
		s.nodes = append(s.nodes[:cap(s.nodes)], make([]node, n-cap(s.nodes))...)
	}
	s.nodes = s.nodes[:n]
	clear(s.nodes[n-k:])
	if s.virt != nil {
		s.virt = extend(s.virt, k)
	}
	if s.prior != nil {
		s.prior = extend(s.prior, k)
	}
	if s.amaf != nil {
		s.amaf = extend(s.amaf, k)
		s.moves = extend(s.moves, k)
	}
	if s.mm != nil {
		s.mm = extend(s.mm, k)
	}
}

// extend appends k zero values to a.
func extend[T any](a []T, k int) []T {
	n := len(a) + k
	if n > cap(a) {
		a = append(a[:cap(a)], make([]T, n-cap(a))...)
	}
	a = a[:n]
	clear(a[n-k:])
	return a
}

// expand adds the children of node cur, the game's current position.
func (s *Search) expand(cur int32, kind Kind) error {
	g := s.game
	k := g.NumMoves()
	if k <= 0 {
		return s.errorf("%v position with %d moves", kind, k)
	}
	if s.full(k) || len(s.nodes)+k > math.MaxInt32 {
		return s.errorf("tree is full: %d stored nodes, MaxNodes %d", len(s.nodes), s.cfg.MaxNodes)
	}
	first := int32(len(s.nodes))
	s.grow(k)
	for i := range k {
		s.nodes[first+int32(i)].first = -1
	}
	s.nodes[cur].first = first
	if kind == Chance {
		return nil
	}
	if s.heur != nil || s.prior != nil || s.virt != nil {
		for i := range k {
			h, ok := math.NaN(), false
			if s.heur != nil {
				h, ok = s.heur.Prior(i)
				if !ok {
					h = math.NaN()
				}
			}
			if s.prior != nil {
				s.prior[first+int32(i)] = h
			}
			if s.virt != nil {
				k1, k2 := s.needs.Virtual.Virtual(h, ok)
				if !(k1 >= 0 && k2 >= 0 && k2 <= k1) || math.IsInf(k1, 0) {
					return &RuleError{Path: s.pathMoves(), Sim: s.sims, Index: i, Len: k,
						Msg: fmt.Sprintf("virtual experience k1=%v k2=%v, want 0 ≤ k2 ≤ k1 < ∞", k1, k2)}
				}
				if kind == Min {
					k2 = k1 - k2
				}
				s.virt[first+int32(i)] = virtual{k1, k2}
			}
		}
	}
	if s.moves != nil {
		for i := range k {
			m := i
			if s.mover != nil {
				m = s.mover.Move(i)
			}
			if m < 0 || m > math.MaxInt32/2-1 {
				return s.errorf("move identity %d of child %d out of range", m, i)
			}
			s.moves[first+int32(i)] = int32(m)
		}
	}
	return nil
}

// rollout plays the default policy from the current position to the end.
func (s *Search) rollout(depth int32) (float64, error) {
	g := s.game
	for ; ; depth++ {
		kind := g.Kind()
		if kind == Terminal {
			return g.Reward(), nil
		}
		k := g.NumMoves()
		if k <= 0 {
			return 0, s.errorf("%v position with %d moves in a roll-out", kind, k)
		}
		var i int
		switch kind {
		case Chance:
			var err error
			if i, err = s.sample(k); err != nil {
				return 0, err
			}
		case Max, Min:
			if s.cfg.Rollout != nil {
				i = s.cfg.Rollout.Choose(g, &s.rng)
				if uint(i) >= uint(k) {
					return 0, s.errorf("roll-out policy chose move %d of %d", i, k)
				}
			} else {
				i = s.rng.IntN(k)
			}
			if s.amaf != nil {
				m := i
				if s.mover != nil {
					m = s.mover.Move(i)
				}
				s.play(depth, kind, int32(m))
			}
		default:
			return 0, s.errorf("unknown kind %v in a roll-out", kind)
		}
		g.Play(i)
	}
}

// errorf returns an error that names the current path.
func (s *Search) errorf(format string, args ...any) error {
	return &GameError{Path: s.pathMoves(), Sim: s.sims, Msg: fmt.Sprintf(format, args...)}
}

// pathMoves returns the move indices from the root to the deepest node of
// the current path.
func (s *Search) pathMoves() []int32 {
	var moves []int32
	for j := 1; j < len(s.path); j++ {
		moves = append(moves, s.path[j].node-s.nodes[s.path[j-1].node].first)
	}
	return moves
}
