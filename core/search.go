package core

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
)

// node is one stored position: 16 bytes. Children of a node are contiguous in
// the arena, so a node needs only the index of its first child; the number of
// children comes from the game while the search stands on it.
type node struct {
	w     float64 // sum of real rewards, max's perspective
	n     uint32  // real simulations through the node
	first int32   // first child in the arena; −1 until expanded (−2 while a tree-parallel worker expands it)
}

// virtual is a node's virtual experience (K1, K2), max's perspective.
type virtual struct{ n, w float64 }

// amafStat is a node's all-moves-as-first count and reward sum, max's perspective.
type amafStat struct {
	n uint32
	w float64
}

// step is one stored node of the current simulation's path. It holds no
// pointer, so that the path is copied as plain words (a pointer in a struct
// that the loop copies costs write barriers and store-forwarding stalls).
// A plain descent (descend's uctRun and uctArrays), whose backup reads the
// nodes alone, sets node alone.
type step struct {
	node  int32
	first int32 // the node's first child, once the descent has left the node
	kids  int32 // number of children, once the descent has left the node
	kind  Kind
	// by is the kind of the decision node that chose this node (the root's
	// own kind at the root; chance nodes pass their chooser on): whose loss
	// a virtual loss on this node is.
	by Kind
}

// playedMove is one player move of the current simulation, for AMAF.
type playedMove struct {
	depth int32
	move  int32
	side  int32 // 0 for max, 1 for min
}

// worker is the state of one goroutine of a search: its cursor on the
// game, its generator and its buffers. A serial search has one; a
// tree-parallel search has one per goroutine, all on one tree.
type worker struct {
	cursor
	heur    Heuristic // non-nil when virtual experience or priors use it
	playout Playouter // non-nil when the game plays the default roll-out itself
	mover   Mover     // non-nil when AMAF uses it

	rng    RNG
	t      int64   // index of the current simulation
	reward float64 // a lockstep simulation's reward, until its backup
	path   []step
	played []playedMove
	seen   []uint32 // AMAF marks by key, compared with stamp
	stamp  uint32
	limit  int // move identities are < limit
	site   Site
	uctX   uctExtra // a tree-parallel worker's input to UCT's loop
	inRule bool     // a panic now comes from the rule

	// Tree-parallel workers give the rule a snapshot of the children's
	// statistics, read atomically, with the virtual loss added.
	kids  []node
	virt  []virtual
	amaf  []amafStat
	mmBuf []float64
	sqBuf []float64
}

// Search is one Monte-Carlo tree search over a game with a rule. It is not
// safe for concurrent use: its methods must be called from one goroutine at
// a time (a tree-parallel search runs its own goroutines inside Run).
type Search struct {
	worker // the first worker: the only one of a serial search

	rule  Rule
	cfg   Config
	needs Needs
	tab   *tables
	// uct is set when the rule is core's UCT (itself or through Builtin),
	// with a constant for which the direct loop equals UCT.Select, and the
	// search keeps no statistic that would make its sites other than plain.
	uct *UCT
	// plain is set when uct is and the search keeps no optional statistic
	// at all: its simulations are descend's plain modes (uctRun and
	// uctArrays).
	plain bool

	sims int64
	err  error
	arena

	// Tree parallelism (NewTreeParallel): the other workers and the shared state.
	workers []*worker // all workers, the first being &s.worker; nil when serial
	vl      VirtualLoss
	mu      sync.Mutex // guards the arena's allocation
	par     parallelRun

	runCtx context.Context // Run's context, which roll-outs check; nil in a lockstep search

	// running is set while Run runs: a second Run at the same time, from
	// another goroutine, is an error that says so, not a corrupt tree.
	running atomic.Bool
}

// errConcurrentRun is Run's error when another Run of the same search is
// running.
var errConcurrentRun = errors.New("core: Search.Run called while another Run of the same search is running: a Search is not safe for concurrent use (give each goroutine its own search, or use NewTreeParallel or NewRoot for a parallel one)")

// New returns a search of game with rule, configured by cfg. It returns an
// error when cfg is out of range or rule is nil.
func New(game Game, rule Rule, cfg Config) (*Search, error) {
	if game == nil {
		return nil, errors.New("core: nil game")
	}
	return newSearch([]Game{game}, rule, cfg)
}

// newSearch builds a search with one worker per game.
func newSearch(games []Game, rule Rule, cfg Config) (*Search, error) {
	switch {
	case rule == nil:
		return nil, errors.New("core: nil rule")
	case cfg.Growth > GrowPractical:
		return nil, fmt.Errorf("core: unknown growth mode %d", cfg.Growth)
	case cfg.Backup > BackupMinimax:
		return nil, fmt.Errorf("core: unknown backup %d", cfg.Backup)
	case cfg.ExpandAfter < 0:
		return nil, fmt.Errorf("core: ExpandAfter %d is negative", cfg.ExpandAfter)
	}
	for i, g := range games {
		if g == nil {
			return nil, fmt.Errorf("core: nil game for worker %d", i)
		}
		if err := checkArrays(g, cfg); err != nil {
			return nil, err
		}
	}
	if cfg.ExpandAfter == 0 {
		cfg.ExpandAfter = 1
	}
	if err := checkBuiltin(rule); err != nil {
		return nil, err
	}
	needs, err := needsOf(rule)
	if err != nil {
		return nil, err
	}
	for i, g := range games {
		if err := checkMoveLimit(g, i, needs); err != nil {
			return nil, err
		}
	}
	s := &Search{rule: rule, needs: needs}
	s.nodes.c = [][]node{}
	if s.needs.Virtual != nil {
		s.arena.virt.c = [][]virtual{}
	}
	if s.needs.Priors {
		s.arena.prior.c = [][]float64{}
	}
	if s.needs.AMAF {
		s.arena.amaf.c = [][]amafStat{}
		s.moves.c = [][]int32{}
	}
	if cfg.Backup == BackupMinimax {
		s.mm.c = [][]float64{}
	}
	if s.needs.Squares {
		s.sq.c = [][]float64{}
	}
	if err := cfg.checkLimits(s.BytesPerNode()); err != nil {
		return nil, err
	}
	s.cfg, s.capacity, s.tab = cfg, cfg.Capacity, loadTables()
	if u, ok := builtin(rule).(UCT); ok && u.C >= 0 && u.C <= math.MaxFloat64 &&
		!s.arena.virt.used() && !s.mm.used() {
		s.uct = &u
		// C·sqrt(ln n) is finite for every count below 2^32, so that a
		// plain descent calls uctArgmax directly.
		s.plain = u.C <= math.MaxFloat64/8 && !s.arena.prior.used() && !s.arena.amaf.used() && !s.sq.used()
	}
	s.initWorker(&s.worker, games[0])
	s.Reset(cfg.Seed)
	return s, nil
}

// checkArrays reports a game whose arrays (ArrayGame) do not fit together,
// when the search would read them: without a roll-out policy.
func checkArrays(g Game, cfg Config) error {
	if t, ok := arraysOf(g); ok && cfg.Rollout == nil {
		return t.check()
	}
	return nil
}

// initWorker sets up w to drive game, keeping the buffers w has.
func (s *Search) initWorker(w *worker, game Game) {
	w.cursor = cursor{game: game}
	if t, ok := arraysOf(game); ok && s.cfg.Rollout == nil {
		w.useTable(t) // checked by checkArrays
	}
	w.playout, w.heur, w.mover, w.limit = nil, nil, nil, 0
	if w.table == nil && !s.needs.AMAF && s.cfg.Growth == GrowPractical {
		w.playout = playouterOf(game, s.cfg.Rollout)
	}
	if h, ok := game.(Heuristic); ok && (s.needs.Priors || s.needs.Virtual != nil) {
		w.heur = h
	}
	if s.needs.AMAF {
		if m, ok := game.(Mover); ok {
			w.mover = m
			w.limit = m.MoveLimit()
		}
		if n := 2 * max(w.limit, 1); len(w.seen) < n {
			w.seen, w.stamp = make([]uint32, n), 0
		}
	}
	if w.path == nil {
		w.path = make([]step, 0, 64)
		w.played = make([]playedMove, 0, 64)
	}
}

// needsOf is NeedsOf, with a panic of the rule's Needs turned into an
// error.
func needsOf(rule Rule) (needs Needs, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("core: rule %T: Needs panicked: %v", rule, p)
		}
	}()
	return NeedsOf(rule), nil
}

// checkBuiltin reports a core rule, itself or named through Builtin, whose
// parameters are out of range: UCT with a C that is not a finite number
// ≥ 0, Threshold with a NaN threshold or around such a rule.
func checkBuiltin(rule Rule) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("core: rule %T: Builtin panicked: %v", rule, p)
		}
	}()
	switch u := builtin(rule).(type) {
	case UCT:
		return u.check()
	case *UCT:
		if u != nil {
			return u.check()
		}
	case Threshold:
		if math.IsNaN(u.V) || math.IsNaN(u.VMin) {
			return fmt.Errorf("core: Threshold with V = %v, VMin = %v, want numbers", u.V, u.VMin)
		}
		if u.Rule == nil {
			return errors.New("core: Threshold around a nil rule")
		}
		return checkBuiltin(u.Rule)
	}
	return nil
}

// maxMoveLimit bounds a Mover's MoveLimit: AMAF keys a move by 2·m + side
// in an int32.
const maxMoveLimit = math.MaxInt32 / 2

// checkMoveLimit reports, for a search that keeps AMAF statistics, a
// Mover whose MoveLimit is out of range, or whose AMAF marks (8 bytes per
// move identity, per worker) cannot be allocated, before any allocation.
// g is worker i's game.
func checkMoveLimit(g Game, i int, needs Needs) error {
	m, ok := g.(Mover)
	if !ok || !needs.AMAF {
		return nil
	}
	limit := m.MoveLimit()
	if limit < 0 || limit > maxMoveLimit {
		return fmt.Errorf("core: game of worker %d: MoveLimit %d, want 0 to %d", i, limit, maxMoveLimit)
	}
	return checkMemory(int64(limit), 8, "MoveLimit", "a move identity, for AMAF")
}

// builtin returns the core rule that r declares itself to be, or r.
func builtin(r Rule) Rule {
	if b, ok := r.(Builtin); ok {
		if c := b.Builtin(); c != nil {
			return c
		}
	}
	return r
}

// Reset empties the tree and reseeds the search, keeping its memory, so that
// one Search can serve many seeds without allocating.
func (s *Search) Reset(seed uint64) {
	s.cfg.Seed = seed
	s.sims = 0
	s.err = nil
	for j, w := range s.workers {
		w.rng.Seed(WorkerSeed(seed, j))
	}
	if s.workers == nil {
		s.rng.Seed(seed)
	}
	s.arena.reset()
	s.arena.reserve()
	root, err := s.take(1) // the first chunk holds at least one node
	if err != nil {
		panic("core: " + err.Error())
	}
	s.nodes.at(root).first = -1
	if s.arena.prior.used() {
		*s.arena.prior.at(root) = math.NaN()
	}
}

// ResetGame is Reset on another game (or the same game at another
// start position): the tree emptied, the search reseeded and searching
// game from now on, with the same rule and configuration, keeping its
// memory. A program that searches one position after another (a GTP
// engine's genmoves, the moves of a match) thus allocates the arena once,
// and the search is the one New(game, rule, cfg) with this seed would run.
// Only a serial search (New) takes another game: a tree-parallel search
// has one game per worker, and gets an error, as does a nil game or one
// that New would refuse; the search is then unchanged.
func (s *Search) ResetGame(game Game, seed uint64) error {
	switch {
	case game == nil:
		return errors.New("core: ResetGame with a nil game")
	case s.workers != nil:
		return errors.New("core: ResetGame on a tree-parallel search, which has a game per worker")
	}
	if err := checkArrays(game, s.cfg); err != nil {
		return err
	}
	if err := checkMoveLimit(game, 0, s.needs); err != nil {
		return err
	}
	s.initWorker(&s.worker, game)
	s.Reset(seed)
	return nil
}

// WorkerSeed is the seed of worker j of a parallel search with the given
// seed: the seed itself for worker 0, so that one worker searches as a
// serial search does, and a splitmix64 hash of it for the others.
func WorkerSeed(seed uint64, j int) uint64 {
	if j == 0 {
		return seed
	}
	z := seed + uint64(j)*0x9E3779B97F4A7C15
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// Sims is the number of simulations run since New or Reset.
func (s *Search) Sims() int64 { return s.sims }

// Nodes is the number of stored nodes, visited or not: a node is stored as
// soon as its parent is expanded.
func (s *Search) Nodes() int { return s.count }

// BytesPerNode is the arena memory each stored node costs with this search's
// rule and configuration: 16 bytes, plus 16 for virtual experience, 8 for
// priors, 20 for AMAF, 8 for sums of squares, 8 for minimax backups and 4
// for a tree-parallel search's virtual loss. Chunks that are not yet full add to it (at most
// one chunk: 2^20 nodes).
func (s *Search) BytesPerNode() int {
	b := 16
	if s.arena.virt.used() {
		b += 16
	}
	if s.arena.prior.used() {
		b += 8
	}
	if s.arena.amaf.used() {
		b += 16 + 4
	}
	if s.mm.used() {
		b += 8
	}
	if s.sq.used() {
		b += 8
	}
	if s.fly.used() {
		b += 4
	}
	return b
}

// Run performs sims more simulations, or fewer if ctx ends first (checked
// every 256 simulations, and every 1024 moves of a roll-out but in a
// lockstep search; Run then returns ctx.Err(), and a simulation that the
// context cut short is not counted). Calling Run again goes
// on with the same tree, so a caller can inspect the search at checkpoints of
// its choice. After any other error the search is spoiled: Run returns the
// same error until Reset. A Search is not safe for concurrent use: a Run
// while another Run of the same search is running returns an error that
// says so, and changes nothing.
func (s *Search) Run(ctx context.Context, sims int) error {
	if ctx == nil {
		return errors.New("core: Run with a nil context (use context.Background())")
	}
	if !s.running.CompareAndSwap(false, true) {
		return errConcurrentRun
	}
	defer s.running.Store(false) // one defer, few returns: open-coded, no defer record
	return s.run(ctx, sims)
}

// run is Run once the search is known to be its own.
func (s *Search) run(ctx context.Context, sims int) (err error) {
	if sims <= 0 {
		return errBudget(sims)
	}
	if s.err != nil {
		return s.err
	}
	if s.sims+int64(sims) > math.MaxUint32 {
		return fmt.Errorf("core: %d simulations would overflow the node counters", s.sims+int64(sims))
	}
	s.runCtx = ctx
	if s.cfg.Lockstep && s.workers != nil {
		s.runCtx = nil // a lockstep batch cannot stop halfway: MaxDepth bounds its roll-outs
	}
	if s.workers != nil {
		return s.runShared(ctx, sims)
	}
	defer func() {
		if p := recover(); p != nil {
			s.err = s.panicError(&s.worker, p)
			err = s.err
		}
	}()
	done := ctx.Done()
	var poll poller
	for range sims {
		if done != nil && poll.due() {
			select {
			case <-done:
				return ctx.Err()
			default:
			}
			poll.looked()
		}
		s.t = s.sims
		if err := s.simulate(); err != nil {
			if !isCtxErr(err) {
				s.err = err
			}
			return err
		}
		s.sims++
	}
	return nil
}

func errBudget(sims int) error {
	return fmt.Errorf("core: budget of %d simulations, want at least 1", sims)
}

// panicError turns a panic of worker w into the error that spoils the search.
func (s *Search) panicError(w *worker, p any) error {
	defer func() { w.inRule = false }()
	if w.inRule {
		return &RuleError{Path: s.pathMoves(w), Sim: w.t, Panic: p}
	}
	return &GameError{Path: s.pathMoves(w), Sim: w.t, Msg: fmt.Sprintf("panic: %v", p)}
}

// simulate runs one simulation of a serial search: descent, growth,
// roll-out and backup.
func (s *Search) simulate() error {
	if s.plain { // backed up by the descent
		if s.table != nil {
			_, err := descend[uctArrays](s, &s.worker, nil)
			return err
		}
		_, err := descend[uctRun](s, &s.worker, nil)
		return err
	}
	reward, err := descend[serialRun](s, &s.worker, nil)
	if err != nil {
		return err
	}
	s.backup(reward)
	return nil
}

// moveBound bounds the move identities of worker w's game: its MoveLimit
// for a Mover; for other games, whose identities are move indices,
// maxMoveLimit.
func (w *worker) moveBound() int {
	if w.mover != nil {
		return w.limit
	}
	return maxMoveLimit
}

// full reports whether expanding k children would cross MaxNodes.
func (s *Search) full(k int) bool {
	return s.cfg.MaxNodes > 0 && s.count+k > s.cfg.MaxNodes
}

// sample draws a child of the current chance position by its probabilities.
// A stored chance node's probabilities were checked when it was expanded,
// a roll-out's just before (checkChance); should they fail to cover the
// draw, they are checked again.
func (s *Search) sample(w *worker, k int) (int, error) {
	u := w.rng.Float64()
	acc := 0.0
	for i := range k {
		acc += w.prob(i)
		if u < acc {
			return i, nil
		}
	}
	return k - 1, s.checkChance(w, k, 0)
}

// newKids allocates and initialises the k children of the worker's current
// position and returns the index of the first.
func (s *Search) newKids(w *worker, kind Kind, k int) (int32, error) {
	if depth := len(w.path) - 1; depth >= s.cfg.MaxDepth {
		return 0, s.depthError(w, int32(depth), int32(depth))
	}
	if s.workers != nil {
		s.mu.Lock()
	}
	full, count := s.full(k), s.count
	var first int32
	var err error
	if !full {
		first, err = s.take(k)
	}
	if s.workers != nil {
		s.mu.Unlock()
	}
	if full {
		return 0, s.errorf(w, "tree is full: %d stored nodes, MaxNodes %d", count, s.cfg.MaxNodes)
	}
	if err != nil {
		return 0, s.errorf(w, "%v", err)
	}
	kk := int32(k)
	kids := s.nodes.span(first, kk)
	for i := range kids {
		kids[i].first = -1
	}
	if kind == Chance {
		return first, s.checkChance(w, k, 0)
	}
	if w.heur != nil || s.arena.prior.used() || s.arena.virt.used() {
		for i := range k {
			h, ok := w.prior(w.heur, i)
			if !ok {
				h = math.NaN()
			} else if math.IsNaN(h) || math.IsInf(h, 0) {
				return 0, s.errorf(w, "prior %v of child %d, want a finite number", h, i)
			}
			if s.arena.prior.used() {
				*s.arena.prior.at(first + int32(i)) = h
			}
			if s.arena.virt.used() {
				k1, k2 := s.needs.Virtual.Virtual(h, ok)
				if !(k1 >= 0 && k2 >= 0 && k2 <= k1) || math.IsInf(k1, 0) {
					return 0, &RuleError{Path: s.pathMoves(w), Sim: w.t, Index: i, Len: k,
						Msg: fmt.Sprintf("virtual experience k1=%v k2=%v, want 0 ≤ k2 ≤ k1 < ∞", k1, k2)}
				}
				if kind == Min {
					k2 = k1 - k2
				}
				*s.arena.virt.at(first + int32(i)) = virtual{k1, k2}
			}
		}
	}
	if s.arena.amaf.used() {
		moves := s.moves.span(first, kk)
		for i := range moves {
			m := w.moveID(w.mover, i)
			if m < 0 || m >= w.moveBound() {
				return 0, s.errorf(w, "move identity %d of child %d outside [0, %d)", m, i, w.moveBound())
			}
			moves[i] = int32(m)
		}
	}
	return first, nil
}

// rollout plays the default policy to the end from the current position,
// a stored leaf of the given kind with k moves at the given depth. Every
// rollCheck moves, and at MaxDepth, it checks the context and the depth
// (rolloutLimit): one comparison a move.
func (s *Search) rollout(w *worker, kind Kind, k int, depth int32) (float64, error) {
	if w.playout != nil {
		r, ended := w.playout.Playout(&w.rng, s.cfg.MaxDepth-int(depth))
		if !ended {
			return 0, s.depthError(w, int32(s.cfg.MaxDepth), depth)
		}
		return r, nil
	}
	pol := s.cfg.Rollout
	leaf := depth
	check := min(depth|(rollCheck-1)+1, int32(s.cfg.MaxDepth))
	for ; ; depth++ {
		if depth >= check {
			if err := s.rolloutLimit(w, depth, leaf); err != nil {
				return 0, err
			}
			check = min(depth+rollCheck, int32(s.cfg.MaxDepth))
		}
		var i int
		switch kind {
		case Chance:
			err := s.checkChance(w, k, depth-leaf)
			if err == nil {
				i, err = s.sample(w, k)
			}
			if err != nil {
				return 0, err
			}
		case Max, Min:
			if pol != nil {
				i = pol.Choose(w.game, &w.rng)
				if uint(i) >= uint(k) {
					return 0, s.rolloutErrorf(w, depth-leaf, "roll-out policy chose move %d of %d", i, k)
				}
			} else {
				i = w.rng.IntN(k)
			}
			if w.seen != nil {
				m := w.moveID(w.mover, i)
				if m < 0 || m >= w.moveBound() {
					return 0, s.rolloutErrorf(w, depth-leaf, "move identity %d of move %d outside [0, %d)", m, i, w.moveBound())
				}
				w.play(depth, kind, int32(m))
			}
		default:
			return 0, s.rolloutErrorf(w, depth-leaf, "unknown kind %v in a roll-out", kind)
		}
		arrays := w.table != nil
		w.playMove(arrays, i)
		if kind = w.kind(arrays); kind == Terminal {
			return w.terminalReward(arrays), nil
		}
		if k = w.numMoves(arrays); k <= 0 {
			return 0, s.rolloutErrorf(w, depth+1-leaf, "%v position with %d moves in a roll-out", kind, k)
		}
	}
}

// rollCheck is how many roll-out moves go between two looks at the
// context: a power of 2.
const rollCheck = 1024

// rolloutLimit ends a roll-out at the given depth (leaf: its first) that
// has reached MaxDepth or whose context has ended. A context error leaves
// the search as it was before the simulation, but for children the
// simulation may have added, which are stored unvisited.
func (s *Search) rolloutLimit(w *worker, depth, leaf int32) error {
	if depth >= int32(s.cfg.MaxDepth) {
		return s.depthError(w, depth, leaf)
	}
	if s.runCtx == nil {
		return nil
	}
	err := s.runCtx.Err()
	if err != nil && s.fly.used() {
		s.leaveFlight(w, s.batchOf(w)) // the simulation is no longer in flight
	}
	return err
}

// depthError reports a position at depth, leaf being the depth of the
// simulation's deepest stored node, that MaxDepth forbids.
func (s *Search) depthError(w *worker, depth, leaf int32) error {
	return s.rolloutErrorf(w, depth-leaf, "position %d moves deep and the game has not ended (Config.MaxDepth = %d): does the game ever end?",
		depth, s.cfg.MaxDepth)
}

// rolloutErrorf is errorf for a position rolled moves below worker w's
// current path.
func (s *Search) rolloutErrorf(w *worker, rolled int32, format string, args ...any) error {
	return &GameError{Path: s.pathMoves(w), Rollout: int(rolled), Sim: w.t, Msg: fmt.Sprintf(format, args...)}
}

// errorf returns an error that names worker w's current path.
func (s *Search) errorf(w *worker, format string, args ...any) error {
	return s.rolloutErrorf(w, 0, format, args...)
}

// pathMoves returns the move indices from the root to the deepest node of
// worker w's current path.
func (s *Search) pathMoves(w *worker) []int32 {
	var moves []int32
	for j := 1; j < len(w.path); j++ { // a node on the path has its children, for good
		moves = append(moves, w.path[j].node-atomic.LoadInt32(&s.nodes.at(w.path[j-1].node).first))
	}
	return moves
}
