//go:build !linux

package core

// machineMemory returns 0, 0: outside Linux the search knows only the Go
// memory limit.
func machineMemory() (ram, addressSpace uint64) { return 0, 0 }
