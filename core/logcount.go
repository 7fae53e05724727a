package core

import "math"

// LogCount returns math.Log(max(x, 1)), the same float64, from the table
// of logarithms of small counts when x is a whole number below its size:
// a rule whose formula takes the logarithm of a count (such as ln(n(F)+2)
// for a decaying temperature) pays a table read instead of a logarithm.
func LogCount(x float64) float64 {
	if x >= 0 && x < logTableSize {
		if n := uint64(x); float64(n) == x {
			return loadTables().log[n]
		}
	}
	return math.Log(max(x, 1))
}
