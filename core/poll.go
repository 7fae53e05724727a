package core

import "time"

// poller says when a loop of simulations looks at its context: after
// every simulation at first, then after twice as many each time while
// they are quick (pollQuick between looks), up to pollMost, and after as
// many as take about pollQuick when they slow down. A search whose simulations each take
// long (over a node with a million children) then notices the end of its
// context within a few pollQuick, and a fast one looks rarely: the look
// costs a clock read and a channel poll, each time it comes.
type poller struct {
	every, left int
	last        time.Time
	now         func() time.Time // time.Now if nil
}

const (
	pollQuick = 10 * time.Millisecond
	pollMost  = 256
)

// due counts one simulation and reports whether the loop looks now.
func (p *poller) due() bool {
	p.left--
	return p.left <= 0
}

// looked sets when the loop looks next, from how long the simulations
// since the last look took.
func (p *poller) looked() {
	clock := p.now
	if clock == nil {
		clock = time.Now
	}
	now := clock()
	switch since := now.Sub(p.last); {
	case p.last.IsZero():
		p.every = 1
	case since < pollQuick:
		p.every = min(2*p.every, pollMost)
	default: // as many as take about pollQuick at the pace just seen
		p.every = max(int(int64(p.every)*int64(pollQuick)/int64(since)), 1)
	}
	p.left, p.last = p.every, now
}
