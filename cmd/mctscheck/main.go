package main

import (
	"os"
	"runtime/debug"

	"github.com/mctscheck/mctscheck/cli"
	"github.com/mctscheck/mctscheck/cli/plot"
)

// gcPercent is the tool's GOGC unless the environment sets one. The
// checker's live heap is a few MB, so at Go's default of 100 the collector
// runs often, each time turning on the write barriers of the search's hot
// loop; at 400 it runs a few times a run, for a few MB more of peak memory
// (docs/speed.md has the measurements). A search allocates its tree once
// and nothing per simulation, so a large search's peak memory hardly moves.
const gcPercent = 400

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	tool := cli.MctscheckTool()
	tool.Plot = plot.Convergence
	tool.PlotEngine = plot.EngineShares
	os.Exit(tool.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
