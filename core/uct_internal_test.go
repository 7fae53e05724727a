package core

import (
	"math"
	"reflect"
	"testing"
	"unsafe"

	"pgregory.net/rapid"
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

// TestUCTArgmax checks the serial loop of UCT's selection, uctArgmax,
// against the rule's definition computed child by child with UCTScore: the
// first unvisited child, else the highest score, ties to the lower index.
// The children have counts from 0 (alone or among visited ones, in any
// position) to beyond the table, reward sums anywhere in [0, n], both
// sides, any number of children, and constants from 0 (where the table's
// +∞ meets a zero) up to ones near overflow.
func TestUCTArgmax(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k := rapid.IntRange(1, 19).Draw(t, "k")
		kids := make([]node, k)
		var parent uint64
		for i := range kids {
			var n uint32
			switch rapid.IntRange(0, 3).Draw(t, "size") {
			case 0:
				n = 0
			case 1:
				n = rapid.Uint32Range(1, 40).Draw(t, "n")
			case 2:
				n = rapid.Uint32Range(1, recipSize-1).Draw(t, "n")
			default:
				n = rapid.Uint32Range(recipSize, 1<<31).Draw(t, "n")
			}
			w := 0.0
			if n > 0 {
				w = float64(rapid.Uint32Range(0, n).Draw(t, "wins"))
				if rapid.Bool().Draw(t, "fraction") {
					w = rapid.Float64Range(0, float64(n)).Draw(t, "w")
				}
			}
			kids[i] = node{w: w, n: n}
			parent += uint64(n)
		}
		c := rapid.SampledFrom([]float64{0, 0.1, math.Sqrt2, 3, 1e300}).Draw(t, "C")
		flip := rapid.Bool().Draw(t, "min")
		tab := loadTables()
		cs := c * tab.sqrtLog(parent)
		if cs > math.MaxFloat64 {
			t.Skip("cs overflows: uctSelect keeps such constants from uctArgmax")
		}
		want, wantScore := -1, math.Inf(-1)
		for i, kd := range kids {
			if kd.n == 0 {
				want = i
				break
			}
			w := kd.w
			if flip {
				w = float64(kd.n) - w
			}
			if s := UCTScore(w, float64(kd.n), c, tab.logCount(parent)); s > wantScore {
				want, wantScore = i, s
			}
		}
		got := uctArgmax[uctMax](tab, cs, kids)
		if flip {
			got = uctArgmax[uctMin](tab, cs, kids)
		}
		if got != want {
			t.Fatalf("uctArgmax = %d, want %d (kids %+v, C %v, min %v)", got, want, kids, c, flip)
		}
	})
}

// TestTablesHoldNoPointer: loadTables lays the tables over memory
// allocated as float64s, which the garbage collector does not scan, so a
// pointer stored in them would not keep its target alive.
func TestTablesHoldNoPointer(t *testing.T) {
	var walk func(reflect.Type) bool
	walk = func(ty reflect.Type) bool {
		switch ty.Kind() {
		case reflect.Array:
			return walk(ty.Elem())
		case reflect.Struct:
			for i := range ty.NumField() {
				if !walk(ty.Field(i).Type) {
					return false
				}
			}
			return true
		case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
			reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
			return true
		}
		return false
	}
	if ty := reflect.TypeFor[tables](); !walk(ty) {
		t.Errorf("%v holds a pointer, a slice, a map or an interface; loadTables needs plain values", ty)
	}
	if unsafe.Sizeof(tables{})%unsafe.Sizeof(float64(0)) != 0 || unsafe.Alignof(tables{}) > unsafe.Alignof(float64(0)) {
		t.Errorf("tables: size %d, alignment %d; loadTables needs whole float64s", unsafe.Sizeof(tables{}), unsafe.Alignof(tables{}))
	}
}
