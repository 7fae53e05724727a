package core

import (
	"syscall"
	"unsafe"
)

// hugePage is the size of a transparent huge page (x86-64, and arm64 with
// 4 KiB pages).
const hugePage = 2 << 20

// makeHuge returns n zeroed elements on whole huge pages: the slice starts
// on a huge-page boundary inside a larger allocation, and the huge pages
// that it spans, rounded up to the last, carry the advice (adviseHuge), so
// that its first touch costs one page fault per 2 MiB. The allocation's
// head before the boundary and its tail past the last huge page are never
// touched: they cost address space, not memory. When the element size does
// not divide the distance to the boundary, the slice starts where the
// allocation does and only the whole huge pages inside it are advised.
func makeHuge[T any](n int) []T {
	size := unsafe.Sizeof(*new(T))
	if size == 0 || n == 0 {
		return make([]T, n)
	}
	bytes := (uintptr(n)*size + hugePage - 1) &^ (hugePage - 1)
	c := make([]T, (bytes+hugePage)/size+1)
	skip := (hugePage - uintptr(unsafe.Pointer(&c[0]))%hugePage) % hugePage
	if skip%size != 0 {
		c = c[:n:n]
		adviseHuge(unsafe.Pointer(&c[0]), uintptr(n)*size)
		return c
	}
	c = c[skip/size:][:n:n]
	adviseHuge(unsafe.Pointer(&c[0]), bytes) // skip + bytes < the allocation's bytes
	return c
}

// adviseHuge asks Linux to back the whole 2 MiB pages inside the n bytes at
// p with transparent huge pages (madvise MADV_HUGEPAGE), before anything
// touches them. Where huge pages are off (/sys/kernel/mm/transparent_hugepage/enabled
// set to never) or the call fails, the memory stays as it was: the advice
// changes no value, only how many page faults the first touch costs.
func adviseHuge(p unsafe.Pointer, n uintptr) {
	start := uintptr(p)
	lo := (start+hugePage-1)&^(hugePage-1) - start // offsets of the first and the last whole huge page
	hi := (start+n)&^(hugePage-1) - start
	if start+n < start || hi <= lo || hi > n {
		return
	}
	_ = syscall.Madvise(unsafe.Slice((*byte)(p), n)[lo:hi], syscall.MADV_HUGEPAGE)
}
