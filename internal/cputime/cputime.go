// Package cputime reads the CPU clock of the calling thread, for the
// benchmarks that report CPU time beside wall time: other jobs on a shared
// machine stretch the wall clock far more than the CPU time a benchmark
// uses.
package cputime
