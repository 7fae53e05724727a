package core

import (
	"fmt"
	"unsafe"
)

// The arena holds the stored nodes and their optional statistics in
// chunks: a node's index i lives in chunk i>>chunkBits at offset
// i&chunkMask, and the children of a node are contiguous inside one chunk.
// Growing a large tree adds chunks instead of copying one array into a
// larger one, so that a search's peak memory is its tree plus one chunk
// (append's doubling held the old and the new array at once: 3× the tree
// at the worst moment), and so that tree-parallel workers can read nodes
// while another adds some. Only a serial search's first chunk grows by
// copying, up to 2^20 nodes.
const (
	chunkBits = 20 // 2^20 nodes: 16 MiB of nodes a full chunk
	chunkLen  = 1 << chunkBits
	chunkMask = chunkLen - 1
	maxChunks = 1 << (31 - chunkBits) // indices are int32
	// minChunk is the smallest chunk a search without Capacity starts with.
	minChunk = 16
	// chunkSlack is the room added per chunk boundary to a Capacity that
	// spans several chunks: a node's children do not straddle two chunks,
	// so each boundary can leave up to (children − 1) slots unused.
	chunkSlack = 64
)

// ChunkNodes is the number of nodes in a full chunk of the arena (16 MiB
// of nodes without optional statistics). A Config.Capacity of up to
// ChunkNodes is one allocation; a tree that outgrows a Capacity below it
// grows its first chunk by doubling, copying it, and one that outgrows
// ChunkNodes adds chunks and copies nothing.
const ChunkNodes = chunkLen

// chunked is one statistic's arena. Chunk j, once allocated, holds the
// indices j<<chunkBits to j<<chunkBits + len(c[j]) − 1, and an index beyond
// a chunk's length is never handed out. c0 is chunk 0 again, so that the
// common case (every tree of up to 2^20 nodes) costs one bounds check.
type chunked[T any] struct {
	c0 []T
	c  [][]T
}

// at returns the element at index i.
func (a *chunked[T]) at(i int32) *T {
	if uint32(i) < uint32(len(a.c0)) {
		return &a.c0[i]
	}
	return &a.c[i>>chunkBits][i&chunkMask]
}

// span returns the k elements from index first on, which lie in one chunk.
func (a *chunked[T]) span(first, k int32) []T {
	if e := uint32(first) + uint32(k); e <= uint32(len(a.c0)) {
		return a.c0[first:e:e]
	}
	o := first & chunkMask
	return a.c[first>>chunkBits][o : o+k : o+k]
}

// add allocates chunk j with size elements. In a shared (tree-parallel)
// arena the table of chunks has its full length from the start, so that
// adding a chunk never moves the table under a reader.
func (a *chunked[T]) add(j, size int) {
	for len(a.c) <= j {
		a.c = append(a.c, nil)
	}
	a.c[j] = makeChunk[T](size)
	if j == 0 {
		a.c0 = a.c[0]
	}
}

// grow0 makes chunk 0 size elements long, copying it: only a serial search
// does this, between simulations' reads of the arena.
func (a *chunked[T]) grow0(size int) {
	c := makeChunk[T](size)
	copy(c, a.c0)
	a.c[0], a.c0 = c, c
}

// hugeChunk is the size from which a chunk asks for huge pages: one
// page fault for 2 MiB instead of 512. A first touch of a page is the
// largest cost of a big tree on some virtual machines (docs/speed.md),
// and the checker's small searches keep their small pages.
const hugeChunk = 4 << 20

// makeChunk allocates a chunk of size elements, on huge pages when it is
// large (makeHuge).
func makeChunk[T any](size int) []T {
	if uintptr(size)*unsafe.Sizeof(*new(T)) >= hugeChunk {
		return makeHuge[T](size)
	}
	return make([]T, size)
}

// share gives the table of chunks its full length.
func (a *chunked[T]) share() {
	if len(a.c) < maxChunks {
		t := make([][]T, maxChunks)
		copy(t, a.c)
		a.c = t
	}
}

// used reports whether the arena holds this statistic at all.
func (a *chunked[T]) used() bool { return a.c != nil }

// arena is the search's allocator: it hands out runs of contiguous indices
// and keeps every statistic's chunks in step with the nodes'.
type arena struct {
	nodes chunked[node]
	virt  chunked[virtual]  // when the rule gives virtual experience
	prior chunked[float64]  // when the rule needs priors
	amaf  chunked[amafStat] // when the rule needs AMAF
	moves chunked[int32]    // when the rule needs AMAF: move identity of the edge
	mm    chunked[float64]  // with BackupMinimax
	sq    chunked[float64]  // when the rule needs squares: sum of squared rewards
	fly   chunked[uint32]   // tree-parallel with virtual loss: simulations in flight

	next     int32 // next free index
	count    int   // stored nodes
	total    int   // slots allocated in all chunks
	capacity int   // Config.Capacity
	shared   bool  // tree-parallel: chunks never move
}

// take returns the first of k contiguous new indices, zeroed, adding a
// chunk if the current one has no room; it fails when the index space is
// exhausted or k exceeds a chunk.
func (a *arena) take(k int) (int32, error) {
	if k > chunkLen {
		return 0, fmt.Errorf("a node with %d children, more than the %d of an arena chunk", k, chunkLen)
	}
	next := a.next
	for {
		j := int(next >> chunkBits)
		if j >= maxChunks {
			return 0, fmt.Errorf("tree is full: %d stored nodes fill the int32 index space", a.count)
		}
		if j >= len(a.nodes.c) || a.nodes.c[j] == nil {
			a.addChunk(j, a.chunkSize(j, k))
		}
		o := int(next & chunkMask)
		if o+k <= len(a.nodes.c[j]) {
			break
		}
		if j == 0 && !a.shared && o+k <= chunkLen {
			// A serial search grows its first chunk by doubling, copying
			// it, as append would (at most 16 MiB of nodes): small trees
			// stay in one chunk, where an index costs one bounds check.
			a.grow0(min(max(2*len(a.nodes.c0), o+k), chunkLen))
			break
		}
		next = int32(j+1) << chunkBits
		if j+1 >= maxChunks {
			return 0, fmt.Errorf("tree is full: %d stored nodes fill the int32 index space", a.count)
		}
	}
	a.next = next + int32(k)
	a.count += k
	a.clear(next, int32(k))
	return next, nil
}

// chunkSize is the size of a new chunk j that must hold k nodes: what is
// left of Capacity (with slack for the chunk boundaries), or as much as
// every chunk before it, so that the arena doubles as append would.
func (a *arena) chunkSize(j, k int) int {
	want := max(a.total, minChunk)
	if a.total < a.capacity {
		want = a.capacity - a.total
		if a.capacity > chunkLen {
			want += chunkSlack * (j + 1)
		}
	}
	return min(max(want, k), chunkLen)
}

// grow0 grows chunk 0 of every statistic the search keeps to size.
func (a *arena) grow0(size int) {
	a.total += size - len(a.nodes.c0)
	for _, c := range a.columns() {
		c.grow0(size)
	}
}

// addChunk allocates chunk j of every statistic the search keeps.
func (a *arena) addChunk(j, size int) {
	for _, c := range a.columns() {
		c.add(j, size)
	}
	a.total += size
}

// reserve allocates chunks until the arena holds Capacity nodes.
func (a *arena) reserve() {
	for j := 0; a.total < a.capacity && j < maxChunks; j++ {
		if j >= len(a.nodes.c) || a.nodes.c[j] == nil {
			a.addChunk(j, a.chunkSize(j, 1))
		}
	}
}

// clear zeroes k new slots from first on, in every statistic: memory is
// reused after Reset. It runs on every expansion, so it names the
// statistics itself rather than going through columns.
func (a *arena) clear(first, k int32) {
	clear(a.nodes.span(first, k))
	if a.virt.used() {
		clear(a.virt.span(first, k))
	}
	if a.prior.used() {
		clear(a.prior.span(first, k))
	}
	if a.amaf.used() {
		clear(a.amaf.span(first, k))
		clear(a.moves.span(first, k))
	}
	if a.mm.used() {
		clear(a.mm.span(first, k))
	}
	if a.sq.used() {
		clear(a.sq.span(first, k))
	}
	if a.fly.used() {
		clear(a.fly.span(first, k))
	}
}

// share prepares every statistic's table for tree-parallel use.
func (a *arena) share() {
	a.shared = true
	for _, c := range a.columns() {
		c.share()
	}
}

// column is one statistic's chunks, as the arena grows them: chunked[T]
// for any T.
type column interface {
	grow0(size int)
	add(j, size int)
	share()
}

// columns returns the statistics the search keeps, the nodes first, for
// the arena's growth (clear, on every expansion, names them itself).
func (a *arena) columns() []column {
	out := []column{&a.nodes}
	for _, c := range []interface {
		column
		used() bool
	}{&a.virt, &a.prior, &a.amaf, &a.moves, &a.mm, &a.sq, &a.fly} {
		if c.used() {
			out = append(out, c)
		}
	}
	return out
}

// reset forgets every node, keeping the chunks.
func (a *arena) reset() {
	a.next, a.count = 0, 0
}
