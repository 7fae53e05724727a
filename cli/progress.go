package cli

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mctscheck/mctscheck/props"
)

// progress reports on stderr how the checks of several rules go: a live
// line rewritten in place on a terminal, plain lines otherwise (one when a
// rule is done, and a status line every plainEvery, or ProgressEnv's
// period, while rules run).
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
	noun     string // what the jobs are: "rules", "positions"
}

type jobState struct {
	name    string
	running bool
	started time.Time
	// work is where the check is in its trees (props.Status): the trees
	// taken up, and the searches and simulations done of those planned.
	work props.Status
	// phase is what the check does now beyond its trees: the shrinking of
	// a witness (props.PhaseShrinking), with its steps.
	phase         string
	pDone, pTotal int
	phaseAt       time.Time // when the phase began
	// sites, for a rule computed by a program, counts the sites it has
	// answered, and sites0 those it had answered when the job began.
	sites  func() int64
	sites0 int64
	// pace keeps the simulations run against the time, for the estimate.
	pace pace
}

// pace is a job's simulations run against the time since it began, a
// sample a second at most, thinned to keep at most maxSamples, and the
// last time none had run (programs starting).
type pace struct {
	at   []time.Duration
	sims []int64
	idle time.Duration
}

const maxSamples = 1024

// add records that sims simulations had run at t.
func (p *pace) add(t time.Duration, sims int64) {
	if sims == 0 {
		p.idle = t
	}
	if n := len(p.at); n > 0 && t-p.at[n-1] < time.Second {
		return
	}
	if len(p.at) == maxSamples { // every other sample goes: the spacing follows the job's age
		for i := range maxSamples / 2 {
			p.at[i], p.sims[i] = p.at[2*i], p.sims[2*i]
		}
		p.at, p.sims = p.at[:maxSamples/2], p.sims[:maxSamples/2]
	}
	p.at, p.sims = append(p.at, t), append(p.sims, sims)
}

// before returns the last sample at or before t, and false if none is.
func (p *pace) before(t time.Duration) (time.Duration, int64, bool) {
	i, _ := slices.BinarySearch(p.at, t+1)
	if i == 0 {
		return 0, 0, false
	}
	return p.at[i-1], p.sims[i-1], true
}

const (
	liveEvery  = 200 * time.Millisecond
	plainEvery = 10 * time.Second
	liveWidth  = 100
)

// ProgressEnv is the environment variable that sets the period of the
// plain progress lines (those written where stderr is no terminal), a
// duration such as 1m or 500ms; unset, they come every 10s.
const ProgressEnv = "MCTSCHECK_PROGRESS"

// progressEvery returns the period of the plain progress lines:
// ProgressEnv's, or plainEvery. Tool.Run refuses a bad value before any
// command runs.
func progressEvery() (time.Duration, error) {
	v := os.Getenv(ProgressEnv)
	if v == "" {
		return plainEvery, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 100*time.Millisecond {
		return 0, fmt.Errorf("%s=%q: want a duration of at least 100ms, such as 30s or 1m", ProgressEnv, v)
	}
	return d, nil
}

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
	p := &progress{w: w, prefix: command + ": ", live: isTerminal(w), start: time.Now(), noun: "rules"}
	for _, n := range names {
		p.jobs = append(p.jobs, jobState{name: n})
	}
	every, _ := progressEvery() // Tool.Run has refused a bad value
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

// begin marks job i as running. sites, if not nil, counts the sites that
// the program behind the job's rule has answered so far.
func (p *progress) begin(i int, sites func() int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	j := &p.jobs[i]
	j.running, j.started, j.sites = true, time.Now(), sites
	if sites != nil {
		j.sites0 = sites()
	}
}

// siteCounter is a rule computed by a program that counts the sites it
// answered (rules.ExecRule).
type siteCounter interface{ Stats() (batches, sites int64) }

// sitesOf returns the count of sites that rule's program has answered,
// or nil for a rule that does not count them.
func sitesOf(rule any) func() int64 {
	sc, ok := rule.(siteCounter)
	if !ok {
		return nil
	}
	return func() int64 {
		_, n := sc.Stats()
		return n
	}
}

// report records where job i's check is (props.Options.Status).
func (p *progress) report(i int, s props.Status) {
	p.mu.Lock()
	defer p.mu.Unlock()
	j := &p.jobs[i]
	if s.Phase == props.PhaseTrees {
		j.work = s
		j.pace.add(time.Since(j.started), s.Sims)
		return
	}
	if j.phase != s.Phase {
		j.phase, j.phaseAt = s.Phase, time.Now()
	}
	j.pDone, j.pTotal = s.Done, s.Total
}

// describe says where a running job is: the trees taken up in order, the
// work that moves (searches done, the share of the simulations run and
// their rate, and the sites a program answered, with their rate), and an
// estimate of the time left (see estimate); or the shrinking of a
// witness.
func (j *jobState) describe() string {
	if j.phase == props.PhaseShrinking {
		return fmt.Sprintf("%s: shrinking the witness (step %d, %d candidate trees judged%s)", j.name, j.pDone, j.pTotal,
			perSecond(int64(j.pTotal), time.Since(j.phaseAt)))
	}
	w, elapsed := &j.work, time.Since(j.started)
	parts := []string{fmt.Sprintf("%d/%d trees", w.Done, w.Total)}
	if w.SearchesPlanned > 0 {
		parts = append(parts, fmt.Sprintf("%d/%d searches", w.Searches, w.SearchesPlanned),
			fmt.Sprintf("%s of the simulations%s", share(w.Sims, w.SimsPlanned), perSecond(w.Sims, elapsed)))
	}
	if j.sites != nil {
		n := j.sites() - j.sites0
		parts = append(parts, fmt.Sprintf("%s sites answered%s", rate(float64(n)), perSecond(n, elapsed)))
	}
	head := j.name + ": "
	if left, ok := j.pace.estimate(elapsed, w.Sims, w.SimsPlanned); ok {
		left = max(left, w.Slowest.Round(time.Second)) // the check lasts as long as its slowest search at least
		head += "about " + left.String() + " left; "   // first: a live line may be cut short
	}
	return head + strings.Join(parts, ", ")
}

// estimate is the time left to run planned simulations, done of them
// after elapsed: what is left at the rate of the last half of elapsed, or
// since the first simulation if that came later (programs that take
// seconds to start), rounded to the second; describe takes the larger of
// it and the slowest running search's time left (props.Status.Slowest). It is made once a hundredth
// of the work is done, not before. Every search runs to the last budget,
// so the simulations planned are known from the start, and they are
// counted as they run, whatever order the searches finish in; the rate of
// the last half follows a machine whose load changes. docs/guide.md has
// the error measured. The limit probe and the shrinking of a witness are
// not in the plan: a check that finds a witness ends sooner, and then
// shrinks.
func (p *pace) estimate(elapsed time.Duration, done, planned int64) (time.Duration, bool) {
	if planned <= 0 || done*100 < planned || done >= planned {
		return 0, false
	}
	since, ran := elapsed-p.idle, done
	if t, sims, ok := p.before(elapsed / 2); ok && t > p.idle && sims < done {
		since, ran = elapsed-t, done-sims
	}
	left := time.Duration(float64(since) * float64(planned-done) / float64(ran))
	return left.Round(time.Second), true
}

// share writes done of planned as a percentage: "41%".
func share(done, planned int64) string {
	if planned <= 0 {
		return "0%"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(done)/float64(planned))
}

// perSecond writes the rate of n in elapsed, " (4.2M/s)", or "" before a
// second has passed or anything is done.
func perSecond(n int64, elapsed time.Duration) string {
	if n <= 0 || elapsed < time.Second {
		return ""
	}
	return " (" + rate(float64(n)/elapsed.Seconds()) + "/s)"
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
	done := "" // a check of one rule or search has no count of jobs
	if len(p.jobs) > 1 {
		done = fmt.Sprintf("%d/%d %s done, ", p.finished, len(p.jobs), p.noun)
	}
	line := fmt.Sprintf("%s%s%.0fs; checking %s", p.prefix, done, time.Since(p.start).Seconds(), strings.Join(running, ", "))
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
