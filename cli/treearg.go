package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// maxTreeBytes is the most a -tree @FILE or @- reads: 64 MiB, room for a
// tree of tree.MaxParseNodes nodes written with moves, priors and comments.
// A longer input is refused once that much is read, so that
// -tree @/dev/zero fails in a moment instead of filling the memory.
const maxTreeBytes = 64 << 20

// readTree reads a -tree argument: a tree in the text format, or @FILE to
// read it from a file, @- from stdin, at most maxTreeBytes. Errors are usage
// errors that name the flag, the file and the offset (with line and column
// for files).
func readTree(arg string, stdin io.Reader) (*tree.Tree, error) {
	if arg == "" {
		return nil, usagef("-tree: missing; give a tree such as '(max (min 1 0) 0.5)' or @FILE")
	}
	text, src := arg, ""
	if name, ok := strings.CutPrefix(arg, "@"); ok {
		if name == "" {
			return nil, usagef("-tree @: give a file name after @ (@FILE), or @- for stdin")
		}
		var err error
		if text, src, err = readBounded(name, stdin, maxTreeBytes); err != nil {
			return nil, usagef("-tree: %v", err)
		}
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
	if strings.HasPrefix(arg, "random ") || strings.HasPrefix(arg, "trap ") {
		return nil, usagef("-tree %q: that is a tree's name in a check's list, not a tree: give its text, which the list shows after the name (and -json as \"tree\")", arg)
	}
	return nil, usagef("-tree: %v", err)
}

// readTreeCtx is readTree that returns ctx's error as soon as ctx ends: a
// file of millions of nodes takes seconds to read and parse, and Ctrl-C
// does not wait for it (the reading goes on in a goroutine left behind,
// which ends with the text).
func readTreeCtx(ctx context.Context, arg string, stdin io.Reader) (*tree.Tree, error) {
	type read struct {
		tr  *tree.Tree
		err error
	}
	done := make(chan read, 1)
	go func() {
		tr, err := readTree(arg, stdin)
		done <- read{tr, err}
	}()
	select {
	case r := <-done:
		return r.tr, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// readBounded reads the file name, or stdin if name is "-", and fails
// once it has read more than limit bytes. It returns the text and the
// name of its source in messages.
func readBounded(name string, stdin io.Reader, limit int64) (text, src string, err error) {
	r, src := stdin, "stdin"
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return "", "", err
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > limit {
			return "", "", fmt.Errorf("%s: %d bytes, more than the %d MiB a tree may take", name, st.Size(), limit>>20)
		}
		r, src = f, name
	}
	var b strings.Builder
	n, err := io.Copy(&b, io.LimitReader(r, limit+1))
	switch {
	case err != nil:
		return "", "", err
	case n > limit:
		return "", "", fmt.Errorf("%s: more than the %d MiB a tree may take", src, limit>>20)
	}
	return b.String(), src, nil
}

// lineCol converts a byte offset to a 1-based line and column.
func lineCol(text string, off int) (line, col int) {
	off = min(max(off, 0), len(text))
	line = 1 + strings.Count(text[:off], "\n")
	col = off - strings.LastIndexByte(text[:off], '\n')
	return line, col
}

// checkedTree reads check's -tree flag arg: nil if it is empty, else the
// tree, whose root must be a max or min node and which must be binary
// deterministic with -binary.
func checkedTree(e *env, arg string, binary bool) (*tree.Tree, error) {
	if arg == "" {
		return nil, nil
	}
	tr, err := readTreeCtx(e.ctx, arg, e.stdin)
	if err != nil {
		return nil, err
	}
	if err := needChooser(tr); err != nil {
		return nil, err
	}
	if binary && !tr.BinaryDeterministic() {
		return nil, usagef("-binary: the -tree has a chance node or a reward other than 0 and 1; drop -binary or give a binary deterministic tree")
	}
	return tr, nil
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
