package rules

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"time"

	"github.com/mctscheck/mctscheck/core"
)

// answerBytes bounds the length of a batch's answers: a number per select
// site and k numbers per probs site, each at most 32 bytes, and slack. A
// program that writes more without a newline answers garbage, found
// without reading megabytes first.
func answerBytes(batch []*execCall) int {
	n := 4096
	for _, c := range batch {
		if c.op == opProbs {
			n += 32 * c.k
		} else {
			n += 32
		}
	}
	return n
}

// readJSON reads a JSON line of answers: an array with one element per
// site, an integer for a select site, an array of numbers for a probs site.
func (x *ExecRule) readJSON(p *execProc, batch []*execCall, deadline time.Time) *execError {
	line, err := p.readLine(deadline, answerBytes(batch))
	if err != nil {
		if errors.Is(err, errLineTooLong) {
			return faultf("garbage", "exec: %s answered garbage: a line longer than %d bytes, the most a batch of %d sites needs", x.name(), answerBytes(batch), len(batch))
		}
		return x.ioFault(p, "answering", err)
	}
	var answers []json.RawMessage
	if err := json.Unmarshal(line, &answers); err != nil {
		return faultf("garbage", "exec: %s answered garbage: %q is not a JSON array (%v)", x.name(), clip(line), err)
	}
	if len(answers) != len(batch) {
		return faultf("garbage", "exec: %s answered garbage: %d answers to a batch of %d sites: %q", x.name(), len(answers), len(batch), clip(line))
	}
	for i, c := range batch {
		a := answers[i]
		if c.op == opProbs {
			if err := json.Unmarshal(a, &c.probs); err != nil || len(c.probs) != c.k {
				c.fault = faultf("range", "exec: %s answered %s to a probs site with %d children, want %d probabilities", x.name(), clip(a), c.k, c.k)
			}
			continue
		}
		v, err := strconv.ParseInt(string(a), 10, 64)
		if err != nil {
			c.fault = faultf("garbage", "exec: %s answered garbage: %s is not a child index", x.name(), clip(a))
			continue
		}
		x.setChoice(c, v)
	}
	return nil
}

// readBinary reads binary answers: the count of sites, then an int32 per
// select site and float64 probabilities per probs site.
func (x *ExecRule) readBinary(p *execProc, batch []*execCall, deadline time.Time) *execError {
	le := binary.LittleEndian
	size := 4
	for _, c := range batch {
		if c.op == opProbs {
			size += 8 * c.k
		} else {
			size += 4
		}
	}
	if cap(x.in) < size {
		x.in = make([]byte, size)
	}
	in := x.in[:size]
	if err := p.readFull(in[:4], deadline); err != nil {
		return x.ioFault(p, "answering", err)
	}
	if n := le.Uint32(in); n != uint32(len(batch)) {
		return faultf("garbage", "exec: %s answered garbage: a count of %d answers (bytes % x) to a batch of %d sites", x.name(), n, in[:4], len(batch))
	}
	if err := p.readFull(in[4:], deadline); err != nil {
		return x.ioFault(p, "answering", err)
	}
	in = in[4:]
	for _, c := range batch {
		if c.op == opProbs {
			c.probs = c.probs[:0]
			for range c.k {
				c.probs = append(c.probs, math.Float64frombits(le.Uint64(in)))
				in = in[8:]
			}
			continue
		}
		x.setChoice(c, int64(int32(le.Uint32(in))))
		in = in[4:]
	}
	return nil
}

// setChoice records an answer to a select site, or its fault.
func (x *ExecRule) setChoice(c *execCall, v int64) {
	if v < 0 || v >= int64(c.k) {
		c.fault = faultf("range", "exec: %s chose child %d of a site with %d children", x.name(), v, c.k)
		return
	}
	c.choice = int(v)
}

// clip shortens garbage for a message.
func clip(b []byte) string {
	const most = 80
	if len(b) > most {
		return string(b[:most]) + "…"
	}
	return string(b)
}

// appendSiteJSON appends the JSON form of a site (docs/protocol.md).
func appendSiteJSON(b []byte, s *core.Site, c *execCall, caps Capabilities) []byte {
	k := s.Len()
	b = append(b, `{"op":"`...)
	if c.op == opProbs {
		b = append(b, "probs"...)
	} else {
		b = append(b, "select"...)
	}
	b = append(b, `","kind":"`...)
	if s.Kind() == core.Min {
		b = append(b, "min"...)
	} else {
		b = append(b, "max"...)
	}
	b = append(b, `","depth":`...)
	b = strconv.AppendInt(b, int64(s.Depth()), 10)
	b = append(b, `,"t":`...)
	b = strconv.AppendInt(b, s.T(), 10)
	if caps.Seed {
		b = append(b, `,"seed":`...)
		if caps.SeedString {
			b = append(b, '"')
			b = strconv.AppendUint(b, c.seed, 10)
			b = append(b, '"')
		} else {
			b = strconv.AppendUint(b, c.seed, 10)
		}
	}
	pn := s.ParentN()
	pm, _ := s.ParentMean()
	b = append(b, `,"parent_n":`...)
	b = appendNum(b, pn)
	b = append(b, `,"parent_w":`...)
	b = appendNum(b, pm*pn)
	b = append(b, `,"parent_v":`...)
	b = strconv.AppendInt(b, s.ParentVisits(), 10)
	b = append(b, `,"ln":`...)
	b = appendNum(b, core.LogParent(s))
	b = append(b, `,"n":[`...)
	for i := range k {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendNum(b, s.N(i))
	}
	b = append(b, `],"w":[`...)
	for i := range k {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendNum(b, s.W(i))
	}
	b = append(b, `],"v":[`...)
	for i := range k {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, s.Visits(i), 10)
	}
	b = append(b, ']')
	if caps.Priors {
		b = append(b, `,"prior":[`...)
		for i := range k {
			if i > 0 {
				b = append(b, ',')
			}
			if h, ok := s.Prior(i); ok {
				b = appendNum(b, h)
			} else {
				b = append(b, "null"...)
			}
		}
		b = append(b, ']')
	}
	if caps.AMAF {
		b = append(b, `,"amaf_n":[`...)
		for i := range k {
			if i > 0 {
				b = append(b, ',')
			}
			n, _ := s.AMAF(i)
			b = appendNum(b, n)
		}
		b = append(b, `],"amaf_w":[`...)
		for i := range k {
			if i > 0 {
				b = append(b, ',')
			}
			_, w := s.AMAF(i)
			b = appendNum(b, w)
		}
		b = append(b, ']')
	}
	if caps.Squares {
		b = append(b, `,"parent_q":`...)
		b = appendNum(b, orNaN(s.ParentSquares()))
		b = append(b, `,"parent_var":`...)
		b = appendNum(b, orNaN(s.ParentVariance()))
		b = append(b, `,"q":[`...)
		for i := range k {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendNum(b, orNaN(s.Squares(i)))
		}
		b = append(b, `],"var":[`...)
		for i := range k {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendNum(b, orNaN(s.Variance(i)))
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// orNaN is v, or NaN (JSON null) when ok is false.
func orNaN(v float64, ok bool) float64 {
	if !ok {
		return math.NaN()
	}
	return v
}

// appendNum appends a number as JSON: the shortest decimal that parses
// back to the same float64, null for a non-finite one.
func appendNum(b []byte, v float64) []byte {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return append(b, "null"...) // JSON has no such numbers; counts never are
	}
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
		return strconv.AppendInt(b, int64(v), 10)
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

// appendSiteBinary appends the binary form of a site (docs/protocol.md):
// a 64-byte head, then the children's arrays.
func appendSiteBinary(b []byte, s *core.Site, c *execCall, caps Capabilities) []byte {
	le := binary.LittleEndian
	k := s.Len()
	b = le.AppendUint32(b, uint32(k))
	b = le.AppendUint32(b, uint32(s.Depth()))
	kind := byte(0)
	if s.Kind() == core.Min {
		kind = 1
	}
	b = append(b, byte(c.op), kind, 0, 0, 0, 0, 0, 0)
	b = le.AppendUint64(b, uint64(s.T()))
	b = le.AppendUint64(b, c.seed)
	pn := s.ParentN()
	pm, _ := s.ParentMean()
	b = le.AppendUint64(b, math.Float64bits(pn))
	b = le.AppendUint64(b, math.Float64bits(pm*pn))
	b = le.AppendUint64(b, math.Float64bits(float64(s.ParentVisits())))
	b = le.AppendUint64(b, math.Float64bits(core.LogParent(s)))
	for i := range k {
		b = le.AppendUint64(b, math.Float64bits(s.N(i)))
	}
	for i := range k {
		b = le.AppendUint64(b, math.Float64bits(s.W(i)))
	}
	for i := range k {
		b = le.AppendUint64(b, math.Float64bits(float64(s.Visits(i))))
	}
	if caps.Priors {
		for i := range k {
			h, ok := s.Prior(i)
			if !ok {
				h = math.NaN()
			}
			b = le.AppendUint64(b, math.Float64bits(h))
		}
	}
	if caps.AMAF {
		for i := range k {
			n, _ := s.AMAF(i)
			b = le.AppendUint64(b, math.Float64bits(n))
		}
		for i := range k {
			_, w := s.AMAF(i)
			b = le.AppendUint64(b, math.Float64bits(w))
		}
	}
	if caps.Squares {
		b = le.AppendUint64(b, math.Float64bits(orNaN(s.ParentSquares())))
		b = le.AppendUint64(b, math.Float64bits(orNaN(s.ParentVariance())))
		for i := range k {
			b = le.AppendUint64(b, math.Float64bits(orNaN(s.Squares(i))))
		}
		for i := range k {
			b = le.AppendUint64(b, math.Float64bits(orNaN(s.Variance(i))))
		}
	}
	return b
}
