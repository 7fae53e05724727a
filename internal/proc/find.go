package proc

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// Find checks that the program name can be started (exec.LookPath), and
// says why not: a first word that sets a variable (FOO=1) is no program,
// since a command line given to mctscheck runs no shell.
func Find(name string) error {
	_, err := exec.LookPath(name)
	if err == nil {
		return nil
	}
	var ee *exec.Error
	if errors.As(err, &ee) {
		err = ee.Err
	}
	if v, _, ok := strings.Cut(name, "="); ok && v != "" && !strings.ContainsAny(v, "/ ") {
		return fmt.Errorf("%w: it sets %s, which a command line run without a shell cannot: run env %s PROGRAM, or a wrapper script (docs/protocol.md)", err, v, name)
	}
	return err
}
