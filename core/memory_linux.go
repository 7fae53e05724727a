package core

import "syscall"

// machineMemory returns the machine's RAM and swap in bytes, and the
// process's address-space limit (ulimit -v), 0 where unknown or unlimited.
func machineMemory() (ram, addressSpace uint64) {
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) == nil {
		ram = (uint64(si.Totalram) + uint64(si.Totalswap)) * uint64(si.Unit)
	}
	var rl syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_AS, &rl) == nil && rl.Cur != ^uint64(0) {
		addressSpace = rl.Cur
	}
	return ram, addressSpace
}
