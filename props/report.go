package props

import (
	"fmt"
	"strings"
	"time"

	"github.com/mctscheck/mctscheck/tree"
)

// Verdict is the outcome of a check (docs/theory.md, "What a verdict means").
type Verdict string

// The five verdicts.
const (
	// Inconsistent: a witness tree on which the rule's root decision stays
	// wrong, with the condition that keeps it wrong and structural
	// evidence that it does so in the limit.
	Inconsistent Verdict = "inconsistent"
	// Stuck: no tree is inconsistent, but on a witness tree the root
	// decision stays wrong through the horizon (Options.Horizon
	// simulations of the node the mechanism is at) while its limit is not
	// shown: a practical finding.
	Stuck Verdict = "stuck"
	// Inconclusive: some tree did not converge, and none gave a witness.
	Inconclusive Verdict = "inconclusive"
	// NoCounterexample: every tree converged.
	NoCounterexample Verdict = "no-counterexample"
	// Faulted: the rule, or the program behind it, broke its contract (a
	// panic, a NaN, a crash, a hang, stray output, a declaration its own
	// choices contradict). It is not a finding about consistency.
	Faulted Verdict = "fault"
	// Interrupted: the check stopped before its end, its context ended
	// (Ctrl-C, a deadline: Report.Stopped says which), with no witness
	// found. The report holds what finished; it is no verdict on the rule.
	Interrupted Verdict = "interrupted"
)

// Why a check stopped before its end (Report.Stopped).
const (
	StoppedInterrupted = "interrupted" // its context was cancelled: Ctrl-C
	StoppedDeadline    = "deadline"    // its context's deadline passed
)

// ends reports whether a tree with verdict v ends a check: an
// inconsistent tree, or a fault of the rule.
func (v Verdict) ends() bool { return v == Inconsistent || v == Faulted }

// Fails reports whether v fails a user's test (Check): inconsistent and
// fault always, stuck unless allowStuck.
func (v Verdict) Fails(allowStuck bool) bool {
	return v == Inconsistent || v == Faulted || v == Stuck && !allowStuck
}

// TreeResult is the verdict on one tree.
type TreeResult struct {
	Name    string     `json:"name"` // trap name, "random N" or "given"
	Tree    *tree.Tree `json:"tree"`
	Verdict Verdict    `json:"verdict"`
	// Findings are the evidence of the first seed that failed (or, with
	// none failed, was stuck): Eq. 6 and the Eq. 5 or Eq. 4 finding that
	// explains it, or a rule fault.
	Findings []Finding `json:"findings,omitempty"`
	Fault    *Fault    `json:"fault,omitempty"`
	// FailedSeeds counts the seeds with a wrong decision and a mechanism
	// that persists in the limit; StuckSeeds those whose mechanism holds
	// through the horizon, its limit not shown.
	FailedSeeds int `json:"failed_seeds"`
	StuckSeeds  int `json:"stuck_seeds"`
	// Seed is the seed of the first failed search; Tree is then in that
	// seed's child order, which reproduces it.
	Seed uint64 `json:"seed,omitempty"`
	// Recoveries say, for seeds whose decision was wrong with a mechanism
	// behind it that does not persist in the limit, when the rule would
	// recover: "seed 3: Eq. 5 at node 0.1: picks child 1 again after about
	// 2^36 simulations of the node".
	Recoveries []string `json:"recoveries,omitempty"`
	// original is the tree as checked, before the witness's reordering.
	original *tree.Tree
	// order is the failed seed's child order (0: the subject's own), and
	// judged and beyond a game's judged and unjudged stored nodes.
	order          uint64
	judged, beyond int
	// searches are the evidence of its searches, in a shard's check.
	searches []SearchRecord
	// OptimalFrom is the budget from which every seed decided optimally, when
	// the tree converged; 0 otherwise.
	OptimalFrom int64 `json:"optimal_from"`
	// Visited and Recent are the shares of the tree's nodes visited at all,
	// and during the window, averaged over seeds (frugality).
	Visited float64 `json:"visited"`
	Recent  float64 `json:"recent"`
	// RootError is the largest |V̂(root) − V(root)| over seeds at the last
	// checkpoint (Eq. 7).
	RootError float64 `json:"root_error"`
}

// Witness is a counterexample, ready to print and replay: a tree or a
// game position on which the root decision stays wrong, in the limit
// (Verdict Inconsistent) or through the horizon (Stuck), or on which the
// rule faulted (Faulted: Fault says how; Tree is nil for a failure the
// rule counted that no search met, FaultCounter). On a tree (Run,
// CheckTree) it is a minimal tree, shrunk, and PositionWitness is nil; on
// a game position (CheckGame) PositionWitness says where and how, and the
// tree fields are empty (its Explicit holds the witness on the position's
// tree, when exported).
type Witness struct {
	// Verdict is Inconsistent, Stuck or Faulted.
	Verdict Verdict `json:"verdict"`
	// Horizon is the horizon H of the check, in simulations of a node.
	Horizon uint64 `json:"horizon"`
	// Rule is the rule's spec, Options.RuleSpec. It is not in the JSON
	// form, where the report that holds the witness names the rule.
	Rule string `json:"-"`
	// Tree is the minimal tree, Nodes its size; nil and 0 on a game
	// position, as are From, Original, Seeds and Shrinks (the first three
	// are then absent from the JSON form).
	Tree      *tree.Tree `json:"tree,omitempty"`
	Nodes     int        `json:"nodes"`
	Condition Condition  `json:"condition"`
	From      string     `json:"from,omitempty"`     // the tree it was shrunk from: a trap name or "random N"
	Original  *tree.Tree `json:"original,omitempty"` // that tree before shrinking
	// Findings are the failed seed's evidence: Eq. 6 and the Eq. 5 or
	// Eq. 4 finding that explains it, or the fault. On a game position,
	// nodes are named by paths of move indices in the seed's order.
	Findings []Finding `json:"findings"`
	Fault    *Fault    `json:"fault"` // null unless Condition is RuleFault
	Seeds    []uint64  `json:"seeds,omitempty"`
	Budgets  []int64   `json:"budgets"`
	// Shrinks counts the candidate trees the shrinker evaluated.
	Shrinks int `json:"shrinks"`
	// Unfinished says that the check stopped (Report.Stopped) before the
	// witness was done: it is the tree as found, in the failed seed's
	// order, not shrunk (nor, for a fault, searched again), and Search
	// is nil.
	Unfinished bool `json:"unfinished,omitempty"`
	// Run is what replays the witness: the tree or the position, the
	// seed, the options.
	Run Replay `json:"run"`
	// Replay holds command lines that replay the witness: Run as the go
	// test line when Check found it, and as its own command line where a
	// tool (cmd/mctscheck) adds one.
	Replay []string `json:"replay"`
	// Search is the replayed search on Tree, for pictures of the witness:
	// its decision at each budget and its visits at the last one. Nil on a
	// game position (its Explicit has one) and for a fault.
	Search *WitnessSearch `json:"search,omitempty"`
	// PositionWitness is what a witness on a game position adds; nil on a
	// tree, and then absent from the JSON form.
	*PositionWitness
}

// PositionWitness is what a witness on a game position adds to Witness: the
// position, the seed and the order whose search stays wrong, and the
// witness on the position's explicit tree, when exported.
type PositionWitness struct {
	Game     string `json:"game"`
	Position string `json:"position"`
	// Seed is the failed seed; Order the order its search listed the moves
	// in (0: the game's own; GameOptions.Order).
	Seed   uint64 `json:"seed"`
	Order  uint64 `json:"order"`
	Growth string `json:"growth"`
	Backup string `json:"backup"`
	// Explicit is the witness on the position's whole tree, exported in the
	// failed seed's order and shrunk like any tree's witness, when the tree
	// has at most GameOptions.ExportNodes nodes; nil otherwise.
	Explicit *Witness `json:"explicit"`
	// NotExported says why Explicit is nil, if it is.
	NotExported string `json:"not_exported,omitempty"`
}

// String prints the witness for a human.
func (w *Witness) String() string {
	var b strings.Builder
	text := w.treeText()
	size := len(text) + 1024 // the text of a witness of millions of nodes is written once, without growing
	for _, r := range w.Replay {
		size += len(r) + 9
	}
	b.Grow(size)
	name := w.Rule
	switch {
	case name != "":
	case w.Run.Search:
		name = "the search"
	default:
		name = "the rule"
	}
	if w.Verdict == Faulted {
		b.WriteString(w.faultText(name))
		for _, r := range w.Replay {
			fmt.Fprintf(&b, "replay: %s\n", r)
		}
		return b.String()
	}
	if p := w.PositionWitness; p != nil {
		fmt.Fprintf(&b, "%s is %s (%s) on %s position %q:\n", name, w.Verdict, w.Condition, p.Game, p.Position)
		order := "the game's own order"
		if p.Order != 0 {
			order = fmt.Sprintf("move order %d", p.Order)
		}
		fmt.Fprintf(&b, "seed %d, %s, budgets %d to %d doubling, growth %s, backup %s\n",
			p.Seed, order, w.Budgets[0], w.Budgets[len(w.Budgets)-1], p.Growth, p.Backup)
	} else {
		fmt.Fprintf(&b, "%s is %s (%s) on a %d-node tree:\n  ", name, w.Verdict, w.Condition, w.Nodes)
		b.WriteString(text)
		b.WriteByte('\n')
		seeds := fmt.Sprintf("seeds %d..%d", w.Seeds[0], w.Seeds[len(w.Seeds)-1])
		if len(w.Seeds) == 1 {
			seeds = fmt.Sprintf("seed %d", w.Seeds[0])
		}
		from := fmt.Sprintf("shrunk from %s (%d nodes) in %d evaluations", w.From, w.Original.Len(), w.Shrinks)
		if w.Unfinished {
			from = fmt.Sprintf("found on %s, not shrunk: the check stopped first", w.From)
		}
		fmt.Fprintf(&b, "%s; %s, budgets %d to %d doubling\n", from, seeds, w.Budgets[0], w.Budgets[len(w.Budgets)-1])
	}
	if w.Fault != nil {
		fmt.Fprintf(&b, "  %v\n", w.Fault)
	}
	for _, f := range w.Findings {
		fmt.Fprintf(&b, "  %s: %s\n", f.Condition, f.Text)
	}
	if s := w.Search; s != nil && s.NotReported != "" {
		fmt.Fprintf(&b, "  (%s)\n", s.NotReported)
	}
	for _, r := range w.Replay {
		b.WriteString("replay: ")
		b.WriteString(r)
		b.WriteByte('\n')
	}
	if p := w.PositionWitness; p != nil {
		switch {
		case p.Explicit != nil:
			fmt.Fprintf(&b, "as an explicit tree (%d nodes exported, shrunk to %d):\n", p.Explicit.Original.Len(), p.Explicit.Nodes)
			for _, line := range strings.Split(strings.TrimRight(p.Explicit.String(), "\n"), "\n") {
				fmt.Fprintf(&b, "  %s\n", line)
			}
		case p.NotExported != "":
			fmt.Fprintf(&b, "not exported as an explicit tree: %s\n", p.NotExported)
		}
	}
	return b.String()
}

// treeText is the text of the witness's tree: its replay's, the same
// text formatted once, when it has one (a tree of millions of nodes takes
// megabytes), or else formatted now.
func (w *Witness) treeText() string {
	if w.Run.Tree != "" {
		return w.Run.Tree
	}
	return w.Tree.String()
}

// Report is the outcome of a check with the evidence behind it: of Run and
// CheckTree on trees, and of CheckGame on one game position, which fills
// in PositionReport too. Its JSON form, by encoding/json from the fields'
// tags, is the one cmd/mctscheck writes, whose package doc gives the
// schema; the checker's reports hold [] for empty lists, never null.
type Report struct {
	// Rule is the rule's spec, Options.RuleSpec. It is not in the JSON
	// form: the program that writes the report names the rule.
	Rule    string  `json:"-"`
	Verdict Verdict `json:"verdict"`
	// Summary says the verdict and its evidence in one line, in the manner
	// of rapid's "OK, passed 100 tests".
	Summary string `json:"summary"`
	// Stopped says why the check ended before its end, if it did:
	// StoppedInterrupted or StoppedDeadline; empty for a check that ran to
	// its end. The report then holds what finished: the trees judged (of
	// TreesPlanned), the curve of the searches done, and the witness
	// found, if any, as found (Witness.Unfinished).
	Stopped string `json:"stopped,omitempty"`
	// Overconfidence is the paper's §4 figure over the searches of lost
	// trees; nil when no search of a lost tree was judged. It is not a
	// consistency verdict.
	Overconfidence *Overconfidence `json:"overconfidence"`
	// PositionReport is what a check of a game position adds; nil for
	// trees, and then absent from the JSON form.
	*PositionReport
	Witness *Witness `json:"witness"` // null unless Verdict is Inconsistent, Stuck or Faulted
	// Trees counts the trees checked, Converged, Inconclusive and Stuck
	// those that converged, those that did not, and those stuck through
	// the horizon (an inconsistent tree stops the check). A game position
	// is one tree.
	Trees int `json:"trees"`
	// TreesPlanned counts the trees the check would have checked, for a
	// check that stopped (Stopped); 0 otherwise.
	TreesPlanned int `json:"trees_planned,omitempty"`
	Converged    int `json:"converged"`
	Inconclusive int `json:"inconclusive"`
	Stuck        int `json:"stuck"`
	// Unconverged names every tree that did not converge, with its text,
	// which CheckTree, mctscheck check -tree and MCTSCHECK_TREE take to
	// check it alone with the same seeds (the summary names the first
	// five); a game position has its name alone.
	Unconverged []TreeRef `json:"unconverged"`
	// Recoveries says, for up to five trees, when the rule would recover
	// from a trap that kept its decision wrong in the run, as the limit
	// probe found: "trap coquelin-munos:d=8 seed 2: Eq. 5 at node 0.1: picks
	// child 1 again after about 2^36 simulations of the node". On a game
	// position, for its seeds: "seed 2: …".
	Recoveries []string `json:"recoveries"`
	Seeds      int      `json:"seeds"`
	MaxBudget  int64    `json:"max_budget"`
	// Handles is the class of trees a whole search declared it handles
	// (RestrictedSearcher), the only trees checked; nil for every tree,
	// and then absent from the JSON form.
	Handles *Handles `json:"handles,omitempty"`
	// OptimalFrom is the largest budget from which a converged tree was
	// decided optimally by every seed.
	OptimalFrom int64 `json:"optimal_from"`
	// NodesReported says, for the check of a whole search (RunSearch),
	// whether the searcher reported every node's statistics at every
	// search read (docs/protocol.md, "nodes"), or the root children's
	// only; nil for a rule's check, whose searches the checker reads
	// whole, and for a search check that read no search.
	NodesReported *bool `json:"nodes_reported,omitempty"`
	// Visited and Recent average the trees' frugality figures; 0 for a
	// game position, whose tree no search stores whole, and for a whole
	// search that reported its root's children alone, whose other nodes
	// are unknown: then absent from the JSON form.
	Visited float64 `json:"visited,omitempty"`
	Recent  float64 `json:"recent,omitempty"`
	// Curve is the convergence of the root decision over every search of
	// every tree checked, one point per checkpoint.
	Curve []CurvePoint `json:"curve"`
	// Sims counts the simulations run, in Elapsed.
	Sims          int64         `json:"sims"`
	Elapsed       time.Duration `json:"elapsed_ns"`
	SimsPerSecond float64       `json:"sims_per_second"`
	// Shard is what the report of one shard of a check (Options.Shard)
	// adds: its part and each search's evidence, which Merge reads; nil
	// for a whole check, and then absent from the JSON form.
	Shard *ShardReport `json:"shard,omitempty"`
}

// TreeRef is a tree a report names: its name in the check ("trap
// first-loss:r=0.5", "random 3") and its text in the tree format, as the
// check searched it with its first seed ("" for a game position).
type TreeRef struct {
	Name string `json:"name"`
	Tree string `json:"tree,omitempty"`
}

// PositionReport is what a check of a game position (CheckGame) adds to
// its Report: the position, its exact values and the seeds' evidence.
type PositionReport struct {
	Game     string `json:"game"`
	Position string `json:"position"`
	// Value is V(root) for max, by the oracle; Optimal the root's optimal
	// children by index, and Moves every root child's move identity
	// (core.Mover; the index in games without identities).
	Value   float64 `json:"value"`
	Optimal []int   `json:"optimal"`
	Moves   []int   `json:"moves"`
	// FailedSeeds counts the seeds with a wrong decision and a mechanism
	// that persists in the limit, or a rule fault; StuckSeeds those whose
	// mechanism holds through the horizon, its limit not shown.
	FailedSeeds int `json:"failed_seeds"`
	StuckSeeds  int `json:"stuck_seeds"`
	// RootError is the largest |V̂(root) − V(root)| over seeds at the last
	// budget (Eq. 7).
	RootError float64 `json:"root_error"`
	// Judged counts the stored nodes, summed over seeds, at which Eq. 5 and
	// Eq. 4 were judged: those with MinParentVisits simulations at the
	// window's start whose children the oracle could value. Beyond counts
	// the nodes left unjudged because some child was beyond the oracle's
	// budget.
	Judged int `json:"judged_nodes"`
	Beyond int `json:"beyond_oracle"`
}

// CurvePoint is the state of the searches at one budget.
type CurvePoint struct {
	Budget int64 `json:"budget"`
	// Wrong is the share of searches whose root decision is not optimal.
	Wrong float64 `json:"wrong"`
	// OptimalShare is the mean share of the root's simulations that went to
	// optimal children.
	OptimalShare float64 `json:"optimal_share"`
	// Searches counts the searches behind the point.
	Searches int `json:"searches"`
}

// curveOf is one search's contribution to the curve: at each checkpoint,
// whether the decision was wrong and the optimal root children's share of
// the root's simulations, and, on a lost tree, the search's confidence
// (the §4 figure).
func curveOf(tr *tree.Tree, sol *tree.Solution, snaps []snapshot) curveEntry {
	e := make(curveEntry, len(snaps))
	lost := lostAtRoot(tr, sol)
	for i, s := range snaps {
		e[i].budget = s.budget
		if e[i].lost = lost; lost {
			e[i].confidence = confidence(tr, &s)
		}
		if !optimal(sol, s.decision) {
			e[i].wrong = 1
		}
		opt := int64(0)
		for _, k := range sol.Optimal(0) {
			opt += s.visits(tr.Child(0, int(k)))
		}
		if s.visits(0) > 0 {
			e[i].share = float64(opt) / float64(s.visits(0))
		}
	}
	return e
}

// addCurve folds one search's contribution into the curve and the §4
// figure.
func (r *Report) addCurve(e curveEntry) {
	if r.Curve == nil {
		for _, s := range e {
			r.Curve = append(r.Curve, CurvePoint{Budget: s.budget})
		}
	}
	for i, s := range e {
		if i >= len(r.Curve) {
			break
		}
		p := &r.Curve[i]
		p.Searches++
		n := float64(p.Searches)
		p.Wrong += (s.wrong - p.Wrong) / n
		p.OptimalShare += (s.share - p.OptimalShare) / n
		if s.lost {
			r.addOverconfidence(s.budget, s.confidence)
		}
	}
}

// summary says the verdict and its evidence in one line: on the trees, or
// on the game position.
func (r *Report) summary() string {
	if p := r.PositionReport; p != nil {
		return p.summary(r)
	}
	switch r.Verdict {
	case Interrupted:
		return r.stoppedSummary()
	case Faulted:
		return r.Witness.faultSummary(fmt.Sprintf("after %s", plural(r.Trees, "tree")))
	case Inconsistent:
		return fmt.Sprintf("inconsistent: %s witness with %d nodes after %s", r.Witness.Condition, r.Witness.Nodes, plural(r.Trees, "tree"))
	case Stuck:
		return fmt.Sprintf("stuck: %s witness with %d nodes after %s, wrong through %s simulations of a node; its limit is not shown",
			r.Witness.Condition, r.Witness.Nodes, plural(r.Trees, "tree"), pow2(float64(r.Witness.Horizon)))
	case Inconclusive:
		return fmt.Sprintf("inconclusive: %d of %s did not converge by %d simulations (%s); no witness",
			r.Inconclusive, plural(r.Trees, "tree"), r.MaxBudget, r.unconvergedNames(summaryNames))
	}
	return fmt.Sprintf("no counterexample: %s × %s up to budget %d, all decisions optimal from budget %d on",
		plural(r.Trees, "tree"), plural(r.Seeds, "seed"), r.MaxBudget, r.OptimalFrom)
}

// summaryNames is how many unconverged trees a summary names.
const summaryNames = 5

// unconvergedNames names the first n unconverged trees, and says how many
// more there are: "a, b and 13 more".
func (r *Report) unconvergedNames(n int) string {
	var names []string
	for _, t := range r.Unconverged[:min(n, len(r.Unconverged))] {
		names = append(names, t.Name)
	}
	s := strings.Join(names, ", ")
	if more := len(r.Unconverged) - len(names); more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return s
}

// summary says the verdict of r on the position in one line.
func (p *PositionReport) summary(r *Report) string {
	pos := p.Position
	if pos == "" {
		pos = "the root"
	}
	switch r.Verdict {
	case Faulted:
		return r.Witness.faultSummary(strings.Join(strings.Fields("on "+p.Game+" "+pos), " "))
	case Inconsistent:
		return fmt.Sprintf("inconsistent: %s witness on %s %s in %d of %s", r.Witness.Condition, p.Game, pos, p.FailedSeeds, plural(r.Seeds, "seed"))
	case Stuck:
		return fmt.Sprintf("stuck: %s witness on %s %s in %d of %s, wrong through the horizon; its limit is not shown", r.Witness.Condition, p.Game, pos, p.StuckSeeds, plural(r.Seeds, "seed"))
	case Inconclusive:
		last := r.Curve[len(r.Curve)-1]
		return fmt.Sprintf("inconclusive: %s %s not converged by %d simulations (%.0f%% optimal decisions); no witness",
			p.Game, pos, r.MaxBudget, 100*(1-last.Wrong))
	}
	return fmt.Sprintf("no counterexample: %s %s × %s up to budget %d, all decisions optimal from budget %d on",
		p.Game, pos, plural(r.Seeds, "seed"), r.MaxBudget, r.OptimalFrom)
}

// faultText describes a fault for a human: fault first, then what
// happened, where, whether it came back, the end of the program's stderr
// and the inputs the rule saw, or what the search was asked.
func (w *Witness) faultText(name string) string {
	var b strings.Builder
	f := w.Fault
	fmt.Fprintf(&b, "fault (%s): %s broke its contract; this is not a finding about consistency:\n  %s\n", f.Kind, name, strings.ReplaceAll(strings.TrimSpace(f.Message), "\n", "\n  "))
	switch p := w.PositionWitness; {
	case p != nil:
		fmt.Fprintf(&b, "on %s position %q, seed %d", p.Game, p.Position, p.Seed)
	case w.Tree != nil:
		fmt.Fprintf(&b, "on the %d-node tree %v, seed %d", w.Nodes, w.Tree, w.Seeds[0])
		if w.Original != nil && w.Original.Len() != w.Nodes {
			fmt.Fprintf(&b, " (shrunk from %s, %d nodes, in %d evaluations)", w.From, w.Original.Len(), w.Shrinks)
		}
	default:
		b.WriteString("in no search the check kept (the rule counted it: FaultCounter)")
	}
	if where := f.Where(); where != "" {
		b.WriteString("," + where)
	}
	b.WriteString("\n")
	again := "it did not come back when the tree was searched again alone with that seed: it depends on the program's history (a count kept across sites, a crash now and then)\n"
	if w.Run.Search {
		again = "it did not come back when the tree was searched again alone with that seed, with the same answers before it: it depends on the program's history or on something outside the request (a crash now and then)\n"
	}
	switch {
	case w.Tree == nil:
	case w.Unfinished:
		b.WriteString("the check stopped before it was searched again alone with that seed\n")
	case f.Kind == FaultNondeterministic:
		b.WriteString("two searches of the tree with that seed answered differently\n")
	case f.Reproduced:
		b.WriteString("it came back when the tree was searched again alone with that seed\n")
	default:
		b.WriteString(again)
	}
	if f.Stderr != "" {
		fmt.Fprintf(&b, "the program's stderr ends:\n  %s\n", strings.ReplaceAll(strings.TrimSpace(f.Stderr), "\n", "\n  "))
	}
	if in := strings.TrimRight(f.Inputs, "\n"); in != "" {
		if w.Run.Search {
			fmt.Fprintf(&b, "the search was asked %s\n", in)
		} else {
			fmt.Fprintf(&b, "the rule saw:\n%s\n", in)
		}
	}
	return b.String()
}

// faultSummary says a fault in one line: its kind, what happened, and
// where, ending with where (on a tree: "after N trees").
func (w *Witness) faultSummary(where string) string {
	f := w.Fault
	msg := strings.TrimSpace(f.Message)
	if len(msg) > 160 {
		msg = msg[:157] + "…"
	}
	at := ""
	switch {
	case w.Tree != nil && f.Node != "":
		at = fmt.Sprintf(" at node %s of a %d-node tree", f.Node, w.Nodes)
	case w.Tree != nil:
		at = fmt.Sprintf(" on a %d-node tree", w.Nodes)
	}
	return fmt.Sprintf("fault (%s): %s%s, %s; not a finding about consistency", f.Kind, oneLine(msg), at, where)
}

// oneLine keeps the first line of s.
func oneLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// plural writes n things, e.g. "1 tree", "4 trees".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// add counts one tree's result in the report.
func (r *Report) add(tr TreeResult) {
	r.Trees++
	switch tr.Verdict {
	case NoCounterexample:
		r.Converged++
		r.OptimalFrom = max(r.OptimalFrom, tr.OptimalFrom)
	case Inconclusive:
		r.Inconclusive++
		ref := TreeRef{Name: tr.Name}
		if tr.Tree != nil {
			ref.Tree = tr.Tree.String()
		}
		r.Unconverged = append(r.Unconverged, ref)
	case Stuck:
		r.Stuck++
	}
	if tr.Verdict != Inconsistent {
		for _, rec := range tr.Recoveries {
			if len(r.Recoveries) < 5 {
				r.Recoveries = append(r.Recoveries, tr.Name+" "+rec)
			}
		}
	}
	n := float64(r.Trees)
	r.Visited += (tr.Visited - r.Visited) / n
	r.Recent += (tr.Recent - r.Recent) / n
}

// finish settles the verdict, its summary and the speed, and makes the
// empty lists [] in the JSON form.
func (r *Report) finish(start time.Time) { r.settle(time.Since(start)) }

// settle is finish for a check that took elapsed.
func (r *Report) settle(elapsed time.Duration) {
	switch {
	case r.Witness != nil:
		r.Verdict = r.Witness.Verdict
	case r.Stopped != "":
		r.Verdict = Interrupted
	case r.Inconclusive > 0:
		r.Verdict = Inconclusive
	default:
		r.Verdict = NoCounterexample
	}
	r.Elapsed = elapsed
	if s := r.Elapsed.Seconds(); s > 0 {
		r.SimsPerSecond = float64(r.Sims) / s
	}
	if r.Unconverged == nil {
		r.Unconverged = []TreeRef{}
	}
	if r.Recoveries == nil {
		r.Recoveries = []string{}
	}
	if r.Curve == nil {
		r.Curve = []CurvePoint{}
	}
	r.Summary = r.summary() + r.unfinishedNote()
}
