//go:build unix

package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCheckExecInterrupted: Ctrl-C during a check of an external rule
// stops the check and leaves no process behind.
func TestCheckExecInterrupted(t *testing.T) {
	checkInterrupted(t, "-rule", "exec:sh -c 'echo $$ > %s; exec python3 ../examples/uct.py'")
}

// checkInterrupted runs check with flag set to spec, whose %s is a file
// where the program writes its pid, sends Ctrl-C once the program runs,
// and fails t unless the check ends with exit code 130 and the program is
// gone.
func checkInterrupted(t *testing.T, flag, spec string) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is absent: the external program is not tested (CI has it)")
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pid := make(chan int, 1)
	go func() { // Ctrl-C once the program runs
		for ctx.Err() == nil {
			if b, err := os.ReadFile(pidFile); err == nil && bytes.HasSuffix(b, []byte("\n")) {
				p, _ := strconv.Atoi(strings.TrimSpace(string(b)))
				pid <- p
				time.Sleep(300 * time.Millisecond)
				cancel()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	tool := mctscheckTool
	tool.ctx = ctx
	var out, errOut bytes.Buffer
	code := tool.Run([]string{"check", flag, fmt.Sprintf(spec, pidFile)}, nil, &out, &errOut)
	if code != exitInterrupted {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitInterrupted, out.String(), errOut.String())
	}
	p := <-pid
	if !errors.Is(syscall.Kill(p, 0), syscall.ESRCH) {
		t.Errorf("the program (pid %d) is still there after Ctrl-C", p)
	}
}

// TestCheckExecHangInterrupted: Ctrl-C while the program of an exec: rule
// hangs on a batch ends the check at once with exit 130, not with a fault
// report after the round trip's timeout.
func TestCheckExecHangInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(500*time.Millisecond, cancel)
	tool := mctscheckTool
	tool.ctx = ctx
	var out, errOut bytes.Buffer
	start := time.Now()
	code := tool.Run([]string{"check", "-rule", `exec:sh -c 'read hello; echo {\"version\":1}; sleep 60'`, "-tree", "(max 1 0)"}, nil, &out, &errOut)
	if code != exitInterrupted || strings.Contains(out.String(), "fault") {
		t.Fatalf("exit %d, want %d and no fault\n%s%s", code, exitInterrupted, out.String(), errOut.String())
	}
	if d := time.Since(start); d > 8*time.Second {
		t.Errorf("Ctrl-C took %v to end the check", d)
	}
}
