package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/mctscheck/mctscheck/props"
)

// progress reports on stderr how the checks of several rules go: a live
// line rewritten in place on a terminal, plain lines otherwise (one when a
// rule is done, and a status line every plainEvery while rules run).
type progress struct {
	mu       sync.Mutex
	w        io.Writer
	prefix   string // the command's name, as in "mctscheck: "
	live     bool
	start    time.Time
	jobs     []jobState
	finished int
	width    int // of the live line last drawn
	ticker   *ticker
}

type jobState struct {
	name        string
	done, total int // trees
	running     bool
	started     time.Time
	// phase is what the check does now, beyond the trees: the seeds of
	// its one tree, or the shrinking of a witness (props.Status).
	phase         string
	pDone, pTotal int
	phaseAt       time.Time // when the phase began
}

const (
	liveEvery  = 200 * time.Millisecond
	plainEvery = 10 * time.Second
	liveWidth  = 100
)

// isTerminal reports whether w is a terminal that understands "\r" and
// ANSI erase.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("TERM") == "dumb" {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// newProgress starts reporting on the jobs named; close stops it.
func newProgress(w io.Writer, command string, names []string) *progress {
	p := &progress{w: w, prefix: command + ": ", live: isTerminal(w), start: time.Now()}
	for _, n := range names {
		p.jobs = append(p.jobs, jobState{name: n})
	}
	every := plainEvery
	if p.live {
		every = liveEvery
	}
	p.ticker = startTicker(every, &p.mu, p.status)
	return p
}

// ticker calls a function every period, under a lock, until stopped: the
// status lines of long commands.
type ticker struct{ quit, stopped chan struct{} }

// startTicker calls tick with mu held every period until stop.
func startTicker(every time.Duration, mu *sync.Mutex, tick func()) *ticker {
	t := &ticker{quit: make(chan struct{}), stopped: make(chan struct{})}
	go func() {
		defer close(t.stopped)
		c := time.NewTicker(every)
		defer c.Stop()
		for {
			select {
			case <-t.quit:
				return
			case <-c.C:
				mu.Lock()
				tick()
				mu.Unlock()
			}
		}
	}()
	return t
}

// stop ends the calls; none is running when it returns.
func (t *ticker) stop() {
	close(t.quit)
	<-t.stopped
}

// begin marks job i as running.
func (p *progress) begin(i int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.jobs[i].running, p.jobs[i].started = true, time.Now()
}

// report records where job i's check is (props.Options.Status).
func (p *progress) report(i int, s props.Status) {
	p.mu.Lock()
	defer p.mu.Unlock()
	j := &p.jobs[i]
	if s.Phase == props.PhaseTrees {
		j.done, j.total = s.Done, s.Total
		if j.phase == props.PhaseSeeds {
			j.phase = ""
		}
		return
	}
	if j.phase != s.Phase {
		j.phase, j.phaseAt = s.Phase, time.Now()
	}
	j.pDone, j.pTotal = s.Done, s.Total
}

// describe says where a running job is, with an estimate of the time left
// where its progress allows one: "3/131 trees, about 2m10s left",
// "seed 5/16", "shrinking the witness (step 3, 41 candidates)".
func (j *jobState) describe() string {
	switch j.phase {
	case props.PhaseShrinking:
		return fmt.Sprintf("%s: shrinking the witness (step %d, %d candidate trees judged)", j.name, j.pDone, j.pTotal)
	case props.PhaseSeeds:
		return fmt.Sprintf("%s: seed %d/%d%s", j.name, j.pDone, j.pTotal, eta(time.Since(j.phaseAt), j.pDone, j.pTotal))
	}
	return fmt.Sprintf("%s %d/%d trees%s", j.name, j.done, j.total, eta(time.Since(j.started), j.done, j.total))
}

// eta is ", about D left" for done of total in elapsed, or "" before the
// first is done.
func eta(elapsed time.Duration, done, total int) string {
	if done <= 0 || total <= done {
		return ""
	}
	left := time.Duration(float64(elapsed) * float64(total-done) / float64(done))
	return fmt.Sprintf(", about %s left", left.Round(time.Second))
}

// finish records that job i is done with the result given.
func (p *progress) finish(i int, result string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	j := &p.jobs[i]
	j.running = false
	p.finished++
	p.clear()
	fmt.Fprintf(p.w, "%s[%*d/%d] %-19s %s (%.1fs)\n", p.prefix, len(fmt.Sprint(len(p.jobs))), p.finished, len(p.jobs),
		j.name, result, time.Since(j.started).Seconds())
	if p.live {
		p.status()
	}
}

// close stops the reports and clears the live line.
func (p *progress) close() {
	p.ticker.stop()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
}

// status draws the live line, or prints a plain status line.
func (p *progress) status() {
	var running []string
	for _, j := range p.jobs {
		if j.running {
			running = append(running, j.describe())
		}
	}
	if len(running) == 0 {
		return
	}
	line := fmt.Sprintf("%s%d/%d rules done, %.0fs; checking %s", p.prefix, p.finished, len(p.jobs),
		time.Since(p.start).Seconds(), strings.Join(running, ", "))
	if !p.live {
		fmt.Fprintln(p.w, line)
		return
	}
	if r := []rune(line); len(r) > liveWidth {
		line = string(r[:liveWidth-1]) + "…"
	}
	fmt.Fprint(p.w, "\r"+line+"\x1b[K")
	p.width = len(line)
}

// clear erases the live line.
func (p *progress) clear() {
	if p.live && p.width > 0 {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.width = 0
	}
}
