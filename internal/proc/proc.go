// Package proc starts and stops the programs mctscheck drives (rules over
// the pipe protocol, engines over GTP) so that none outlives its use: the
// one home of process groups for packages rules and engine.
package proc
