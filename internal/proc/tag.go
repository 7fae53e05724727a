package proc

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
)

// ProgramEnv is the environment variable that marks every program mctscheck
// starts, and whatever those programs start in turn: a list of tags, one
// per program in the chain that started it, separated by spaces. A process
// that leaves its program's process group (setsid, setpgid), or outlives
// the program that started it, still carries its tag, by which KillGroup
// finds it.
const ProgramEnv = "MCTSCHECK_PROGRAM"

// tag marks cmd, not yet started, with a tag of its own in ProgramEnv (kept
// after the tags it inherits), and returns the tag.
func tag(cmd *exec.Cmd) string {
	t := fmt.Sprintf("%d.%016x", os.Getpid(), rand.Uint64())
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	inherited := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, ProgramEnv+"="); ok {
			inherited = v // exec keeps the last of duplicate keys
		}
	}
	cmd.Env = append(slices.Clip(env), ProgramEnv+"="+strings.TrimSpace(inherited+" "+t))
	return t
}

// tagOf returns the tag that tag gave cmd, or "".
func tagOf(cmd *exec.Cmd) string {
	for _, kv := range slices.Backward(cmd.Env) {
		if v, ok := strings.CutPrefix(kv, ProgramEnv+"="); ok {
			f := strings.Fields(v)
			if len(f) > 0 {
				return f[len(f)-1]
			}
			return ""
		}
	}
	return ""
}
