// Package searchexec checks a whole Monte-Carlo tree search written in any
// language: it runs the program and speaks the search protocol of
// docs/protocol.md with it over its standard input and output. A Program
// is a props.Searcher, so props.RunSearch, RunSearchTree and CheckSearch
// check it as they check a search written in Go, and mctscheck check
// -search exec:'CMD' runs it from the command line.
//
//	p, err := searchexec.Command("python3 examples/mcts.py", searchexec.Options{})
//	…
//	defer p.Close()
//	rep, err := props.RunSearch(ctx, p, props.Options{Jobs: 2, RuleSpec: "exec:python3 examples/mcts.py"})
//
// For each search the program gets the tree in the text format, a seed and
// the checkpoints, searches once, and answers one line per checkpoint: its
// root decision and the root children's visits and means, and, if it said
// so in its handshake, every node's. One process serves many searches, one
// at a time; searches called at once (props.Options.Jobs) run in as many
// processes side by side.
//
// Whatever the program does, the check neither crashes nor hangs: a
// program that crashes, hangs, answers garbage, speaks another protocol,
// decides a child that is no root move or reports counts that do not add
// up is a fault (a *props.Fault, of the kinds FaultCrash, FaultHang,
// FaultGarbage, FaultProtocol, FaultRange and FaultNaN), reported with the
// tree, the seed and the end of the program's standard error. So is output
// after a search's last answer: Program is a props.LateFaulter, whose
// LateFault reads every idle program's output to the end, and RunSearch
// asks it once its searches are done. The process that faulted is killed
// with every process it started (its group, and on Linux every process
// that carries its mark: docs/protocol.md) and reaped, and Close stops the
// others: none is left behind.
package searchexec
