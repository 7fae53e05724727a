package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// readTree reads a -tree argument: a tree in the text format, or @FILE to
// read it from a file, @- from stdin. Errors are usage errors that name the
// flag, the file and the offset (with line and column for files).
func readTree(arg string, stdin io.Reader) (*tree.Tree, error) {
	if arg == "" {
		return nil, usagef("-tree: missing; give a tree such as '(max (min 1 0) 0.5)' or @FILE")
	}
	text, src := arg, ""
	if name, ok := strings.CutPrefix(arg, "@"); ok {
		if name == "" {
			return nil, usagef("-tree @: give a file name after @ (@FILE), or @- for stdin")
		}
		var b []byte
		var err error
		if name == "-" {
			b, err = io.ReadAll(stdin)
			src = "stdin"
		} else {
			b, err = os.ReadFile(name)
			src = name
		}
		if err != nil {
			return nil, usagef("-tree: %v", err)
		}
		text = string(b)
	}
	t, err := tree.Parse(text)
	if err == nil {
		return t, nil
	}
	var pe *tree.ParseError
	if src != "" && errors.As(err, &pe) {
		line, col := lineCol(text, pe.Offset)
		return nil, usagef("-tree: %s:%d:%d: %v", src, line, col, err)
	}
	if src != "" {
		return nil, usagef("-tree: %s: %v", src, err)
	}
	return nil, usagef("-tree: %v", err)
}

// lineCol converts a byte offset to a 1-based line and column.
func lineCol(text string, off int) (line, col int) {
	off = min(max(off, 0), len(text))
	line = 1 + strings.Count(text[:off], "\n")
	col = off - strings.LastIndexByte(text[:off], '\n')
	return line, col
}

// needChooser checks that the root of t is a max or min node, as a search
// and the checker require.
func needChooser(t *tree.Tree) error {
	if k := t.Kind(0); k != core.Max && k != core.Min {
		return usagef("-tree: the root is a %v node; a search needs a max or min root", k)
	}
	return nil
}

// kindName is a node kind as the JSON documents spell it.
func kindName(k core.Kind) string { return fmt.Sprint(k) }
