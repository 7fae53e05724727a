package core

// SetHold turns the tree-parallel workers' held-back backups on or off,
// for BenchmarkHold's comparison.
func SetHold(s *Search, on bool) { s.par.noHold = !on }
