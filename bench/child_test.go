package bench_test

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// runChild runs the test binary exe again with env added, which its
// TestMain turns into a child that measures one job and prints one line,
// and scans that line with format into dst.
func runChild(exe string, env []string, format string, dst ...any) error {
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if e, ok := err.(*exec.ExitError); ok {
			stderr = e.Stderr[max(0, len(e.Stderr)-2000):] // where a crash says why
		}
		return fmt.Errorf("child: %v\n%s%s", err, out, stderr)
	}
	if _, err := fmt.Sscanf(strings.TrimSpace(string(out)), format, dst...); err != nil {
		return fmt.Errorf("child said %q: %v", out, err)
	}
	return nil
}
