//go:build !linux

package main

// parentArgs returns nil: the parent's command line is read on Linux only.
func parentArgs() []string { return nil }
