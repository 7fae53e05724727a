//go:build !linux

package core

// makeHuge is make outside Linux.
func makeHuge[T any](n int) []T { return make([]T, n) }
