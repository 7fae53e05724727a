package props

import (
	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// newSearch returns the search a check runs on tr: serial, or with
// Options.Workers ≥ 2 tree-parallel in lockstep with Options.VirtualLoss,
// one cursor on tr per worker.
func newSearch(tr *tree.Tree, rule core.Rule, opts Options) (*core.Search, error) {
	cfg := core.Config{Growth: opts.Growth, Backup: opts.Backup, Capacity: tr.Len()}
	if opts.Workers < 2 {
		return core.New(tr.Game(), rule, cfg)
	}
	games := make([]core.Game, opts.Workers)
	for j := range games {
		games[j] = tr.Game()
	}
	cfg.VirtualLoss, cfg.Lockstep = opts.VirtualLoss, true
	return core.NewTree(games, rule, cfg)
}
