package tree

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mctscheck/mctscheck/core"
)

// ParseError is the error Parse returns: the byte offset in the text where
// the problem is, and what is wrong there.
type ParseError struct {
	Offset int
	Msg    string
}

// Error returns the offset and the message, as in
// "offset 17: expected ')' or a child, found 'x'".
func (e *ParseError) Error() string {
	return "offset " + strconv.Itoa(e.Offset) + ": " + e.Msg
}

// Parse reads a tree in the text format described in the package doc.
// Problems with a node are reported at the offset of its first byte, and name
// the node by its path from the root, as in
// "offset 9: node 0.1 (chance): probabilities sum to 0.75, want 1".
// Parse uses no recursion, so any depth of nesting gives a tree or an error.
// It reads at most MaxParseNodes nodes; ParseLimit sets another bound.
func Parse(s string) (*Tree, error) {
	return ParseLimit(s, MaxParseNodes)
}

// MaxParseNodes is the most nodes Parse reads: 2^20 = 1,048,576, more
// than the million-deep chains the package tests. A text with more nodes is
// an error at the offset of the first node too many, so that the memory
// Parse needs is bounded by the limit, whatever the text's length: at most
// 512 bytes a node in all, most of it garbage along the way
// (TestParseLimit keeps the bound).
const MaxParseNodes = 1 << 20

// ParseLimit is Parse with a bound of limit nodes instead of
// MaxParseNodes, for callers that know they have the memory (see
// MaxParseNodes) for larger trees, or want less; no tree has more than
// 2^31 − 1 nodes.
func ParseLimit(s string, limit int) (*Tree, error) {
	p := parser{s: s, limit: max(min(limit, maxNodes), 0)}
	return p.parse()
}

// MustParse is like Parse but panics if s is not a valid tree. It is meant for
// tests and examples with fixed trees.
func MustParse(s string) *Tree {
	t, err := Parse(s)
	if err != nil {
		panic("tree: MustParse(" + strconv.Quote(s) + "): " + err.Error())
	}
	return t
}

// frame is an open '(' whose children are being read.
type frame struct {
	kind   core.Kind
	offset int     // of the '('
	edges  int     // the node's finished children are parser.edges[edges:]
	prob   float64 // probability of the edge into the node, under a chance node
}

type parser struct {
	s     string
	pos   int
	b     Builder
	stack []frame
	edges []Edge
	nodes int // nodes read so far, opened or leaves
	limit int // the most nodes to read
}

// count counts a node starting at offset off and reports whether it is
// one too many.
func (p *parser) count(off int) error {
	if p.nodes++; p.nodes > p.limit {
		return p.errorf(off, "more than %d nodes, the parser's limit (tree.MaxParseNodes, or ParseLimit's bound)", p.limit)
	}
	return nil
}

func (p *parser) parse() (*Tree, error) {
	for {
		r, prob, err := p.tree()
		if err != nil {
			return nil, err
		}
		if r == 0 {
			continue // opened a node
		}
		if len(p.stack) == 0 {
			p.skip()
			if p.pos < len(p.s) {
				return nil, p.errorf(p.pos, "expected end of input, found %s", p.found())
			}
			t, err := p.b.Build(r)
			if err != nil {
				return nil, &ParseError{0, strings.TrimPrefix(err.Error(), "tree: ")}
			}
			return t, nil
		}
		e := Edge{Node: r, Prob: prob}
		p.skip()
		if p.peek() == '@' {
			p.pos++
			p.skip()
			w := p.word()
			m, err := strconv.ParseInt(w, 10, 64)
			if err != nil && !errors.Is(err, strconv.ErrRange) {
				return nil, p.errorf(p.pos, "expected a move (a non-negative integer), found %s", p.found())
			}
			if err != nil || m < 0 || m > MaxMove {
				return nil, p.errorf(p.pos, "move %s, want an integer in [0, %d]", w, MaxMove)
			}
			e = e.WithMove(int(m))
			p.pos += len(w)
			p.skip()
		}
		if p.peek() == '~' {
			p.pos++
			p.skip()
			w := p.word()
			h, ok := number(w)
			if !ok {
				return nil, p.errorf(p.pos, "expected a prior (a number), found %s", p.found())
			}
			if math.IsNaN(h) || math.IsInf(h, 0) {
				return nil, p.errorf(p.pos, "prior %s, want a finite number", w)
			}
			e = e.WithPrior(h)
			p.pos += len(w)
		}
		p.edges = append(p.edges, e)
	}
}

// tree reads what comes next inside the innermost open node, or the root
// tree if there is none. If that is a leaf or the ')' of the open node, it
// returns the finished node and the probability of the edge into it. If it is
// a '(', it opens a new node and returns the zero Ref.
func (p *parser) tree() (r Ref, prob float64, err error) {
	p.skip()
	expected := "a tree"
	if len(p.stack) > 0 {
		top := &p.stack[len(p.stack)-1]
		if p.peek() == ')' {
			edges := p.edges[top.edges:]
			if msg := checkNode(top.kind, 0, edges); msg != "" {
				return 0, 0, p.nodeErrorf(top.offset, len(p.stack)-1, top.kind, "%s", msg)
			}
			r = p.b.Node(top.kind, edges...)
			prob = top.prob
			p.edges = p.edges[:top.edges]
			p.stack = p.stack[:len(p.stack)-1]
			p.pos++
			return r, prob, nil
		}
		expected = "')' or a child"
		if top.kind == core.Chance {
			w := p.word()
			x, ok := number(w)
			off := p.pos
			p.pos += len(w)
			p.skip()
			if !ok || p.peek() != ':' {
				p.pos = off
				return 0, 0, p.errorf(off, "expected ')' or 'probability:' before a child of a chance node, found %s", p.found())
			}
			if !(x > 0 && x <= 1) {
				return 0, 0, p.errorf(off, "probability %s, want a number in (0,1]", w)
			}
			p.pos++
			p.skip()
			prob = x
			expected = "a tree"
		}
	}
	start := p.pos
	if err := p.count(start); err != nil {
		return 0, 0, err
	}
	if p.peek() == '(' {
		p.pos++
		p.skip()
		w := p.word()
		var k core.Kind
		switch w {
		case "max":
			k = core.Max
		case "min":
			k = core.Min
		case "chance":
			k = core.Chance
		default:
			return 0, 0, p.errorf(p.pos, "expected max, min or chance, found %s", p.found())
		}
		p.pos += len(w)
		p.stack = append(p.stack, frame{kind: k, offset: start, edges: len(p.edges), prob: prob})
		return 0, 0, nil
	}
	w := p.word()
	x, ok := number(w)
	if !ok {
		return 0, 0, p.errorf(p.pos, "expected %s, found %s", expected, p.found())
	}
	if len(p.stack) > 0 {
		if k := p.stack[len(p.stack)-1].kind; k != core.Chance {
			p.pos += len(w)
			p.skip()
			if p.peek() == ':' {
				return 0, 0, p.errorf(start,
					"probability %s under a %v node; only children of chance nodes have one", w, k)
			}
			p.pos = start
		}
	}
	if !(x >= 0 && x <= 1) {
		return 0, 0, p.nodeErrorf(start, len(p.stack), core.Terminal, "reward %s, want a number in [0,1]", w)
	}
	p.pos += len(w)
	return p.b.Leaf(x), prob, nil
}

func (p *parser) errorf(off int, format string, args ...any) error {
	return &ParseError{Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// nodeErrorf reports a problem with the node at offset off whose parent is
// the open node p.stack[depth-1] (or which is the root, if depth is 0).
func (p *parser) nodeErrorf(off, depth int, k core.Kind, format string, args ...any) error {
	path := make([]int32, depth)
	for d := range depth {
		end := len(p.edges)
		if d+1 < len(p.stack) {
			end = p.stack[d+1].edges
		}
		path[d] = int32(end - p.stack[d].edges)
	}
	return p.errorf(off, "node %s (%v): %s", FormatPath(path), k, fmt.Sprintf(format, args...))
}

func (p *parser) peek() byte {
	if p.pos < len(p.s) {
		return p.s[p.pos]
	}
	return 0
}

// skip moves past whitespace and comments.
func (p *parser) skip() {
	for p.pos < len(p.s) {
		switch p.s[p.pos] {
		case ' ', '\t', '\n', '\r', '\v', '\f':
			p.pos++
		case ';':
			if i := strings.IndexByte(p.s[p.pos:], '\n'); i >= 0 {
				p.pos += i + 1
			} else {
				p.pos = len(p.s)
			}
		default:
			return
		}
	}
}

// word returns the run of bytes at p.pos up to the next space, comment or
// punctuation; it may be empty.
func (p *parser) word() string {
	i := p.pos
	for i < len(p.s) && !isDelim(p.s[i]) {
		i++
	}
	return p.s[p.pos:i]
}

func isDelim(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\v', '\f', '(', ')', ':', '@', '~', ';':
		return true
	}
	return false
}

// found describes what is at p.pos, for "expected ..., found ..." messages.
func (p *parser) found() string {
	if p.pos >= len(p.s) {
		return "end of input"
	}
	w := p.word()
	if w == "" {
		w = p.s[p.pos : p.pos+1]
	}
	if len(w) > 24 {
		w = w[:24] + "..."
	}
	for _, c := range w {
		if c == '\'' || c == utf8.RuneError || !unicode.IsPrint(c) {
			return strconv.Quote(w)
		}
	}
	return "'" + w + "'"
}

// number parses a number token; ok is false if w is not one. A number too
// large for a float64 is returned as an infinity.
func number(w string) (x float64, ok bool) {
	x, err := strconv.ParseFloat(w, 64)
	return x, err == nil || errors.Is(err, strconv.ErrRange)
}

// String returns t in the canonical text format: single spaces, numbers in
// the shortest form that reads back exactly, '@move' only where it differs
// from the child's index and '~prior' only where there is one.
func (t *Tree) String() string {
	if t == nil {
		return "<nil>"
	}
	return string(t.AppendText(nil))
}

// AppendText appends the canonical text of t to b and returns the result.
func (t *Tree) AppendText(b []byte) []byte {
	if t.Len() == 0 {
		return b
	}
	if t.kind[0] == core.Terminal {
		return strconv.AppendFloat(b, t.reward[0], 'g', -1, 64)
	}
	type open struct{ node, next int32 }
	stack := []open{{0, 0}}
	b = append(b, '(')
	b = append(b, t.kind[0].String()...)
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		i := top.node
		c := t.first[i] + top.next
		if c == t.first[i+1] {
			b = append(b, ')')
			stack = stack[:len(stack)-1]
			if i != 0 {
				b = t.appendSuffix(b, i)
			}
			continue
		}
		top.next++
		b = append(b, ' ')
		if t.kind[i] == core.Chance {
			b = strconv.AppendFloat(b, t.prob[c], 'g', -1, 64)
			b = append(b, ':')
		}
		if t.kind[c] == core.Terminal {
			b = strconv.AppendFloat(b, t.reward[c], 'g', -1, 64)
			b = t.appendSuffix(b, c)
			continue
		}
		b = append(b, '(')
		b = append(b, t.kind[c].String()...)
		stack = append(stack, open{c, 0})
	}
	return b
}

// appendSuffix appends the move identity and prior of the edge into node c.
func (t *Tree) appendSuffix(b []byte, c int32) []byte {
	if m := t.move[c]; m != c-t.first[t.parent[c]] {
		b = append(b, '@')
		b = strconv.AppendInt(b, int64(m), 10)
	}
	if t.hasPrior[c] {
		b = append(b, '~')
		b = strconv.AppendFloat(b, t.prior[c], 'g', -1, 64)
	}
	return b
}

// MarshalText returns the canonical text of t, as String does.
func (t *Tree) MarshalText() ([]byte, error) { return t.AppendText(nil), nil }

// UnmarshalText parses text as Parse does and sets *t to the result.
func (t *Tree) UnmarshalText(text []byte) error {
	u, err := Parse(string(text))
	if err != nil {
		return err
	}
	*t = *u
	return nil
}
