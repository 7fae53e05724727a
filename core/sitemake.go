package core

import (
	"fmt"
	"math"
)

// Stats are one node's statistics as NewSite takes them, in max's
// perspective like the stored tree: Visits real simulations with reward sum
// W, virtual experience K1 and K2, an optional prior (in the chooser's
// perspective, as the game gives it), an optional sum of squared rewards
// Squares (Needs.Squares) and AMAF statistics. Counts may exceed
// what a search's nodes hold (2^32 − 1), so that a checker can ask a rule
// what it would do far beyond any run.
type Stats struct {
	Visits     uint64
	W          float64
	K1, K2     float64
	Prior      float64
	HasPrior   bool
	Squares    float64
	HasSquares bool
	AMAFVisits uint64
	AMAFW      float64
}

// NewSite builds the Site a rule would see at a node of kind Max or Min with
// statistics self and children kids, at simulation t. It lets rules be tested
// and fuzzed without a search. Virtual experience, priors and AMAF statistics
// are present when any child has them; squares must be on the node and all
// its children or on none. It returns an error for inputs no search can produce: no
// children, W outside [0, Visits], K2 outside [0, K1], Squares outside
// [W²/Visits, W] (rewards in [0,1]), non-finite values. Counts beyond 2^32 − 1 give a site that holds its
// statistics in float64 (exact to 2^53), which every Site method reads alike.
func NewSite(kind Kind, self Stats, kids []Stats, t int64, rng *RNG) (*Site, error) {
	return NewSiteAt(kind, 0, self, kids, t, rng)
}

// NewSiteAt is NewSite for a node at the given depth below the root.
func NewSiteAt(kind Kind, depth int, self Stats, kids []Stats, t int64, rng *RNG) (*Site, error) {
	if depth < 0 {
		return nil, fmt.Errorf("core: NewSite at depth %d", depth)
	}
	if kind != Max && kind != Min {
		return nil, fmt.Errorf("core: NewSite of a %v node, want max or min", kind)
	}
	if len(kids) == 0 {
		return nil, fmt.Errorf("core: NewSite with no children")
	}
	if rng == nil {
		rng = NewRNG(0)
	}
	if err := self.check(); err != nil {
		return nil, fmt.Errorf("core: NewSite parent: %v", err)
	}
	s := &Site{sVirt: virtual{self.K1, self.K2}}
	s.at(make([]node, len(kids)), node{}, kind, depth, t, rng)
	var virt, prior, amaf bool
	squares := self.HasSquares
	wide := self.Visits > math.MaxUint32
	for i, k := range kids {
		if err := k.check(); err != nil {
			return nil, fmt.Errorf("core: NewSite child %d: %v", i, err)
		}
		virt = virt || k.K1 != 0
		prior = prior || k.HasPrior
		squares = squares || k.HasSquares
		amaf = amaf || k.AMAFVisits != 0
		wide = wide || k.Visits > math.MaxUint32 || k.AMAFVisits > math.MaxUint32
	}
	if squares && (!self.HasSquares || !allSquares(kids)) {
		return nil, fmt.Errorf("core: NewSite with squares on some nodes only: a search keeps them on all or none")
	}
	if wide {
		s.wide = make([]wideStat, len(kids))
		s.wideSelf = wideStat{n: float64(self.Visits), w: self.W, sq: self.Squares}
	} else {
		s.self = node{w: self.W, n: uint32(self.Visits)}
	}
	for i, k := range kids {
		if wide {
			s.wide[i] = wideStat{float64(k.Visits), k.W, k.Squares, float64(k.AMAFVisits), k.AMAFW}
		} else {
			s.kids[i] = node{w: k.W, n: uint32(k.Visits), first: -1}
		}
	}
	if virt {
		s.virt = make([]virtual, len(kids))
	}
	if prior {
		s.prior = make([]float64, len(kids))
	}
	if amaf {
		s.amaf = make([]amafStat, len(kids))
	}
	if squares {
		s.sq = make([]float64, len(kids))
		s.sSq = self.Squares
	}
	for i, k := range kids {
		if virt {
			s.virt[i] = virtual{k.K1, k.K2}
		}
		if prior {
			s.prior[i] = math.NaN()
			if k.HasPrior {
				s.prior[i] = k.Prior
			}
		}
		if squares {
			s.sq[i] = k.Squares
		}
		if amaf && !wide {
			s.amaf[i] = amafStat{uint32(k.AMAFVisits), k.AMAFW}
		}
	}
	return s, nil
}

func (k Stats) check() error {
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case !finite(k.W) || !finite(k.K1) || !finite(k.K2) || !finite(k.AMAFW) || k.HasPrior && !finite(k.Prior) || !finite(k.Squares):
		return fmt.Errorf("non-finite statistic in %+v", k)
	case k.W < 0 || k.W > float64(k.Visits):
		return fmt.Errorf("W %v outside [0, Visits=%d]", k.W, k.Visits)
	case k.K1 < 0 || k.K2 < 0 || k.K2 > k.K1:
		return fmt.Errorf("virtual K1=%v K2=%v, want 0 ≤ K2 ≤ K1", k.K1, k.K2)
	case k.AMAFW < 0 || k.AMAFW > float64(k.AMAFVisits):
		return fmt.Errorf("AMAF W %v outside [0, AMAFVisits=%d]", k.AMAFW, k.AMAFVisits)
	case k.Squares != 0 && !k.HasSquares:
		return fmt.Errorf("sum of squares %v without HasSquares", k.Squares)
	case k.HasSquares && !squaresFit(k.Visits, k.W, k.Squares):
		return fmt.Errorf("sum of squares %v outside [W²/Visits, W] for Visits=%d, W=%v", k.Squares, k.Visits, k.W)
	}
	return nil
}

// allSquares reports whether every node of kids has a sum of squares.
func allSquares(kids []Stats) bool {
	for _, k := range kids {
		if !k.HasSquares {
			return false
		}
	}
	return true
}

// squaresFit reports whether n rewards in [0,1] with sum w can have sum of
// squares sq: r² ≤ r bounds it by w above and the Cauchy–Schwarz inequality
// by w²/n below, with room for the rounding of a search's running sums.
func squaresFit(n uint64, w, sq float64) bool {
	if n == 0 {
		return sq == 0
	}
	const slack = 1e-9
	return sq >= 0 && sq <= w*(1+slack) && sq >= w*(w/float64(n))*(1-slack)
}
