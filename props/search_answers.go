package props

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"strings"
	"sync"

	"github.com/mctscheck/mctscheck/tree"
)

// The search protocol promises that the same tree and seed give the same
// answers: a witness is replayed by searching its tree again with its
// seed. A check holds every search's answers in an answerLog, by tree and
// seed, and compares every search with the first of the same tree and
// seed, wherever the check makes it (the trees, the shrinker's candidates,
// the witness searched again before it is reported). Answers that differ
// are a fault of their own, FaultNondeterministic, showing the first
// checkpoint at which they differ.

// answerLog is what a check's searches answered, by tree and seed.
type answerLog struct {
	mu   sync.Mutex
	by   map[answerKey]*answerRecord
	kept int64 // bytes of answers kept whole
}

// keptAnswers bounds the bytes of answers a log keeps whole: beyond, it
// keeps a digest of each answer, enough to tell that two searches differ
// though not to show the first one's answer. The default check's searches
// (the traps and 100 random trees of at most 35 nodes, 4 seeds, 9
// checkpoints) need well under a megabyte.
const keptAnswers = 64 << 20

// answerKey names a search: its tree's text (in the order searched), by
// a 128-bit digest, and its seed.
type answerKey struct {
	tree [16]byte
	seed uint64
}

// answerRecord is the first search of a key: a digest of each answer and,
// while the log's bound allows, the answers themselves.
type answerRecord struct {
	sums    []uint64
	answers []Checkpoint // nil when not kept
}

// keyOf returns the key of run's search.
func keyOf(run *searchRun) answerKey {
	h := fnv.New128a()
	h.Write([]byte(run.st.Text))
	var k answerKey
	h.Sum(k.tree[:0])
	k.seed = run.seed
	return k
}

// record compares run's answers with those of the first search of the
// same tree and seed, and returns the fault they are if they differ, or
// nil; the first search of a key is recorded. A search that broke off
// (a crash, a hang) is compared as far as it answered; the longer of two
// that agree is kept. Only the answers that kept the contract are
// compared and kept: an answer that broke it is that fault, whatever an
// earlier search answered there.
func (l *answerLog) record(run *searchRun) *Fault {
	answers := run.answers[:len(run.snaps)]
	sums := make([]uint64, len(answers))
	for i, a := range answers {
		sums[i] = a.digest()
	}
	key := keyOf(run)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.by == nil {
		l.by = map[answerKey]*answerRecord{}
	}
	prev, ok := l.by[key]
	if ok {
		for i := range min(len(sums), len(prev.sums)) {
			if sums[i] != prev.sums[i] {
				var first *Checkpoint
				if prev.answers != nil {
					first = &prev.answers[i]
				}
				return run.differs(i, first, &answers[i])
			}
		}
		if len(sums) <= len(prev.sums) {
			return nil
		}
		l.kept -= prev.size()
	}
	rec := &answerRecord{sums: sums}
	if size := answersSize(answers); l.kept+size <= keptAnswers {
		rec.answers, l.kept = answers, l.kept+size
	}
	l.by[key] = rec
	return nil
}

// size is the bytes of the answers a record keeps.
func (r *answerRecord) size() int64 {
	if r.answers == nil {
		return 0
	}
	return answersSize(r.answers)
}

// answersSize is the bytes of answers' statistics.
func answersSize(as []Checkpoint) int64 {
	n := int64(0)
	for _, a := range as {
		n += 64 + 16*int64(len(a.Visits)+len(a.NodeVisits))
	}
	return n
}

// digest is a 64-bit FNV-1a digest of the answer's counts and means, a
// node's mean counting only where it has visits (an unvisited node may
// have any mean).
func (cp *Checkpoint) digest() uint64 {
	h := fnv.New64a()
	var b [8]byte
	word := func(x uint64) {
		binary.LittleEndian.PutUint64(b[:], x)
		h.Write(b[:])
	}
	stats := func(visits []int64, means []float64) {
		word(uint64(len(visits)))
		word(uint64(len(means)))
		for i, v := range visits {
			word(uint64(v))
			if m := 0.0; i < len(means) && v != 0 {
				if m = means[i]; m == 0 {
					m = 0 // −0 is 0
				}
				word(math.Float64bits(m))
			}
		}
	}
	word(uint64(cp.Sims))
	word(uint64(cp.Done))
	word(uint64(cp.Decision))
	stats(cp.Visits, cp.Means)
	word(uint64(len(cp.NodeVisits)))
	stats(cp.NodeVisits, cp.NodeMeans)
	return h.Sum64()
}

// differs is the fault of two searches of run's tree and seed whose
// answers first differ at checkpoint index i: first's (nil if the log did
// not keep it) and again's.
func (r *searchRun) differs(i int, first, again *Checkpoint) *Fault {
	var b strings.Builder
	fmt.Fprintf(&b, "two searches of the same tree with the same seed answered differently at the checkpoint of %d simulations", again.Sims)
	if i > 0 {
		fmt.Fprintf(&b, " (they agreed up to %d)", r.budgets[i-1])
	}
	b.WriteString(": the same tree and seed must give the same answers, or no witness replays (docs/protocol.md, \"Seeds and numbers\"); a search that draws from a generator it does not seed with the request's seed (the clock, a global generator), reads memory it did not set, or depends on thread timing, answers differently\n")
	if first != nil {
		fmt.Fprintf(&b, "first:  %s\n", first.describe(again))
	} else {
		b.WriteString("first:  not kept (the check keeps 64 MiB of answers; beyond, a digest of each)\n")
	}
	fmt.Fprintf(&b, "again:  %s", again.describe(first))
	f := &Fault{Kind: FaultNondeterministic, Message: b.String(), Checkpoint: again.Sims, Inputs: r.asked()}
	if i > 0 {
		f.Sim = r.budgets[i-1]
	}
	if first != nil {
		if node := first.firstDiffering(again, r); node != "" {
			f.Node = node
		}
	}
	return f
}

// describe says an answer in one line: its decision, the root children's
// visits and means, and, where other (the other answer, or nil) differs
// below the root, the first node that differs.
func (cp *Checkpoint) describe(other *Checkpoint) string {
	s := fmt.Sprintf("decision %d, visits %v, means %s", cp.Decision, cp.Visits, means(cp.Means, cp.Visits))
	if cp.Done != 0 {
		s = fmt.Sprintf("done %d, %s", cp.Done, s)
	}
	if other == nil || cp.NodeVisits == nil || other.NodeVisits == nil {
		return s
	}
	for p := range min(len(cp.NodeVisits), len(other.NodeVisits)) {
		if cp.nodeStat(p) != other.nodeStat(p) {
			return s + fmt.Sprintf("; node %d (preorder): %s", p, cp.nodeStat(p))
		}
	}
	return s
}

// nodeStat says the p-th node's visits and mean (preorder numbering).
func (cp *Checkpoint) nodeStat(p int) string {
	v := cp.NodeVisits[p]
	if v == 0 || p >= len(cp.NodeMeans) {
		return fmt.Sprintf("%d visits", v)
	}
	return fmt.Sprintf("%d visits, mean %v", v, cp.NodeMeans[p])
}

// firstDiffering returns the path of the first node (preorder) whose
// statistics differ between cp and other, or "0" when the root's
// children's do, or "".
func (cp *Checkpoint) firstDiffering(other *Checkpoint, r *searchRun) string {
	if cp.Decision != other.Decision || fmt.Sprint(cp.Visits) != fmt.Sprint(other.Visits) || means(cp.Means, cp.Visits) != means(other.Means, other.Visits) {
		return "0"
	}
	for p := range min(len(cp.NodeVisits), len(other.NodeVisits)) {
		if cp.nodeStat(p) != other.nodeStat(p) {
			return formatPathOf(r, p)
		}
	}
	return ""
}

// formatPathOf is the path of run's node with preorder number p.
func formatPathOf(r *searchRun, p int) string {
	if p < 0 || p >= len(r.pre) {
		return ""
	}
	return tree.FormatPath(r.tr.Path(r.pre[p]))
}

// means prints means as a list, "-" where a node has no visits.
func means(ms []float64, visits []int64) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		switch {
		case i < len(visits) && visits[i] == 0:
			parts[i] = "-"
		default:
			parts[i] = fmt.Sprintf("%.4g", m)
		}
	}
	return "[" + strings.Join(parts, " ") + "]"
}
