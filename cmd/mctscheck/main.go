package main

import (
	"os"
	"runtime/debug"

	"github.com/mctscheck/mctscheck/cli"
	"github.com/mctscheck/mctscheck/cli/plot"
)

// gcPercent is the tool's GOGC unless the environment sets one. The
// checker's live heap is a few MB, so at Go's default of 100 the collector
// ran 33 times in a default run, each time turning on the write barriers
// of the search's hot loop for milliseconds: about 3% of the run's CPU.
// At 400 it runs 7 times; the default run's peak memory grows from 29 MB
// to 32 to 38 MB (GODEBUG=gctrace=1 and /usr/bin/time, several runs). A search allocates its tree once and nothing per
// simulation, so a large search's peak memory hardly moves.
const gcPercent = 400

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	tool := cli.MctscheckTool()
	tool.Plot = plot.Convergence
	os.Exit(tool.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
