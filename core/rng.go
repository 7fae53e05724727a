package core

import (
	"math/bits"
	"math/rand/v2"
)

// RNG is the search's single source of randomness: chance sampling, roll-outs,
// stochastic rules and Algorithm 2's random child all draw from it, so a seed
// fixes a search completely. It is a PCG (math/rand/v2) used as a concrete
// type so that draws in the hot loop are direct calls.
type RNG struct {
	src rand.PCG
}

// NewRNG returns a generator seeded with seed.
func NewRNG(seed uint64) *RNG {
	r := &RNG{}
	r.Seed(seed)
	return r
}

// Seed resets the generator to the stream of seed.
func (r *RNG) Seed(seed uint64) {
	r.src.Seed(seed, seed^0x9E3779B97F4A7C15)
}

// Uint64 returns 64 uniformly random bits.
func (r *RNG) Uint64() uint64 { return r.src.Uint64() }

// Float64 returns a uniform number in [0,1) on the 2^-53 grid.
func (r *RNG) Float64() float64 { return float64(r.src.Uint64()>>11) * 0x1p-53 }

// IntN returns a uniform integer in [0,n). It panics if n <= 0.
func (r *RNG) IntN(n int) int {
	if n <= 0 {
		panic("core: RNG.IntN of a non-positive bound")
	}
	// Lemire's multiply-and-reject: unbiased, one multiplication per draw.
	un := uint64(n)
	hi, lo := bits.Mul64(r.src.Uint64(), un)
	if lo < un {
		thresh := -un % un
		for lo < thresh {
			hi, lo = bits.Mul64(r.src.Uint64(), un)
		}
	}
	return int(hi)
}
