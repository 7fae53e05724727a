// Package proc starts and stops the programs mctscheck drives (rules and
// whole searches over their pipe protocols, engines over GTP) so that none
// outlives its use: the one home of process groups, and of a program
// spoken to over its standard streams (Pipe), for packages rules,
// searchexec and engine.
package proc
