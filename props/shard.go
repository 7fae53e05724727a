package props

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/mctscheck/mctscheck/internal/version"
	"github.com/mctscheck/mctscheck/tree"
)

// Shard is the part of a check that one process runs when the check is
// split over processes or machines: the K-th of N, 1 ≤ K ≤ N. The check's
// searches, taken tree after tree and seed after seed, are dealt out in
// turn: the search of tree t (in the check's order) with its j-th seed is
// search u = t·Seeds + j, and shard u mod N + 1 runs it. A check of a
// whole search (RunSearch), whose verdict on a tree reads all its seeds at
// once and which searches every tree again when it finds nothing, deals
// whole trees instead: shard t mod N + 1 runs tree t. A shard's report
// is the report of its part, complete, with the evidence of each of its
// searches besides (Report.Shard), from which Merge rebuilds the report
// that the whole check would have made. The zero Shard is the whole check.
type Shard struct{ K, N int }

// maxShards bounds N.
const maxShards = 1 << 12

// ParseShard parses "K/N", such as 2/4.
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	k, errK := strconv.Atoi(a)
	n, errN := strconv.Atoi(b)
	sh := Shard{k, n}
	if !ok || errK != nil || errN != nil {
		return Shard{}, fmt.Errorf("shard %q: want K/N, such as 2/4 (the second of four)", s)
	}
	return sh, sh.check()
}

// String writes s as "K/N"; "" for the whole check.
func (s Shard) String() string {
	if s.N == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.K, s.N)
}

// check says what is wrong with a shard that is not the zero Shard.
func (s Shard) check() error {
	if s == (Shard{}) {
		return nil
	}
	if s.N < 1 || s.N > maxShards || s.K < 1 || s.K > s.N {
		return fmt.Errorf("shard %d/%d: want K/N with 1 ≤ K ≤ N ≤ %d", s.K, s.N, maxShards)
	}
	return nil
}

// has reports whether the shard runs search u (tree u, in a check of a
// whole search); the whole check runs all.
func (s Shard) has(u int) bool { return s.N == 0 || u%s.N == s.K-1 }

// unit is the index by which the search of tree t with its j-th seed (of
// seeds a tree) is dealt: the search's, or, by tree, the tree's.
func unit(t, j, seeds int, byTree bool) int {
	if byTree {
		return t
	}
	return t*seeds + j
}

// seedsOf lists the indices of the seeds of tree t (of a check with seeds
// seeds a tree) that the shard runs, in order.
func (s Shard) seedsOf(t, seeds int, byTree bool) []int {
	var out []int
	for j := range seeds {
		if s.has(unit(t, j, seeds, byTree)) {
			out = append(out, j)
		}
	}
	return out
}

// ShardReport is what the report of a shard adds to it: which part of
// which check it is, and the evidence of each search it took up, in the
// check's order, from which Merge rebuilds the check's report.
type ShardReport struct {
	Shard string `json:"shard"` // "K/N"
	// Version is the checker's: the mctscheck module's version, and the
	// commit the program was built from when the build recorded it.
	Version string `json:"version"`
	// Check names the check: its options that decide the report, and a
	// digest of its trees. Every shard of one check has the same.
	Check string `json:"check"`
	// Search is true for a check of a whole search (RunSearch), whose
	// first stuck search ends the check.
	Search bool `json:"search,omitempty"`
	// Trees and FirstSeed are the check's (not the shard's): its trees in
	// all and its first seed.
	Trees     int    `json:"trees"`
	FirstSeed uint64 `json:"first_seed"`
	// MinBudget and Window are the check's first checkpoint and the
	// doublings its criterion reads, with which Merge reads the records.
	MinBudget int `json:"min_budget"`
	Window    int `json:"window"`
	// Searches are the searches the shard took up, tree after tree and
	// seed after seed, to the end of its part or to the search that ended
	// it.
	Searches []SearchRecord `json:"searches"`
	// Spot are the trees a check of a whole search that found no witness
	// searched again with their first seed (the answers must come again),
	// in order, to the first that faulted; absent otherwise.
	Spot []SpotRecord `json:"spot,omitempty"`
	// WitnessOf is the search whose tree the witness was shrunk from (a
	// spot check's, for a fault it met); null without a witness, and for
	// a fault that no search of the check met.
	WitnessOf *SearchRef `json:"witness_of"`
	// WitnessSims counts the simulations the witness took: shrinking it
	// and replaying it.
	WitnessSims int64 `json:"witness_sims"`
}

// SearchRef names one search of a check: its tree's index in the check's
// order and its seed.
type SearchRef struct {
	Tree int    `json:"tree"`
	Seed uint64 `json:"seed"`
}

// SpotRecord is one tree searched again by a check of a whole search that
// found no witness: its simulations, and whether it faulted.
type SpotRecord struct {
	Tree  int   `json:"tree"`
	Sims  int64 `json:"sims"`
	Fault bool  `json:"fault,omitempty"`
}

// The outcomes of a search in a SearchRecord.
const (
	outcomeFailed = "failed" // a wrong decision whose mechanism persists in the limit
	outcomeStuck  = "stuck"  // a wrong decision through the horizon (a whole search: the largest budget)
	outcomeFault  = "fault"  // the rule or the search broke its contract
)

// SearchRecord is the evidence of one search that a shard's report keeps:
// what the check's report folds in, tree by tree and seed by seed.
type SearchRecord struct {
	SearchRef
	Name string `json:"name"` // the tree's name: a trap's or "random N"
	// TreeText is the tree's text, in the first record of each tree a shard
	// took up, for the list of trees that did not converge.
	TreeText string `json:"tree_text,omitempty"`
	// Outcome is "failed", "stuck", "fault" or "" (none of those).
	Outcome string `json:"outcome,omitempty"`
	// Recovery says when the rule would recover from a wrong decision
	// whose mechanism does not persist in the limit; empty otherwise.
	Recovery string `json:"recovery,omitempty"`
	// OptimalFrom is the first checkpoint (0: the first budget) from which
	// every decision was optimal, or -1.
	OptimalFrom int `json:"optimal_from"`
	// Visited and Recent are the shares of the tree's nodes visited at
	// all, and during the window.
	Visited float64 `json:"visited"`
	Recent  float64 `json:"recent"`
	// RootOnly: a whole search that reported its root's children alone,
	// which says nothing of the tree's frugality.
	RootOnly bool `json:"root_only,omitempty"`
	// WrongThroughout: a whole search whose decision was wrong at every
	// checkpoint of the window; InView: with a mechanism in view besides.
	// A tree all of whose seeds are wrong throughout, one with a mechanism
	// in view, is stuck without a lead.
	WrongThroughout bool `json:"wrong_throughout,omitempty"`
	InView          bool `json:"in_view,omitempty"`
	// Wrong and Share are the search's curve, one entry per checkpoint:
	// 1 if the decision was not optimal (else 0), and the optimal root
	// children's share of the root's simulations. Empty for a fault.
	Wrong []float64 `json:"wrong"`
	Share []float64 `json:"share"`
	// Confidence is, on a tree lost for the player to move at its root,
	// the decided child's mean for that player at each checkpoint (null:
	// none), the paper's §4 figure (Overconfidence); absent on other trees.
	Confidence []*float64 `json:"confidence,omitempty"`
	Sims       int64      `json:"sims"`
}

// curve is the record's curve as the report folds it in.
func (s *SearchRecord) curve(budgets []int64) curveEntry {
	e := make(curveEntry, len(s.Wrong))
	for i := range e {
		e[i] = curveSample{budget: budgets[i], wrong: s.Wrong[i], share: s.Share[i]}
		if s.Confidence != nil {
			e[i].lost, e[i].confidence = true, math.NaN()
			if c := s.Confidence[i]; c != nil {
				e[i].confidence = *c
			}
		}
	}
	return e
}

// setCurve keeps e in the record.
func (s *SearchRecord) setCurve(e curveEntry) {
	s.Wrong, s.Share = make([]float64, len(e)), make([]float64, len(e))
	for i, c := range e {
		s.Wrong[i], s.Share[i] = c.wrong, c.share
		if c.lost {
			if s.Confidence == nil {
				s.Confidence = make([]*float64, len(e))
			}
			if !math.IsNaN(c.confidence) {
				s.Confidence[i] = &c.confidence
			}
		}
	}
}

// treeFold folds the searches of one tree, in seed order, into the tree's
// result: the check as it searches, and Merge from the shards' records,
// so that both reach the same figures by the same steps.
type treeFold struct {
	res       TreeResult
	taken     int // the searches folded in, a fault apart
	converged bool
	from      int64
	keep      bool // keep the records in res.searches (a shard's check)
	// wrongAll: every search so far was wrong throughout the window;
	// inView, if not 0, the first such seed with a mechanism in view.
	wrongAll bool
	inView   uint64
}

func newTreeFold(name string, tr *tree.Tree, keep bool) *treeFold {
	return &treeFold{res: TreeResult{Name: name, Tree: tr}, converged: true, keep: keep, wrongAll: true}
}

// add folds in one search. It reports whether the search ends the tree's
// searches (a fault, or, with stopAtStuck, for a whole search, a stuck
// one) and whether it is the tree's evidence, whose seed res.Seed then
// holds: a fault, else the first failed seed, else the first stuck one.
func (f *treeFold) add(s SearchRecord, o Options, stopAtStuck bool) (end, evidence bool) {
	if f.keep {
		f.res.searches = append(f.res.searches, s)
	}
	if s.Outcome == outcomeFault {
		f.res.Verdict, f.res.Seed = Faulted, s.Seed
		return true, true
	}
	f.taken++
	n := float64(f.taken)
	f.res.Visited += (s.Visited - f.res.Visited) / n
	f.res.Recent += (s.Recent - f.res.Recent) / n
	switch s.Outcome {
	case outcomeFailed:
		f.res.FailedSeeds++
		evidence = f.res.FailedSeeds == 1
	case outcomeStuck:
		f.res.StuckSeeds++
		evidence = f.res.FailedSeeds == 0 && f.res.StuckSeeds == 1
	}
	if evidence {
		f.res.Seed = s.Seed
	}
	if s.Outcome == outcomeStuck && stopAtStuck {
		f.res.Verdict = Stuck
		return true, evidence
	}
	f.wrongAll = f.wrongAll && s.WrongThroughout
	if f.inView == 0 && s.InView {
		f.inView = s.Seed
	}
	if s.Recovery != "" {
		f.res.Recoveries = append(f.res.Recoveries, fmt.Sprintf("seed %d: %s", s.Seed, s.Recovery))
	}
	budgets := o.budgets()
	if s.OptimalFrom < 0 || s.OptimalFrom > len(budgets)-1-o.Window {
		f.converged = false
	} else {
		f.from = max(f.from, budgets[s.OptimalFrom])
	}
	return false, evidence
}

// settle gives the tree its verdict once all its searches are folded in,
// none of them a fault: inconsistent with a failed seed, else stuck with a
// stuck one, or when every seed was wrong throughout, one with a mechanism
// in view (a whole search's: the seed is then that one's), else no
// counterexample if every seed converged, else inconclusive.
func (f *treeFold) settle() {
	switch {
	case f.res.FailedSeeds > 0:
		f.res.Verdict = Inconsistent
	case f.res.StuckSeeds > 0:
		f.res.Verdict = Stuck
	case f.wrongAll && f.inView != 0:
		f.res.Verdict, f.res.StuckSeeds, f.res.Seed = Stuck, 1, f.inView
	case f.converged:
		f.res.Verdict, f.res.OptimalFrom = NoCounterexample, f.from
	default:
		f.res.Verdict = Inconclusive
	}
}

// shardRun is a shard's check under way: its part, and the report's
// record of it.
type shardRun struct {
	part   Shard
	seeds  int
	byTree bool // a check of a whole search: whole trees dealt
	rep    *ShardReport
}

// newShardRun starts the shard of o on trees, or returns nil for the
// whole check; o.Shard is then cleared, so that no check made for the
// witness (shrinking, replays) is split.
func newShardRun(o *Options, trees []namedTree, search bool) *shardRun {
	if o.Shard == (Shard{}) {
		return nil
	}
	s := &shardRun{part: o.Shard, seeds: o.Seeds, byTree: search, rep: &ShardReport{Shard: o.Shard.String(), Version: checkerVersion(),
		Check: o.checkID(trees, search), Search: search, Trees: len(trees), FirstSeed: o.Seed, MinBudget: o.MinBudget, Window: o.Window, Searches: []SearchRecord{}}}
	o.Shard = Shard{}
	return s
}

// trees keeps the trees of which the shard runs some search, each with its
// index in the check.
func (s *shardRun) trees(all []namedTree) []namedTree {
	out := make([]namedTree, 0, len(all)) // a shard's part is not known before
	for t, nt := range all {
		nt.index = t
		if s == nil || len(s.part.seedsOf(t, s.seeds, s.byTree)) > 0 {
			out = append(out, nt)
		}
	}
	return out
}

// seedsOf lists the seed indices of tree t that the check runs: all
// seeds of the whole check.
func (s *shardRun) seedsOf(t, seeds int) []int {
	if s == nil {
		out := make([]int, seeds)
		for j := range out {
			out[j] = j
		}
		return out
	}
	return s.part.seedsOf(t, seeds, s.byTree)
}

// searches counts the searches of trees (of seeds seeds each) that the
// check runs: the shard's part of them.
func (s *shardRun) searches(trees []namedTree, seeds int) int {
	if s == nil {
		return len(trees) * seeds
	}
	n := 0
	for _, nt := range trees {
		n += len(s.part.seedsOf(nt.index, seeds, s.byTree))
	}
	return n
}

// took records the searches of a tree taken up.
func (s *shardRun) took(res TreeResult) {
	if s != nil {
		if len(res.searches) > 0 && res.Tree != nil {
			res.searches[0].TreeText = res.Tree.String()
		}
		s.rep.Searches = append(s.rep.Searches, res.searches...)
	}
}

// witnessFrom records that the witness comes from res, tree t, and took
// sims simulations.
func (s *shardRun) witnessFrom(t int, res TreeResult, sims int64) {
	if s != nil {
		s.rep.WitnessOf = &SearchRef{Tree: t, Seed: res.Seed}
		s.rep.WitnessSims = sims
	}
}

// spotted records a tree searched again by a spot check.
func (s *shardRun) spotted(r SpotRecord) {
	if s != nil {
		s.rep.Spot = append(s.rep.Spot, r)
	}
}

// lateWitness records that the witness is a fault that no search of the
// check met (output that came late), which took sims simulations.
func (s *shardRun) lateWitness(sims int64) {
	if s != nil {
		s.rep.WitnessOf, s.rep.WitnessSims = nil, sims
	}
}

// finish puts the shard's record in the report and says in the summary
// that the report is a shard's.
func (s *shardRun) finish(r *Report) {
	if s == nil {
		return
	}
	if r.Witness != nil && r.Witness.Verdict == Faulted && r.Witness.Tree == nil { // a fault no search met (counted) is no search's
		s.rep.WitnessOf, s.rep.WitnessSims = nil, 0
	}
	r.Shard = s.rep
	r.Summary = fmt.Sprintf("shard %s (%d of the check's %d searches; merge the shards for its verdict): %s",
		s.rep.Shard, len(s.rep.Searches), s.rep.Trees*s.seeds, r.Summary)
}

// checkerVersion is the checker's version: the module's, and the commit
// the program was built from when the build recorded it.
func checkerVersion() string {
	v := version.Module
	if info, ok := debug.ReadBuildInfo(); ok {
		var rev, modified string
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					modified = "+modified"
				}
			}
		}
		if rev != "" {
			v += " " + rev + modified
		}
	}
	return v
}

// checkID names the check of o on trees, for Merge to tell shards of one
// check from those of another: the options that decide the report, one
// key=value each, and a digest of the trees (their names, and the text of
// those given as trees rather than drawn).
func (o Options) checkID(trees []namedTree, search bool) string {
	h := sha256.New()
	for _, nt := range trees {
		fmt.Fprintf(h, "%s\n", nt.name)
		if nt.tr != nil {
			fmt.Fprintf(h, "%s\n", nt.tr)
		}
	}
	kind := "rule"
	if search {
		kind = "search"
	}
	return fmt.Sprintf("%s=%s trees=%d seeds=%d seed=%d budgets=%d..%d window=%d keep-order=%t binary=%t shape=%s "+
		"growth=%v backup=%v decision=%v workers=%d virtual-loss=%s horizon=%d criterion=%s plan=%s",
		kind, ShellWord(o.RuleSpec), len(trees), o.Seeds, o.Seed, o.MinBudget, o.MaxBudget, o.Window, o.KeepOrder, o.BinaryOnly, oneWord(o.Shape),
		o.Growth, o.Backup, o.Decision, o.Workers, oneWord(o.VirtualLoss), o.Horizon, oneWord(o.Criterion), hex.EncodeToString(h.Sum(nil))[:16])
}

// oneWord writes a struct's fields as one word: {A:1,B:2}.
func oneWord(v any) string { return strings.ReplaceAll(fmt.Sprintf("%+v", v), " ", ",") }

// whole refuses a shard in an entry point that runs whole checks only.
func (o Options) whole(entry string) error {
	if o.Shard != (Shard{}) {
		return fmt.Errorf("props: Options.Shard: %s runs whole checks; split Run, CheckTree, RunSearch or RunSearchTree", entry)
	}
	return nil
}
