package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// interruptLimit is how soon Ctrl-C must end a check, at any stage.
const interruptLimit = 2 * time.Second

// TestSigintEndsCheck: Ctrl-C (SIGINT) ends the built tool's check of a
// rule and of a search within interruptLimit, with exit code 130, at each
// stage of a check of a tree of 10^6 nodes or more: while it reads the
// tree, while it searches the seeds and while it shrinks the witness. The
// tool runs with its standard error on a pseudo-terminal, whose live
// progress line names the stage; the signal goes once the stage shows
// (reading: once the tool has taken the tree from its standard input),
// and the test measures the time from the signal to the exit.
func TestSigintEndsCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the tool and checks trees of millions of nodes")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "mctscheck")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/mctscheck").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// A 5-node trap in a bushy tree of 2^22 nodes (seconds to read), a
	// root over 10^6 leaves (each seed a second or more), and for the
	// shrinking stages, checked with one seed: the rule's trap with 10^6
	// leaves beside its good move, and a root over 2·10^5 leaves, the
	// good one last, for a search that never tries a second child (its
	// fpu-never bug), seconds of shrinking in large candidate trees.
	bushy := writeTree(t, dir, "bushy", func(w *bufio.Writer) {
		w.WriteString("(max (max 0 1 ")
		writeBushy(w, 1<<22-5)
		w.WriteString(") 0.5)")
	})
	wide2 := writeTree(t, dir, "wide2", func(w *bufio.Writer) {
		w.WriteString("(max" + strings.Repeat(" 0", 200_000) + " 1)")
	})
	wide := writeTree(t, dir, "wide", func(w *bufio.Writer) {
		w.WriteString("(max" + strings.Repeat(" 0", 999_999) + " 1)")
	})
	trap := writeTree(t, dir, "trap", func(w *bufio.Writer) {
		w.WriteString("(max (max 0 1" + strings.Repeat(" 0 1", 500_000) + ") 0.5)")
	})
	mcts := ""
	if cc, err := exec.LookPath("cc"); err == nil {
		mcts = filepath.Join(dir, "mcts")
		if out, err := exec.Command(cc, "-O2", "-o", mcts, "../examples/mcts.c", "-lm").CombinedOutput(); err != nil {
			t.Fatalf("cc examples/mcts.c: %v\n%s", err, out)
		}
	}
	search := "exec:./mcts --bug negamax-sign" // a short name, that the progress line shows whole
	for _, c := range []struct {
		name  string
		args  []string
		stage string // the progress that shows the stage; "" for reading
	}{
		{"rule/reading", []string{"check", "-rule", "greedy-fpu", "-tree", "@-"}, ""},
		{"rule/seeds", []string{"check", "-rule", "uct", "-tree", "@" + wide}, "trees"},
		{"rule/shrinking", []string{"check", "-rule", "greedy-fpu", "-seeds", "1", "-tree", "@" + trap}, "shrinking the witness"},
		{"search/reading", []string{"check", "-search", search, "-tree", "@-"}, ""},
		{"search/seeds", []string{"check", "-search", search, "-tree", "@" + wide}, "trees"},
		{"search/shrinking", []string{"check", "-search", "exec:./mcts --bug fpu-never", "-seeds", "1", "-tree", "@" + wide2}, "shrinking the witness"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if strings.HasPrefix(c.name, "search") && mcts == "" {
				t.Skip("cc is absent: examples/mcts.c is not built (CI has it)")
			}
			took, code, seen := interruptAt(t, dir, bin, c.args, c.stage, bushy)
			if code != exitInterrupted || took > interruptLimit {
				t.Errorf("exit code %d after %v, want %d within %v; the progress before the signal: %s", code, took, exitInterrupted, interruptLimit, seen)
			}
			t.Logf("exit %d, %v after the signal", code, took.Round(time.Millisecond))
		})
	}
}

// writeTree writes a tree file name in dir with write.
func writeTree(t *testing.T, dir, name string, write func(*bufio.Writer)) string {
	t.Helper()
	file := filepath.Join(dir, name+".tree")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	write(w)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return file
}

// writeBushy writes a tree of n nodes: min and max nodes in turn, each
// over up to 10 subtrees that share its other nodes, down to leaves 0
// and 1 in turn.
func writeBushy(w *bufio.Writer, n int) {
	type item struct {
		n, k int
		min  bool
	}
	stack := []item{{n, 0, true}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch {
		case it.n < 0:
			w.WriteByte(')')
			continue
		case it.n == 1:
			fmt.Fprintf(w, " %d", it.k%2)
			continue
		case it.min:
			w.WriteString(" (min")
		default:
			w.WriteString(" (max")
		}
		kids := min(10, it.n-1)
		stack = append(stack, item{n: -1})
		rest := it.n - 1
		var shares []item
		for j := range kids {
			share := rest / (kids - j)
			rest -= share
			shares = append(shares, item{share, j, !it.min})
		}
		for j := len(shares) - 1; j >= 0; j-- {
			stack = append(stack, shares[j])
		}
	}
}

// interruptAt runs the tool with args in dir, its standard error on a
// pseudo-terminal, sends it SIGINT once the progress shows stage, and
// returns the time from the signal to the exit, the exit code and the
// progress seen until the signal. If stage is "", the tool reads the tree
// file input on its standard input, and the signal goes as soon as the
// tool has taken all of it but what a pipe holds: while it reads or
// parses.
func interruptAt(t *testing.T, dir, bin string, args []string, stage, input string) (took time.Duration, code int, seen string) {
	t.Helper()
	master, slave, err := openPTY()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer master.Close()
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Stderr = dir, slave
	cmd.Env = append(os.Environ(), "TERM=xterm")
	var stdin *os.File
	if stage == "" {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		cmd.Stdin, stdin = r, w
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	var mu sync.Mutex
	var progress bytes.Buffer
	shown := make(chan struct{})
	go func() { // the terminal's side: what the tool writes, until it exits
		buf := make([]byte, 4096)
		once := sync.Once{}
		for {
			n, err := master.Read(buf)
			mu.Lock()
			progress.Write(buf[:n])
			if stage != "" && strings.Contains(progress.String(), stage) {
				once.Do(func() { close(shown) })
			}
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	wait := make(chan error, 1)
	go func() { wait <- cmd.Wait() }()
	fed := make(chan error, 1)
	if stage == "" {
		go func() {
			text, err := os.ReadFile(input)
			if err == nil {
				_, err = stdin.Write(text)
			}
			stdin.Close()
			fed <- err
		}()
	}
	select {
	case <-shown:
	case err := <-fed:
		if err != nil {
			t.Fatalf("writing the tree to the tool: %v", err)
		}
	case err := <-wait:
		t.Fatalf("the check ended (%v) before the stage %q showed: %s", err, stage, lastLine(progress.String()))
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		t.Fatalf("the stage %q did not show in 2 minutes: %s", stage, lastLine(progress.String()))
	}
	mu.Lock()
	seen = lastLine(progress.String())
	mu.Unlock()
	if stage == "" && seen != "" {
		t.Fatalf("the progress began as the tree was written: it was read and parsed already: %s", seen)
	}
	sent := time.Now()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-wait:
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		<-wait
	}
	return time.Since(sent), cmd.ProcessState.ExitCode(), seen
}

// openPTY opens a pseudo-terminal pair (Linux's /dev/ptmx).
func openPTY() (master, slave *os.File, err error) {
	master, err = os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, err
	}
	var unlock int32
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, master.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		master.Close()
		return nil, nil, e
	}
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, master.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		master.Close()
		return nil, nil, e
	}
	slave, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		master.Close()
		return nil, nil, err
	}
	return master, slave, nil
}

// lastLine is the last progress line in what a live progress wrote.
func lastLine(text string) string {
	lines := strings.FieldsFunc(strings.ReplaceAll(text, "\x1b[K", ""), func(r rune) bool { return r == '\r' || r == '\n' })
	if len(lines) == 0 {
		return ""
	}
	return lines[len(lines)-1]
}
