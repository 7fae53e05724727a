package core

import "math"

// LogCount returns math.Log(max(x, 1)), the same float64, from the table
// of logarithms of small counts when x is a whole number below its size:
// a rule whose formula takes the logarithm of a count (such as ln(n(F)+2)
// for a decaying temperature) pays a table read instead of a logarithm.
func LogCount(x float64) float64 {
	// The common case without a call: a whole x in the table, once the
	// table is built, is one read; the rest goes to logCountAny. Whatever
	// int64 gives for an x out of its range, float64(n) == x fails.
	n := int64(x)
	if t := tablesPtr.Load(); t != nil && uint64(n) < logTableSize && float64(n) == x {
		return t.log[n]
	}
	return logCountAny(x)
}

// logCountAny is LogCount for any x, building the table on first use.
func logCountAny(x float64) float64 {
	if x >= 0 && x < logTableSize {
		if n := int64(x); float64(n) == x {
			return loadTables().log[n]
		}
	}
	return math.Log(max(x, 1))
}
