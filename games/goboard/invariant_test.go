package goboard

import (
	"fmt"
)

// check recomputes everything the board keeps incrementally — the empty
// list, neighbour counts, each color's stones, chains, their stone counts
// and pseudo-liberties, the hash — and returns an error describing the first difference; it also
// reports a chain without liberties.
func (b *Board) check() error {
	n := b.size
	// Empty list.
	if b.nEmpty < 0 || b.nEmpty > n*n {
		return fmt.Errorf("nEmpty %d", b.nEmpty)
	}
	inList := map[int]bool{}
	for i := range b.nEmpty {
		p := int(b.empty[i])
		if b.color[p] != Empty {
			return fmt.Errorf("empty list holds %s, which is %v", b.vtx(p), b.color[p])
		}
		if int(b.epos[p]) != i {
			return fmt.Errorf("epos[%s] = %d, want %d", b.vtx(p), b.epos[p], i)
		}
		inList[p] = true
	}
	var hash uint64
	var placed [3]int
	for m := range n * n {
		p := b.index(m)
		if b.ident(p) != m {
			return fmt.Errorf("ident(index(%d)) = %d", m, b.ident(p))
		}
		c := b.color[p]
		switch c {
		case Empty:
			if !inList[p] {
				return fmt.Errorf("empty point %s not in the list", b.vtx(p))
			}
		case Black, White:
			hash ^= zobrist[c][p]
			placed[c]++
		default:
			return fmt.Errorf("point %s has color %d", b.vtx(p), c)
		}
		var nb uint16
		for _, q := range b.around(p) {
			nb += nbInc[b.color[q]]
		}
		if nb != b.nb[p] {
			return fmt.Errorf("nb[%s] = %#x, want %#x", b.vtx(p), b.nb[p], nb)
		}
	}
	if hash != b.hash {
		return fmt.Errorf("hash %#x, want %#x", b.hash, hash)
	}
	if placed != b.placed {
		return fmt.Errorf("stones of each color %v, want %v", b.placed, placed)
	}
	// Chains: flood fill each one and compare.
	done := map[int]bool{}
	for m := range n * n {
		p := b.index(m)
		c := b.color[p]
		if c != Black && c != White || done[p] {
			continue
		}
		stones := map[int]bool{p: true}
		stack := []int{p}
		pseudo := 0
		libs := map[int]bool{}
		for len(stack) > 0 {
			q := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, t := range b.around(q) {
				switch {
				case b.color[t] == Empty:
					pseudo++
					libs[t] = true
				case b.color[t] == c && !stones[t]:
					stones[t] = true
					stack = append(stack, t)
				}
			}
		}
		r := int(b.chain[p])
		for q := range stones {
			done[q] = true
			if int(b.chain[q]) != r {
				return fmt.Errorf("stones %s and %s connected but in chains %s and %s",
					b.vtx(p), b.vtx(q), b.vtx(r), b.vtx(int(b.chain[q])))
			}
		}
		if !stones[r] {
			return fmt.Errorf("chain of %s has root %s outside it", b.vtx(p), b.vtx(r))
		}
		count := 0
		for q := r; ; {
			if !stones[q] {
				return fmt.Errorf("chain list of %s reaches %s", b.vtx(r), b.vtx(q))
			}
			count++
			if count > len(stones) {
				return fmt.Errorf("chain list of %s is longer than its %d stones", b.vtx(r), len(stones))
			}
			if q = int(b.next[q]); q == r {
				break
			}
		}
		if count != len(stones) || int(b.stone[r]) != count {
			return fmt.Errorf("chain %s: list %d, count %d, want %d stones", b.vtx(r), count, b.stone[r], len(stones))
		}
		if int(b.libs[r]) != pseudo {
			return fmt.Errorf("chain %s: %d pseudo-liberties, want %d", b.vtx(r), b.libs[r], pseudo)
		}
		if len(libs) == 0 {
			return fmt.Errorf("chain %s has no liberty", b.vtx(r))
		}
	}
	return nil
}

// vtx names a padded index.
func (b *Board) vtx(p int) string { return Vertex(b.ident(p), b.size) }
