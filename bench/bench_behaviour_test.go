package bench_test

import (
	"context"
	"encoding/binary"
	"hash/fnv"
	"math"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/games"
)

// fingerprint runs sims simulations and hashes every stored node's path,
// visits and reward sum, so that an optimisation of the hot loop can be
// shown not to change a single statistic.
func fingerprint(t *testing.T, g core.Game, r core.Rule, cfg core.Config, sims int) uint64 {
	t.Helper()
	cfg.Seed = seed
	s := newSearch(t, g, r, cfg)
	if err := s.Run(context.Background(), sims); err != nil {
		t.Fatal(err)
	}
	h := fnv.New64a()
	var buf []byte
	s.Walk(func(n core.NodeInfo) bool {
		buf = buf[:0]
		for _, m := range n.Path {
			buf = binary.LittleEndian.AppendUint32(buf, uint32(m))
		}
		buf = binary.LittleEndian.AppendUint64(buf, uint64(n.Visits))
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(n.W))
		buf = binary.LittleEndian.AppendUint64(buf, uint64(n.AMAFVisits))
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(n.AMAFW))
		h.Write(buf)
		return true
	})
	return h.Sum64()
}

// TestFingerprints pins the statistics of short searches of the benchmarked
// workloads. The values were recorded before any optimisation of the hot
// loop; a change that alters them changes the engine's behaviour, not only
// its speed.
func TestFingerprints(t *testing.T) {
	const n = 20_000
	ttt := func() core.Game { return games.NewTicTacToe() }
	syn := func() core.Game { return synth(t, 8, 10) }
	cases := []struct {
		name string
		game func() core.Game
		rule core.Rule
		cfg  core.Config
		want uint64
	}{
		{"synth/uct", syn, benchRules[0].rule, practical, 0x1b704b3787ac898a},
		{"synth/smoothed", syn, benchRules[1].rule, practical, 0x393fbe41a8da797a},
		{"synth/rave", syn, benchRules[2].rule, practical, 0x9f3342bdcaa21d00},
		{"synth/eps-greedy", syn, benchRules[3].rule, practical, 0x1e45e9bd013599ab},
		{"synth/threshold", syn, benchRules[4].rule, practical, 0xc7bd5a0920cd2417},
		{"synth/uct/paper", func() core.Game { return synth(t, 4, 6) }, benchRules[0].rule, paper, 0xd911e19ae4641e78},
		{"synth/uct/minimax", syn, benchRules[0].rule, core.Config{Growth: core.GrowPractical, Backup: core.BackupMinimax}, 0xea697fcdbb6ce084},
		{"ttt/uct", ttt, benchRules[0].rule, practical, 0xd12aba6664a41c68},
		{"ttt/rave", ttt, benchRules[2].rule, practical, 0xb9e1d66b269a7674},
		{"ttt/threshold", ttt, benchRules[4].rule, practical, 0x12e26198196013d3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := fingerprint(t, c.game(), c.rule, c.cfg, n); got != c.want {
				t.Errorf("fingerprint %#x, want %#x", got, c.want)
			}
		})
	}
}

// TestNoAllocs checks the claim of the benchmarks' allocs/op column at a
// smaller scale: with the arena sized, a search allocates nothing.
func TestNoAllocs(t *testing.T) {
	for _, rc := range benchRules {
		t.Run(rc.name, func(t *testing.T) {
			s := newSearch(t, synth(t, 8, 10), rc.rule, core.Config{Growth: core.GrowPractical, Capacity: 200_000})
			ctx := context.Background()
			allocs := testing.AllocsPerRun(3, func() {
				s.Reset(seed)
				if err := s.Run(ctx, 10_000); err != nil {
					t.Fatal(err)
				}
			})
			if allocs != 0 {
				t.Errorf("%v allocations per search of 10,000 simulations, want 0", allocs)
			}
		})
	}
}

// TestSynthDefinition checks games.Synth against the workload's definition
// in the package doc, written out again independently, so that other engines
// can rely on the published check values.
func TestSynthDefinition(t *testing.T) {
	mix := func(z uint64) uint64 {
		z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
		z = (z ^ z>>27) * 0x94D049BB133111EB
		return z ^ z>>31
	}
	g := synth(t, 8, 10)
	h := uint64(0x243F6A8885A308D3)
	for d := range 10 {
		if g.Hash() != h {
			t.Fatalf("depth %d: hash %#x, want %#x", d, g.Hash(), h)
		}
		wantKind := core.Max
		if d%2 == 1 {
			wantKind = core.Min
		}
		if g.Kind() != wantKind || g.NumMoves() != 8 {
			t.Fatalf("depth %d: %v with %d moves, want %v with 8", d, g.Kind(), g.NumMoves(), wantKind)
		}
		i := uint64(d % 8) // the path 0.0.1.2.3.4.5.6.7.0.1 of the doc
		g.Play(int(i))
		h = mix(h + (i+1)*0x9E3779B97F4A7C15)
	}
	if g.Kind() != core.Terminal || g.Hash() != h {
		t.Fatalf("leaf: %v with hash %#x, want terminal with %#x", g.Kind(), g.Hash(), h)
	}
	if want := float64(mix(h^0xD1B54A32D192ED03) & 1); g.Reward() != want {
		t.Fatalf("leaf reward %v, want %v", g.Reward(), want)
	}
	t.Logf("leaf 0.0.1.2.3.4.5.6.7.0.1: hash %#x reward %v", h, g.Reward())
}

// TestRandomTree checks that game=random builds, and logs its size.
func TestRandomTree(t *testing.T) {
	tr, err := randomTree()
	if err != nil {
		t.Fatal(err)
	}
	if tr.Len() < 10_000 {
		t.Errorf("random tree has %d nodes, want more", tr.Len())
	}
	t.Logf("game=random: %d nodes, depth %d", tr.Len(), tr.Depth())
}
