//go:build race

package props_test

// raceDetector is true under go test -race, where the statistical tests
// check fewer trees: the race detector slows the searches about tenfold, and
// what it looks for (data races) does not need the full scale.
const raceDetector = true
