// Package goboard is a Go board with fast light playouts, and the game of Go
// as a core.Game.
package goboard
