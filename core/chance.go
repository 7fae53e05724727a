package core

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ProbTolerance is how far from 1 the probabilities of a chance position may
// sum: |Σ p − 1| ≤ 1e-9, which leaves room for the rounding of a million
// float64 terms and none for a real mistake.
const ProbTolerance = 1e-9

// checkChance reads the k probabilities of worker w's current position, a
// chance position rolled moves into a roll-out (0 in the stored tree), and
// returns a *GameError if one is not a finite number in [0,1] or if they do
// not sum to 1 within ProbTolerance. The search calls it once per stored
// chance node, when the node is expanded, and at every chance position of a
// roll-out.
func (s *Search) checkChance(w *worker, k int, rolled int32) error {
	sum := 0.0
	for i := range k {
		p := w.prob(i)
		if !(p >= 0 && p <= 1) { // false for NaN too
			return s.chanceError(w, k, rolled, fmt.Sprintf("probability %v of child %d, want a number in [0,1]", p, i))
		}
		sum += p
	}
	if !(math.Abs(sum-1) <= ProbTolerance) {
		return s.chanceError(w, k, rolled, fmt.Sprintf("probabilities sum to %v, want 1 within %g", sum, ProbTolerance))
	}
	return nil
}

// maxProbs bounds how many probabilities a GameError keeps, and
// shownProbs how many its message prints.
const (
	maxProbs   = 1024
	shownProbs = 8
)

// chanceError is the *GameError of a chance position whose probabilities
// are wrong, as msg says; it keeps the first maxProbs of them.
func (s *Search) chanceError(w *worker, k int, rolled int32, msg string) error {
	probs := make([]float64, min(k, maxProbs))
	for i := range probs {
		probs[i] = w.prob(i)
	}
	var b strings.Builder
	b.WriteString("chance ")
	b.WriteString(msg)
	b.WriteString(": [")
	for i, p := range probs[:min(len(probs), shownProbs)] {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.FormatFloat(p, 'g', -1, 64))
	}
	if k > shownProbs {
		fmt.Fprintf(&b, " … (%d in all)", k)
	}
	b.WriteByte(']')
	return &GameError{Path: s.pathMoves(w), Rollout: int(rolled), Sim: w.t, Probs: probs, Msg: b.String()}
}
