package core

import (
	"bufio"
	"fmt"
	"os"
	"strings"
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
