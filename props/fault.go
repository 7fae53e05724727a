package props

import (
	"fmt"
	"strings"

	"github.com/mctscheck/mctscheck/core"
)

// Fault says how the rule, or the program behind it, broke its contract:
// it panicked, returned a NaN or a child out of range, crashed, hung,
// answered garbage, or declared what its own choices contradict. It is the
// evidence of the verdict Faulted, not a finding about consistency.
type Fault struct {
	// Kind names the class of fault (FaultPanic, FaultHang, …).
	Kind FaultKind `json:"kind"`
	// Message says what happened: "score NaN for child 1", "panic: …".
	Message string `json:"message"`
	// Inputs are the statistics the rule saw, from the chooser's
	// perspective, one line per child; for a whole search, what it was
	// asked: "for the tree (max 0 1) with seed 1, checkpoints 64 to 1024
	// doubling".
	Inputs string `json:"inputs"`
	// Node is the path of the node where it happened (e.g. "0.1"); empty
	// for a whole search's fault that names no node (a crash, a hang).
	Node string `json:"node"`
	// Sim is the index of the simulation, or −1 for a fault met in the
	// limit probe, which asks the rule about counts beyond the run. A
	// whole search (a Searcher) is seen only at its checkpoints: there Sim
	// is the simulations its last answer that kept the contract reported
	// (0 before the first), after which the fault came.
	Sim int64 `json:"sim"`
	// Checkpoint is, for a whole search, the checkpoint it was asked for
	// when it faulted: the one whose answer broke the contract, or that it
	// never answered; for two searches that answered differently, the
	// first checkpoint at which they differ. 0 for a rule.
	Checkpoint int64 `json:"checkpoint,omitempty"`
	// Stderr is the end of the program's standard error, for a rule or a
	// search run by a program; empty otherwise.
	Stderr string `json:"stderr,omitempty"`
	// Reproduced says whether the fault came back when its tree was
	// searched again alone with its seed; a fault that depends on the
	// program's history (a count kept across sites, a crash now and then)
	// may not. A fault of the kind FaultNondeterministic is itself two
	// searches that did not agree: false.
	Reproduced bool `json:"reproduced"`
}

// FaultKind is the class of a Fault.
type FaultKind string

// The classes of faults.
const (
	FaultPanic    FaultKind = "panic"    // the rule panicked
	FaultNaN      FaultKind = "nan"      // a NaN score or answer
	FaultRange    FaultKind = "range"    // a child, probability or count out of range
	FaultCrash    FaultKind = "crash"    // the program exited or was killed
	FaultHang     FaultKind = "hang"     // no answer within the timeout
	FaultGarbage  FaultKind = "garbage"  // an answer that does not parse, or stray output
	FaultProtocol FaultKind = "protocol" // a bad handshake or protocol version
	FaultLie      FaultKind = "lie"      // a declaration the rule's own choices contradict
	// A whole search's answers that the protocol's promises contradict
	// (docs/protocol.md, "What mctscheck checks of the answers"):
	FaultNondeterministic FaultKind = "nondeterministic" // the same tree and seed, different answers
	FaultPerspective      FaultKind = "perspective"      // means for the side to move, not for max
	FaultChance           FaultKind = "chance"           // chance outcomes not drawn by their probabilities
)

func (f *Fault) Error() string {
	return fmt.Sprintf("fault (%s)%s: %s\n%s", f.Kind, f.Where(), f.Message, f.Inputs)
}

// Where says where the fault happened, as far as it is known, starting
// with a space: " at node 0.1 in simulation 12", " at node 0.1 in the
// limit probe (counts beyond the run)", or, for a whole search, seen only
// at its checkpoints, " at node 0.1, at the checkpoint of 128
// simulations"; empty if nothing is known.
func (f *Fault) Where() string {
	node := ""
	if f.Node != "" {
		node = " at node " + f.Node
	}
	switch {
	case f.Checkpoint > 0 && node != "":
		return fmt.Sprintf("%s, at the checkpoint of %d simulations", node, f.Checkpoint)
	case f.Checkpoint > 0:
		return fmt.Sprintf(" at the checkpoint of %d simulations", f.Checkpoint)
	case node == "":
		return ""
	case f.Sim < 0:
		return node + " in the limit probe (counts beyond the run)"
	}
	return fmt.Sprintf("%s in simulation %d", node, f.Sim)
}

// FaultCounter is implemented by rules that can fail between two answers,
// such as a program that crashes, so that a check learns of every failure,
// even one no Select call met: a check whose rule counted a failure ends
// with the verdict Faulted, never a clean one. FaultCount returns the
// failures so far and the last one (nil if none), which may be Kinded.
type FaultCounter interface {
	FaultCount() (n int64, last error)
}

// Kinded is implemented by panic values that know their class of fault,
// such as the faults of an external rule's program: FaultKind returns a
// FaultKind's string, Stderr the end of the program's standard error.
type Kinded interface {
	FaultKind() string
	Stderr() string
}

// siteInputs prints what a rule sees at s.
func siteInputs(s *core.Site) string {
	var b strings.Builder
	pm, _ := s.ParentMean()
	fmt.Fprintf(&b, "  %v node, n=%g, mean=%g, t=%d, depth=%d\n", s.Kind(), s.ParentN(), pm, s.T(), s.Depth())
	for i := range s.Len() {
		fmt.Fprintf(&b, "  child %d: n=%g w=%g visits=%d", i, s.N(i), s.W(i), s.Visits(i))
		if h, ok := s.Prior(i); ok {
			fmt.Fprintf(&b, " prior=%g", h)
		}
		if an, aw := s.AMAF(i); an > 0 {
			fmt.Fprintf(&b, " amaf=%g/%g", aw, an)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// faultOf turns a search error into a Fault when it is the rule's doing.
func faultOf(err error) (*Fault, bool) {
	re, ok := err.(*core.RuleError)
	if !ok {
		return nil, false
	}
	node := core.PathString(re.Path)
	switch p := re.Panic.(type) {
	case *Fault:
		p.Node, p.Sim = node, re.Sim
		return p, true
	case Kinded:
		return &Fault{Kind: FaultKind(p.FaultKind()), Message: fmt.Sprint(p), Node: node, Sim: re.Sim, Stderr: p.Stderr()}, true
	case nil:
		return &Fault{Kind: FaultRange, Message: re.Error(), Node: node, Sim: re.Sim}, true
	}
	return &Fault{Kind: FaultPanic, Message: fmt.Sprintf("panic: %v", re.Panic), Node: node, Sim: re.Sim}, true
}
