//go:build !race

package cli

// raceDetector is false without -race: see race_on_test.go.
const raceDetector = false
