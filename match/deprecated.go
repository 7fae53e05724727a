package match

import "github.com/mctscheck/mctscheck/games/goboard"

// Go's pieces that lived in this package moved to games/goboard; these
// names remain for code written against them.

// FastGame is goboard.FastGame.
//
// Deprecated: use goboard.FastGame.
type FastGame = goboard.FastGame

// FastLight is goboard.FastLight.
//
// Deprecated: use goboard.FastLight.
type FastLight = goboard.FastLight

// NewFastGame is goboard.NewFastGame.
//
// Deprecated: use goboard.NewFastGame.
func NewFastGame(g *goboard.Game) *FastGame { return goboard.NewFastGame(g) }

// GoOracle is goboard.Oracle.
//
// Deprecated: use goboard.Oracle.
type GoOracle = goboard.Oracle

// NewGoOracle is goboard.NewOracle.
//
// Deprecated: use goboard.NewOracle.
func NewGoOracle(cfg goboard.Config, moves []string, maxNodes int64) (*GoOracle, error) {
	return goboard.NewOracle(cfg, moves, maxNodes)
}

// ScoreText is goboard.ScoreText.
//
// Deprecated: use goboard.ScoreText.
func ScoreText(score float64) string { return goboard.ScoreText(score) }
