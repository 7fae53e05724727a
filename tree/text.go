package tree

import (
	"errors"
	"fmt"
	"math"
	"slices"
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

// MaxParseNodes is the most nodes Parse reads: 2^22 = 4,194,304, four
// times the million-node trees on which the checker's memory is measured
// (a few hundred bytes a node; docs/speed.md). A text with more nodes is an
// error at the offset of the first node too many, so that the memory Parse
// needs is bounded by the limit, whatever the text's length: at most 512
// bytes a node allocated in all, most of it garbage along the way
// (TestParseLimit keeps the bound), of which the tree keeps 25 bytes a
// node, 38 with move identities and priors.
const MaxParseNodes = 1 << 22

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
	offset int   // of the '('
	node   int32 // its number in the order of the text
	kind   core.Kind
}

// parser reads the text into the nodes in the order of the text
// (preorder), then lays them out breadth first (layout). It holds a node's
// kind, the size of its subtree and its reward, and the attributes of the
// edge into it in columns made at their first use.
type parser struct {
	s     string
	pos   int
	stack []frame
	limit int // the most nodes to read

	kind     []core.Kind
	size     []int32   // nodes in the subtree: 1 for a leaf, set at ')' for the others
	reward   []float64 // of a leaf
	prob     []float64 // nil until a child of a chance node
	move     []int32   // nil until a '@'; -1 where there is none
	prior    []float64 // nil until a '~'
	hasPrior []bool
}

// count counts a node starting at offset off and reports whether it is
// one too many.
func (p *parser) count(off int) error {
	if len(p.kind) >= p.limit {
		bound := "ParseLimit's bound"
		if p.limit == MaxParseNodes {
			bound = "tree.MaxParseNodes = 2^22"
		}
		return p.errorf(off, "more than %d nodes, the parser's limit (%s)", p.limit, bound)
	}
	return nil
}

// add appends a node of kind k with reward r, whose edge has probability
// prob (0 but under a chance node), and returns its number.
func (p *parser) add(k core.Kind, r, prob float64) int32 {
	i := int32(len(p.kind))
	p.kind = append(p.kind, k)
	p.size = append(p.size, 1)
	p.reward = append(p.reward, r)
	if prob != 0 && p.prob == nil {
		p.prob = make([]float64, i, cap(p.kind))
	}
	if p.prob != nil {
		p.prob = append(p.prob, prob)
	}
	if p.move != nil {
		p.move = append(p.move, -1)
	}
	if p.prior != nil {
		p.prior, p.hasPrior = append(p.prior, 0), append(p.hasPrior, false)
	}
	return i
}

func (p *parser) parse() (*Tree, error) {
	for {
		i, done, err := p.tree()
		if err != nil {
			return nil, err
		}
		if !done {
			continue // opened a node
		}
		if len(p.stack) == 0 {
			p.skip()
			if p.pos < len(p.s) {
				return nil, p.errorf(p.pos, "expected end of input, found %s", p.found())
			}
			return p.layout(), nil
		}
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
			if p.move == nil {
				p.move = slices.Repeat([]int32{-1}, len(p.kind))
			}
			p.move[i] = int32(m)
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
			if p.prior == nil {
				p.prior, p.hasPrior = make([]float64, len(p.kind)), make([]bool, len(p.kind))
			}
			p.prior[i], p.hasPrior[i] = h, true
			p.pos += len(w)
		}
	}
}

// children returns the number of the finished children of node i, which
// are the nodes from i+1 to end−1 (end: the next open node, or the end),
// and the sum of their probabilities in order, under a chance node.
func (p *parser) children(i, end int32) (n int, sum float64) {
	for c := i + 1; c < end; c += p.size[c] {
		n++
		if p.prob != nil {
			sum += p.prob[c]
		}
	}
	return n, sum
}

// duplicateMove is duplicateMove for the finished children of node i,
// which end before end.
func (p *parser) duplicateMove(i, end int32) string {
	if p.move == nil {
		return "" // no '@' yet: the moves are the indices
	}
	child := map[int32]int{} // move → the first child with it
	j := 0
	for c := i + 1; c < end; c += p.size[c] {
		m := int32(j)
		if p.move[c] >= 0 {
			m = p.move[c]
		}
		if first, ok := child[m]; ok {
			return sameMove(first, j, int(m))
		}
		child[m] = j
		j++
	}
	return ""
}

// tree reads what comes next inside the innermost open node, or the root
// tree if there is none. If that is a leaf or the ')' of the open node, it
// returns the finished node with done true. If it is a '(', it opens a new
// node.
func (p *parser) tree() (i int32, done bool, err error) {
	p.skip()
	expected := "a tree"
	prob := 0.0
	if len(p.stack) > 0 {
		top := &p.stack[len(p.stack)-1]
		if p.peek() == ')' {
			n, sum := p.children(top.node, int32(len(p.kind)))
			msg := checkChildren(top.kind, n, sum)
			if msg == "" && top.kind != core.Chance {
				msg = p.duplicateMove(top.node, int32(len(p.kind)))
			}
			if msg != "" {
				return 0, false, p.nodeErrorf(top.offset, len(p.stack)-1, top.kind, "%s", msg)
			}
			i = top.node
			p.size[i] = int32(len(p.kind)) - i
			p.stack = p.stack[:len(p.stack)-1]
			p.pos++
			return i, true, nil
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
				return 0, false, p.errorf(off, "expected ')' or 'probability:' before a child of a chance node, found %s", p.found())
			}
			if !(x > 0 && x <= 1) {
				return 0, false, p.errorf(off, "probability %s, want a number in (0,1]", w)
			}
			p.pos++
			p.skip()
			prob = x
			expected = "a tree"
		}
	}
	start := p.pos
	if err := p.count(start); err != nil {
		return 0, false, err
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
			return 0, false, p.errorf(p.pos, "expected max, min or chance, found %s", p.found())
		}
		p.pos += len(w)
		p.stack = append(p.stack, frame{kind: k, offset: start, node: p.add(k, 0, prob)})
		return 0, false, nil
	}
	w := p.word()
	x, ok := number(w)
	if !ok {
		return 0, false, p.errorf(p.pos, "expected %s, found %s", expected, p.found())
	}
	if len(p.stack) > 0 {
		if k := p.stack[len(p.stack)-1].kind; k != core.Chance {
			p.pos += len(w)
			p.skip()
			if p.peek() == ':' {
				return 0, false, p.errorf(start,
					"probability %s under a %v node; only children of chance nodes have one", w, k)
			}
			p.pos = start
		}
	}
	if !(x >= 0 && x <= 1) {
		return 0, false, p.nodeErrorf(start, len(p.stack), core.Terminal, "reward %s, want a number in [0,1]", w)
	}
	p.pos += len(w)
	return p.add(core.Terminal, x, prob), true, nil
}

// layout numbers the nodes read breadth first, as Builder.Build does, and
// returns the tree. A node's children in the text are the nodes after it,
// each after the subtree of the one before.
func (p *parser) layout() *Tree {
	n := len(p.kind)
	t := &Tree{kind: make([]core.Kind, n), first: make([]int32, n+1), parent: make([]int32, n),
		reward: make([]float64, n), prob: make([]float64, n)}
	if p.move != nil {
		t.move = make([]int32, n)
	}
	if p.prior != nil {
		t.prior, t.hasPrior = make([]float64, n), make([]bool, n)
	}
	// first[i] holds node i's number in the text until step i sets it.
	first := t.first
	first[0], t.parent[0] = 0, -1
	next, maxMove := int32(1), int32(0)
	for i := range int32(n) {
		u := first[i]
		k := p.kind[u]
		t.kind[i], t.reward[i] = k, p.reward[u]
		if p.prob != nil {
			t.prob[i] = p.prob[u]
		}
		if i > 0 {
			m := i - first[t.parent[i]]
			if p.move != nil && p.move[u] >= 0 {
				m = p.move[u]
			}
			maxMove = max(maxMove, m)
			if t.move != nil {
				t.move[i] = m
			}
		}
		if p.prior != nil {
			t.prior[i], t.hasPrior[i] = p.prior[u], p.hasPrior[u]
		}
		first[i] = next
		if k != core.Terminal {
			for c, end := u+1, u+p.size[u]; c < end; c += p.size[c] {
				first[next], t.parent[next] = c, i
				next++
			}
		}
	}
	first[n] = next
	t.moveLimit = int(maxMove) + 1
	for i := int32(n - 1); i > 0; i = t.parent[i] { // the last node is a deepest one
		t.depth++
	}
	return t
}

func (p *parser) errorf(off int, format string, args ...any) error {
	return &ParseError{Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// nodeErrorf reports a problem with the node at offset off whose parent is
// the open node p.stack[depth-1] (or which is the root, if depth is 0).
func (p *parser) nodeErrorf(off, depth int, k core.Kind, format string, args ...any) error {
	path := make([]int32, depth)
	for d := range depth {
		end := int32(len(p.kind))
		if d+1 < len(p.stack) {
			end = p.stack[d+1].node
		}
		n, _ := p.children(p.stack[d].node, end)
		path[d] = int32(n)
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
	// The text of a tree without moves and priors takes 2 to 4 bytes a
	// node: presized, it is written without growing.
	return string(t.AppendText(make([]byte, 0, 4*t.Len())))
}

// AppendText appends the canonical text of t to b and returns the result.
func (t *Tree) AppendText(b []byte) []byte {
	if t.Len() == 0 {
		return b
	}
	if t.kind[0] == core.Terminal {
		return appendReward(b, t.reward[0])
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
			b = appendReward(b, t.reward[c])
			b = t.appendSuffix(b, c)
			continue
		}
		b = append(b, '(')
		b = append(b, t.kind[c].String()...)
		stack = append(stack, open{c, 0})
	}
	return b
}

// appendReward appends reward r as strconv.AppendFloat(b, r, 'g', -1, 64)
// does, the rewards 0 and 1 of most leaves without its general path.
func appendReward(b []byte, r float64) []byte {
	switch {
	case r == 1:
		return append(b, '1')
	case r == 0 && !math.Signbit(r):
		return append(b, '0')
	}
	return strconv.AppendFloat(b, r, 'g', -1, 64)
}

// appendSuffix appends the move identity and prior of the edge into node c.
func (t *Tree) appendSuffix(b []byte, c int32) []byte {
	if m := t.Move(c); m != int(c-t.first[t.parent[c]]) {
		b = append(b, '@')
		b = strconv.AppendInt(b, int64(m), 10)
	}
	if h, ok := t.Prior(c); ok {
		b = append(b, '~')
		b = strconv.AppendFloat(b, h, 'g', -1, 64)
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
