package goboard_test

import (
	"github.com/mctscheck/mctscheck/games/goboard"
	"github.com/mctscheck/mctscheck/gtp"
)

// The GNU Go tests of package goboard speak GTP through gtp.Client.
func init() {
	goboard.StartGTP = func(path string, args ...string) (goboard.GTPConn, error) {
		return gtp.Start(nil, path, args...)
	}
	goboard.FindGNUGo = gtp.FindGNUGo
}
