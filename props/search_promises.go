package props

import (
	"fmt"
	"math"
	"strings"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// Besides counts that add up, the search protocol promises what the exact
// tree lets the checker test: means for max, and chance outcomes drawn by
// their probabilities (docs/protocol.md, "What mctscheck checks of the
// answers"). A search that breaks either searches, or reports, another
// game than the tree; its answers cannot be read as they stand, so each
// breach is a fault of its own kind. (The same tree and seed giving the
// same answers is the answer log's to check.)

// perspectiveVisits is the simulations a terminal needs before its mean,
// exactly 1 − reward, is read as a mean for the side to move: a search
// that values a terminal by a roll-out of two outcomes matches it by
// chance with probability 2^-64 at most.
const perspectiveVisits = 64

// promises returns the fault of a search whose checked answers (every
// checkpoint, each well formed) break a promise the exact tree lets the
// checker test, or nil. seeds is the number of searches of the tree, for
// the error rate of the chance test.
func (cr Criterion) promises(run *searchRun, seeds int) *Fault {
	z := run.snaps[len(run.snaps)-1]
	if f := run.perspective(z); f != nil {
		return f
	}
	if run.nodes {
		return run.chanceDrawn(z, cr.readingRate(seeds, run.tr.Len()))
	}
	return nil
}

// perspective returns the fault of a search that reports means for the
// side to move rather than for max: at z, a terminal child of a min node
// (reported: the root's children alone without nodes), its reward not
// 1/2, has perspectiveVisits simulations and the mean 1 − reward, and no
// terminal child of a min node has its reward as its mean. A terminal's
// every simulation ends there, with its reward for max: a search that
// averages for max reports the reward itself.
func (r *searchRun) perspective(z snapshot) *Fault {
	flipped := int32(-1)
	for _, i := range z.seen.ids {
		if r.tr.Kind(i) != core.Terminal || r.tr.Parent(i) < 0 || r.tr.Kind(r.tr.Parent(i)) != core.Min {
			continue
		}
		rew, n, m := r.tr.Reward(i), z.visits(i), z.value(i)
		if n == 0 || rew == 0.5 {
			continue
		}
		switch {
		case exactly(m, rew):
			return nil
		case flipped < 0 && n >= perspectiveVisits && exactly(m, 1-rew):
			flipped = i
		}
	}
	if flipped < 0 {
		return nil
	}
	path := tree.FormatPath(r.tr.Path(flipped))
	f := r.fault(FaultPerspective, path,
		"reported means for the side to move, not for max: terminal node %s (reward %g for max), a move of the min player, has the mean %g after %d simulations; means are max's at every node, whoever moves there (docs/protocol.md, \"The answers\")",
		path, r.tr.Reward(flipped), z.value(flipped), z.visits(flipped))
	f.Checkpoint = z.budget
	return f
}

// exactly says whether a reported mean is x, up to the rounding of a
// running average.
func exactly(m, x float64) bool { return math.Abs(m-x) <= 1e-9 }

// chanceDrawn returns the fault of a search that does not draw chance
// outcomes by their probabilities: at z, a chance node's children whose
// visits (m in all) differ from m times their probabilities by more than
// Bernstein's inequality allows at the error rate rate, for m independent
// draws. A search that picks outcomes (the best one, the first), or
// treats a chance node as a decision, searches another game.
func (r *searchRun) chanceDrawn(z snapshot, rate float64) *Fault {
	for _, p := range z.seen.ids {
		if r.tr.Kind(p) != core.Chance {
			continue
		}
		k := r.tr.NumChildren(p)
		m := int64(0)
		for c := range k {
			m += z.visits(r.tr.Child(p, c))
		}
		for c := range k {
			id := r.tr.Child(p, c)
			q := r.tr.Prob(id)
			exp, v := float64(m)*q, float64(m)*q*(1-q)
			if math.Abs(float64(z.visits(id))-exp) <= bernsteinAt(v, rate) {
				continue
			}
			got, want := make([]string, k), make([]string, k)
			for c := range k {
				got[c] = fmt.Sprint(z.visits(r.tr.Child(p, c)))
				want[c] = fmt.Sprintf("%g", r.tr.Prob(r.tr.Child(p, c)))
			}
			path := tree.FormatPath(r.tr.Path(p))
			f := r.fault(FaultChance, path,
				"searches another game: chance node %s's children have %s visits, where its probabilities %s give child %d %.0f ± %.0f of the %d (Bernstein, error rate %.1e): the search picks chance outcomes, or treats the chance node as a decision, instead of drawing them by their probabilities",
				path, strings.Join(got, ", "), strings.Join(want, ", "), c, exp, bernsteinAt(v, rate), m, rate)
			f.Checkpoint = z.budget
			return f
		}
	}
	return nil
}
