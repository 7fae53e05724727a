package rules

import "slices"

// Unregister removes the registered rule called name, so that a test's
// registrations do not reach the other tests' listings.
func Unregister(name string) {
	registry.Lock()
	defer registry.Unlock()
	registry.entries = slices.DeleteFunc(registry.entries, func(e *Entry) bool { return e.Name == name })
}

// SetExpSlack widens (or narrows) the bracket around the softmax's cheap
// exponential and returns a function that restores it: a wide bracket
// leaves most draws undecided, so that a test reaches the exact fallback.
func SetExpSlack(v float64) (restore func()) {
	old := expSlack
	expSlack = v
	return func() { expSlack = old }
}

// Pids returns the process ids of every program the rule started.
func (x *ExecRule) Pids() []int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return append([]int(nil), x.pids...)
}
