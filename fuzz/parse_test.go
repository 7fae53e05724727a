package fuzz

import (
	"errors"
	"testing"

	"github.com/mctscheck/mctscheck/tree"
)

// FuzzParse feeds any text to the tree parser: it must return a tree or a
// *tree.ParseError whose offset lies in the text, never panic; a tree it
// returns must print in canonical form, and that form must parse back to an
// equal tree and print the same again.
func FuzzParse(f *testing.F) {
	f.Fuzz(func(t *testing.T, text string) {
		tr, err := tree.Parse(text)
		if err != nil {
			var pe *tree.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Parse(%q) error %T %v, want a *tree.ParseError", text, err, err)
			}
			if pe.Offset < 0 || pe.Offset > len(text) {
				t.Fatalf("Parse(%q) error at offset %d, outside the %d bytes of the text: %v", text, pe.Offset, len(text), err)
			}
			if tr != nil {
				t.Fatalf("Parse(%q) returned a tree and the error %v", text, err)
			}
			return
		}
		canon := tr.String()
		back, err := tree.Parse(canon)
		if err != nil {
			t.Fatalf("Parse(%q) = %s, which does not parse: %v", text, canon, err)
		}
		if !back.Equal(tr) {
			t.Fatalf("Parse(%q) printed as %s reads back as a different tree %s", text, canon, back)
		}
		if again := back.String(); again != canon {
			t.Fatalf("canonical text not a fixed point:\n first %s\nsecond %s", canon, again)
		}
		if got := string(tr.AppendText([]byte("x"))); got != "x"+canon {
			t.Fatalf("AppendText = %q, want %q", got, "x"+canon)
		}
		var u tree.Tree
		if err := u.UnmarshalText([]byte(text)); err != nil || !u.Equal(tr) {
			t.Fatalf("UnmarshalText(%q) = %s, %v; Parse gave %s", text, &u, err, canon)
		}
	})
}
