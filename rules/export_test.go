package rules

import "slices"

// Unregister removes the registered rule called name, so that a test's
// registrations do not reach the other tests' listings.
func Unregister(name string) {
	registry.Lock()
	defer registry.Unlock()
	registry.entries = slices.DeleteFunc(registry.entries, func(e *Entry) bool { return e.Name == name })
}
