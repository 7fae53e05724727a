package main

import (
	"fmt"
	"os"
	"strings"
)

// parentArgs returns the command line of the gate's parent process, or nil
// when it cannot be read.
func parentArgs() []string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", os.Getppid()))
	if err != nil || len(b) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
}
