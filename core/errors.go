package core

import (
	"fmt"
	"strings"
)

// RuleError reports a rule that panicked, returned a child index out of
// range, or gave invalid virtual experience. The search that met it is
// spoiled until Reset.
type RuleError struct {
	Path  []int32 // move indices from the root to the node where it happened
	Sim   int64   // index of the simulation
	Index int     // the index returned, when out of range
	Len   int     // the number of children there
	Panic any     // the panic value, if the rule panicked
	Msg   string  // what was wrong otherwise
}

func (e *RuleError) Error() string {
	at := fmt.Sprintf("at node %s in simulation %d", shortPath(e.Path), e.Sim)
	switch {
	case e.Panic != nil:
		return fmt.Sprintf("core: rule panicked %s: %v", at, e.Panic)
	case e.Msg != "":
		return fmt.Sprintf("core: rule %s: %s", at, e.Msg)
	}
	return fmt.Sprintf("core: rule chose child %d of %d %s", e.Index, e.Len, at)
}

// GameError reports a game that broke the Game contract: a reward outside
// [0,1], a non-terminal position without moves, chance probabilities that
// are not finite, lie outside [0,1] or do not sum to 1 within ProbTolerance,
// a bad move identity, a game that has not ended after Config.MaxDepth
// moves. The search that met it is spoiled until Reset.
type GameError struct {
	Path    []int32   // move indices from the root to the deepest stored node of the simulation
	Rollout int       // moves the roll-out had played below Path; 0 in the stored tree
	Sim     int64     // index of the simulation
	Probs   []float64 // the chance position's probabilities, when they are what is wrong
	Msg     string    // what was wrong
}

func (e *GameError) Error() string {
	at := shortPath(e.Path)
	if e.Rollout > 0 {
		at += fmt.Sprintf(" + %d roll-out moves", e.Rollout)
	}
	return fmt.Sprintf("core: game at node %s in simulation %d: %s", at, e.Sim, e.Msg)
}

// shortPath is PathString for messages: a path longer than 2×pathEnds
// moves keeps its first and last pathEnds moves, so that a message about
// a node a million moves deep stays one short line.
func shortPath(path []int32) string {
	const pathEnds = 12
	if len(path) <= 2*pathEnds {
		return PathString(path)
	}
	tail := PathString(path[len(path)-pathEnds:])
	return fmt.Sprintf("%s.….%s (depth %d)", PathString(path[:pathEnds]), tail[2:], len(path))
}

// PathString writes a path of move indices as the root "0" followed by one
// ".i" per move, e.g. "0.2.1", the notation of every report.
func PathString(path []int32) string {
	var b strings.Builder
	b.WriteString("0")
	for _, m := range path {
		fmt.Fprintf(&b, ".%d", m)
	}
	return b.String()
}
