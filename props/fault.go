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
	// perspective, one line per child.
	Inputs string `json:"inputs"`
	// Node is the path of the node where it happened (e.g. "0.1").
	Node string `json:"node"`
	// Sim is the index of the simulation, or −1 for a fault met in the
	// limit probe, which asks the rule about counts beyond the run.
	Sim int64 `json:"sim"`
	// Stderr is the end of the program's standard error, for a rule or a
	// search run by a program; empty otherwise.
	Stderr string `json:"stderr,omitempty"`
	// Reproduced says whether the fault came back when its tree was
	// searched again alone with its seed; a fault that depends on the
	// program's history (a count kept across sites, a crash now and then)
	// may not.
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
)

func (f *Fault) Error() string {
	return fmt.Sprintf("fault (%s) at node %s in simulation %d: %s\n%s", f.Kind, f.Node, f.Sim, f.Message, f.Inputs)
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
