package core

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// TestMakeChunkAdvisesHuge checks that a large chunk's memory carries the
// huge-page advice (the "hg" flag of its mapping in /proc/self/smaps) and
// is zeroed as make's.
func TestMakeChunkAdvisesHuge(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skip("no transparent huge pages in this kernel")
	}
	big := makeChunk[node](hugeChunk / 16 * 2) // 8 MiB: at least three whole huge pages
	if len(big) != hugeChunk/16*2 || big[0] != (node{}) || big[len(big)-1] != (node{}) {
		t.Fatalf("makeChunk: %d nodes, first %v, last %v, want %d zeroed nodes", len(big), big[0], big[len(big)-1], hugeChunk/16*2)
	}
	// The middle of the chunk lies in a whole huge page.
	mid := uintptr(unsafe.Pointer(&big[len(big)/2]))
	flags, err := vmFlags(mid)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(" "+flags+" ", " hg ") {
		t.Errorf("the mapping under a %d MiB chunk has VmFlags %q, want the huge-page advice hg", len(big)*16>>20, flags)
	}
}

// TestMakeHugeAligned checks that makeHuge's slices start on a huge page,
// hold n zeroed elements, and that the huge page under their last element
// carries the advice even when they end inside it.
func TestMakeHugeAligned(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skip("no transparent huge pages in this kernel")
	}
	for _, n := range []int{1, hugePage / 8 * 3 / 4, hugePage/8 + 1, 3 * hugePage / 8} {
		c := makeHuge[float64](n)
		if len(c) != n || cap(c) != n {
			t.Fatalf("makeHuge(%d): len %d, cap %d", n, len(c), cap(c))
		}
		if a := uintptr(unsafe.Pointer(&c[0])); a%hugePage != 0 {
			t.Errorf("makeHuge(%d) starts at %#x, not on a huge page", n, a)
		}
		for i, x := range c {
			if x != 0 {
				t.Fatalf("makeHuge(%d)[%d] = %v, want 0", n, i, x)
			}
		}
		flags, err := vmFlags(uintptr(unsafe.Pointer(&c[n-1])))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(" "+flags+" ", " hg ") {
			t.Errorf("makeHuge(%d): the mapping under the last element has VmFlags %q, want hg", n, flags)
		}
	}
}

// vmFlags returns the VmFlags line of the mapping of /proc/self/smaps that
// holds address a.
func vmFlags(a uintptr) (string, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return "", err
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &lo, &hi); n == 2 {
			in = lo <= a && a < hi
			continue
		}
		if flags, ok := strings.CutPrefix(line, "VmFlags:"); ok && in {
			return strings.TrimSpace(flags), nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("no mapping holds %#x in /proc/self/smaps", a)
}

// BenchmarkFirstTouch measures what the first write to a page of fresh
// memory costs this host, per 4 KiB (in process CPU time as well as the
// wall clock's ns/op): on small pages (one page fault each)
// and on the huge pages that makeChunk asks for (one fault per 2 MiB,
// adviseHuge). Each region is mapped anew and unmapped after, so no page
// is touched twice. The figure differs by far more between hosts than the
// search's own speed does (docs/speed.md, "The GTP engine against Pachi").
func BenchmarkFirstTouch(b *testing.B) {
	const region = 8 << 20
	const page = 4 << 10
	for _, bc := range []struct {
		name   string
		advise func([]byte)
	}{
		{"pages=4KiB", func(m []byte) { _ = syscall.Madvise(m, syscall.MADV_NOHUGEPAGE) }},
		{"pages=2MiB", func(m []byte) { adviseHuge(unsafe.Pointer(&m[0]), uintptr(len(m))) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			cpu, faults := usage(b)
			for n := 0; n < b.N; {
				m, err := syscall.Mmap(-1, 0, region, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
				if err != nil {
					b.Fatal(err)
				}
				bc.advise(m)
				for i := 0; i < region && n < b.N; i, n = i+page, n+1 {
					m[i] = 1
				}
				if err := syscall.Munmap(m); err != nil {
					b.Fatal(err)
				}
			}
			cpu1, faults1 := usage(b)
			b.ReportMetric(float64(cpu1-cpu)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(faults1-faults)/float64(b.N), "faults/op")
		})
	}
}

// usage returns the process's CPU time (user and system, in nanoseconds)
// and minor page faults so far.
func usage(b *testing.B) (cpu, faults int64) {
	var r syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &r); err != nil {
		b.Fatal(err)
	}
	return r.Utime.Nano() + r.Stime.Nano(), r.Minflt
}
