package core

// SetHold turns the tree-parallel workers' held-back backups on or off,
// for BenchmarkHold's comparison.
func SetHold(s *Search, on bool) { s.par.noHold = !on }

// KnowsMachineMemory reports whether New can bound allocations by the
// machine's memory on this system.
func KnowsMachineMemory() bool {
	ram, as := machineMemory()
	return ram > 0 || as > 0
}
