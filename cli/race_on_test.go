//go:build race

package cli

// raceDetector is true under go test -race, where the expensive tests run
// at a smaller scale: the race detector slows the searches about tenfold,
// and what it looks for (data races) does not need the full scale.
const raceDetector = true
