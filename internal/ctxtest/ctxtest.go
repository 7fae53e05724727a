// Package ctxtest has contexts for tests of work that gives up when its
// context ends: one that ends while the work runs, at a chosen look.
package ctxtest

import "context"

// EndsAt returns a context that ends at the looks'th call of its Err
// (its Done never closes): work that looks at its context only before it
// starts finishes, work that looks as it goes gives up midway.
func EndsAt(looks int) context.Context { return &endsAt{Context: context.Background(), looks: looks} }

type endsAt struct {
	context.Context
	looks int
}

func (c *endsAt) Err() error {
	if c.looks--; c.looks <= 0 {
		return context.Canceled
	}
	return nil
}
