package main

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// roleEnv makes the test binary play a part in a test of the gate's own
// process (see TestGoToolIsNotGoRun): "gate" runs main with the
// space-separated arguments in gateArgsEnv; "go" stands for the go
// command, and runs the test binary as the gate, its child.
const (
	roleEnv     = "MCTSCHECK_GATE_TEST_ROLE"
	gateArgsEnv = "MCTSCHECK_GATE_TEST_ARGS"
)

func TestMain(m *testing.M) {
	switch os.Getenv(roleEnv) {
	case "gate":
		os.Args = append([]string{"gate"}, strings.Fields(os.Getenv(gateArgsEnv))...)
		main()
	case "go":
		os.Exit(runAsGate(os.Getenv(gateArgsEnv)))
	}
	os.Exit(m.Run())
}

// runAsGate runs the test binary as the gate with the arguments args, its
// standard error on this process's, and returns its exit status.
func runAsGate(args string) int {
	exe, err := os.Executable() // not os.Args[0]: the "go" role's is "go"
	if err != nil {
		return -1
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), roleEnv+"=gate", gateArgsEnv+"="+args)
	cmd.Stderr = os.Stderr
	err = cmd.Run()
	if exit := (*exec.ExitError)(nil); errors.As(err, &exit) {
		return exit.ExitCode()
	} else if err != nil {
		return -1
	}
	return 0
}
