package cli

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/mctscheck/mctscheck/engine"
)

// engineProgress reports on stderr how an engine check goes: a line when
// solving begins, a line per position finished, and a status line with the
// time left whenever plainEvery (or ProgressEnv's period) passes without one, so that a long trial
// or a long solve is not silent.
type engineProgress struct {
	mu      sync.Mutex
	w       io.Writer
	prefix  string
	every   time.Duration
	st      engine.Status
	got     time.Time // when st came
	printed time.Time // when the last line was printed
	solving bool      // the solving line was printed
	ticker  *ticker
}

func newEngineProgress(w io.Writer, prefix string) *engineProgress {
	every, _ := progressEvery() // Tool.Run has refused a bad value
	p := &engineProgress{w: w, prefix: prefix, every: every, printed: time.Now()}
	p.ticker = startTicker(time.Second, &p.mu, func() {
		if !p.got.IsZero() && time.Since(p.printed) >= p.every {
			p.line(p.status())
		}
	})
	return p
}

// update is the check's Config.Progress.
func (p *engineProgress) update(st engine.Status) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.st, p.got = st, time.Now()
	switch {
	case st.Solving != "" && !p.solving:
		p.solving = true
		boards := "distinct boards"
		if st.Positions == 1 {
			boards = "board"
		}
		p.line(fmt.Sprintf("solving the positions exactly (%d %s)", st.Positions, boards))
	case st.Finished != nil:
		pr := st.Finished
		p.line(fmt.Sprintf("[%d/%d] %s: %s; %s", st.Position, st.Positions, pr.Position.Name, pr.Shares(st.Budgets), p.clock()))
	}
}

// close stops the status lines.
func (p *engineProgress) close() { p.ticker.stop() }

// status is the line that says where the check is.
func (p *engineProgress) status() string {
	st := p.st
	if st.Solving != "" {
		s := fmt.Sprintf("solving board %d of %d (%s)", st.Position, st.Positions, st.Solving)
		if st.Nodes > 0 {
			s += fmt.Sprintf(": %d positions searched so far", st.Nodes)
		}
		return s
	}
	return fmt.Sprintf("position %d of %d; %s", st.Position, st.Positions, p.clock())
}

// clock says how many trials are done, the time spent and the time left.
func (p *engineProgress) clock() string {
	st := p.st
	since := time.Since(p.got)
	s := fmt.Sprintf("%d/%d trials, %s", st.Done, st.Total, roughDuration(st.Elapsed+since))
	if st.Left >= 0 {
		s += ", about " + roughDuration(max(st.Left-since, 0)) + " left"
	}
	return s
}

func (p *engineProgress) line(s string) {
	fmt.Fprintln(p.w, p.prefix+s)
	p.printed = time.Now()
}

// roughDuration writes d to the second under a minute, to the minute
// under ten hours, else to the hour: "42s", "3m05s", "2h10m", "31h".
func roughDuration(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Round(time.Second).Seconds()))
	case d < time.Hour:
		d = d.Round(time.Second)
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	case d < 10*time.Hour:
		d = d.Round(time.Minute)
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	}
	return fmt.Sprintf("%dh", int(d.Round(time.Hour).Hours()))
}
