package games_test

import (
	"reflect"
	"runtime"
	"testing"
	"unsafe"

	"github.com/mctscheck/mctscheck/games"
	"github.com/mctscheck/mctscheck/games/connect4"
	"github.com/mctscheck/mctscheck/games/goboard"
)

// lineSize is the cache line of the processors Go targets (64 bytes on
// amd64 and arm64).
const lineSize = 64

// TestGamesShareNoCacheLine checks what core.NewRoot asks of the games of
// parallel workers for each game of this module: games allocated one after
// another, as a caller makes the workers' games, share no cache line. A
// game is written on every move; two workers' games on one line would move
// it between the cores on every move (false sharing).
func TestGamesShareNoCacheLine(t *testing.T) {
	for _, c := range []struct {
		name string
		size uintptr
		make func() (any, error)
	}{
		{"Synth", unsafe.Sizeof(games.Synth{}), func() (any, error) { return games.NewSynth(8, 10) }},
		{"TicTacToe", unsafe.Sizeof(games.TicTacToe{}), func() (any, error) { return games.NewTicTacToe(), nil }},
		{"connect4.Game", unsafe.Sizeof(connect4.Game{}), func() (any, error) { return connect4.NewGame(connect4.Position{}), nil }},
		{"goboard.Game", unsafe.Sizeof(goboard.Game{}), func() (any, error) { return goboard.NewGame(goboard.Config{}) }},
	} {
		owner := map[uintptr]int{} // cache line → the game on it
		var live []any             // kept, so that no game's memory is reused
		for j := range 16 {
			g, err := c.make()
			if err != nil {
				t.Fatal(err)
			}
			live = append(live, g)
			p := reflect.ValueOf(g).Pointer()
			for line := p / lineSize; line <= (p+c.size-1)/lineSize; line++ {
				if i, ok := owner[line]; ok {
					t.Errorf("%s: games %d and %d (%d bytes each) share the cache line at %#x", c.name, i, j, c.size, line*lineSize)
				}
				owner[line] = j
			}
		}
		runtime.KeepAlive(live)
	}
}
