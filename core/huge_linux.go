package core

import (
	"syscall"
	"unsafe"
)

// adviseHuge asks Linux to back the whole 2 MiB pages inside the n bytes at
// p with transparent huge pages (madvise MADV_HUGEPAGE), before anything
// touches them. Where huge pages are off (/sys/kernel/mm/transparent_hugepage/enabled
// set to never) or the call fails, the memory stays as it was: the advice
// changes no value, only how many page faults the first touch costs.
func adviseHuge(p unsafe.Pointer, n uintptr) {
	const huge = 2 << 20
	start := uintptr(p)
	lo := (start+huge-1)&^(huge-1) - start // offsets of the first and the last whole huge page
	hi := (start+n)&^(huge-1) - start
	if start+n < start || hi <= lo || hi > n {
		return
	}
	_ = syscall.Madvise(unsafe.Slice((*byte)(p), n)[lo:hi], syscall.MADV_HUGEPAGE)
}
