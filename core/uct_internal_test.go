package core

import (
	"math"
	"testing"
)

// TestSqrtLog checks UCT's table of sqrt(ln n) against the function it
// stands for, bit for bit, on every count it holds and beyond its end.
func TestSqrtLog(t *testing.T) {
	tab := loadTables()
	ns := []uint64{sqrtLogSize, sqrtLogSize + 1, 1 << 20, 1<<32 - 1, 1 << 40, math.MaxUint64}
	for n := range uint64(sqrtLogSize) {
		ns = append(ns, n)
	}
	for _, n := range ns {
		want := math.Sqrt(math.Log(max(float64(n), 1)))
		if got := tab.sqrtLog(n); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("sqrtLog(%d) = %v, want %v", n, got, want)
		}
	}
}

// TestSqrtLogBuiltOnce has two goroutines reach the second table of a fresh
// set of tables at once: both read the same values, and the race detector
// (go test -race) sees the table published safely.
func TestSqrtLogBuiltOnce(t *testing.T) {
	tab := new(tables)
	const n = logTableSize + 12345
	want := math.Sqrt(math.Log(n))
	got := make(chan float64, 2)
	for range 2 {
		go func() { got <- tab.sqrtLogBig(n) }()
	}
	for range 2 {
		if v := <-got; v != want {
			t.Errorf("sqrtLogBig(%d) = %v, want %v", n, v, want)
		}
	}
}
