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
	at := fmt.Sprintf("at node %s in simulation %d", PathString(e.Path), e.Sim)
	switch {
	case e.Panic != nil:
		return fmt.Sprintf("core: rule panicked %s: %v", at, e.Panic)
	case e.Msg != "":
		return fmt.Sprintf("core: rule %s: %s", at, e.Msg)
	}
	return fmt.Sprintf("core: rule chose child %d of %d %s", e.Index, e.Len, at)
}

// GameError reports a game that broke the Game contract: a reward outside
// [0,1], a non-terminal position without moves, chance probabilities that do
// not sum to 1, a bad move identity. The search that met it is spoiled until
// Reset.
type GameError struct {
	Path []int32
	Sim  int64
	Msg  string
}

func (e *GameError) Error() string {
	return fmt.Sprintf("core: game at node %s in simulation %d: %s", PathString(e.Path), e.Sim, e.Msg)
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
