// Package suggest finds the name a user probably meant when a name is
// unknown: the "did you mean" of an error message.
package suggest

import (
	"fmt"
	"strings"
)

// Nearest returns the known name closest to word, and true, if one is
// close enough to be what the user meant: within an edit distance (a
// letter inserted, deleted, changed, or two neighbours swapped) of a third
// of the shorter name's length, at least 1, that does not change every
// letter ("x" is not "c"); or the only name word begins (of three letters
// or more). Of names equally close it returns the first. It returns "",
// false otherwise.
func Nearest(word string, known []string) (string, bool) {
	word = strings.ToLower(word)
	best, bestD := "", -1
	for _, k := range known {
		lk := strings.ToLower(k)
		d := distance(word, lk)
		if d > max(1, min(len(word), len(lk))/3) || d >= max(len(word), len(lk)) {
			continue
		}
		if bestD < 0 || d < bestD {
			best, bestD = k, d
		}
	}
	if bestD >= 0 {
		return best, true
	}
	if len(word) < 3 {
		return "", false
	}
	var prefixed []string
	for _, k := range known {
		if strings.HasPrefix(strings.ToLower(k), word) {
			prefixed = append(prefixed, k)
		}
	}
	if len(prefixed) == 1 {
		return prefixed[0], true
	}
	return "", false
}

// distance is the optimal string alignment distance between a and b, in
// bytes: insertions, deletions, substitutions and transpositions of
// neighbours, each costing 1.
func distance(a, b string) int {
	// rows i−2, i−1 and i of the table, over j = 0..len(b).
	prev2, prev, cur := make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// DidYouMean is `: did you mean "NAME"?` for the known name Nearest to
// word, to follow the word in an error message, or "" if none is near.
func DidYouMean(word string, known []string) string {
	if n, ok := Nearest(word, known); ok {
		return fmt.Sprintf(": did you mean %q?", n)
	}
	return ""
}
