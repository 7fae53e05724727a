package goboard

import (
	"errors"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/core"
)

// FuzzParseVertex checks that ParseVertex never panics and that what it
// accepts prints back to the same vertex, up to case and leading zeros of
// the row.
func FuzzParseVertex(f *testing.F) {
	for _, s := range []string{"A1", "j9", "T19", "pass", "I5", "A0", "Z99", "", "A+1", "D 4"} {
		f.Add(s, 9)
	}
	f.Fuzz(func(t *testing.T, s string, size int) {
		m, err := ParseVertex(s, size)
		if err != nil {
			return
		}
		if v := Vertex(m, size); !strings.EqualFold(v, s) && !strings.EqualFold(v, s[:1]+strings.TrimLeft(s[1:], "0")) {
			t.Errorf("ParseVertex(%q, %d) = %d, which prints as %q", s, size, m, v)
		}
	})
}

// FuzzGame plays the bytes of data as moves (each byte a point identity
// modulo size²+1) on a Board and through a Game, checking the incremental
// state after every move and that the Game's list agrees with legality.
func FuzzGame(f *testing.F) {
	f.Add(uint8(5), []byte{12, 7, 11, 13, 17, 25, 6})
	f.Add(uint8(9), []byte{40, 41, 31, 49, 39, 50, 30, 81, 81})
	f.Fuzz(func(t *testing.T, size uint8, data []byte) {
		n := MinSize + int(size)%(MaxSize-MinSize+1)
		g, err := NewGame(Config{Size: n})
		if err != nil {
			t.Fatal(err)
		}
		b := &g.b
		for _, x := range data {
			if g.Kind() == core.Terminal {
				break
			}
			m := int(x) % (n*n + 1)
			err := g.Legal(m)
			i := index(g, m)
			switch {
			case err == nil && i < 0 && !b.eye(b.toMove, b.index(m)):
				t.Fatalf("%s legal but not listed\n%s", Vertex(m, n), b)
			case err != nil && i >= 0:
				t.Fatalf("%s listed but %v\n%s", Vertex(m, n), err, b)
			case err != nil && !errors.Is(err, ErrOccupied) && !errors.Is(err, ErrSuicide) && !errors.Is(err, ErrKo) && !errors.Is(err, ErrSuperko):
				t.Fatalf("%s: unexpected error %v", Vertex(m, n), err)
			}
			if i >= 0 {
				g.Play(i)
			}
			if err := b.check(); err != nil {
				t.Fatalf("after %s: %v\n%s", Vertex(m, n), err, b)
			}
		}
	})
}
