package rules

import (
	"math"

	"github.com/mctscheck/mctscheck/core"
)

// Engines returns the presets of real engines' selection rules, each with
// its defaults from the engine's own source and a prediction reasoned
// against Eq. 4 and Eq. 5: leela-zero, lc0, lc0-absolute, katago,
// openspiel-uct, openspiel-puct, mctx-muzero, mctx-gumbel, fuego, fuego-go,
// pachi-ucb1amaf, ludii-ucb1tuned, ludii-progressive-bias,
// ludii-progressive-history, ludii-ag0. Their types' docs cite the
// repository, path and commit, give the formula and list what the preset
// does not model. Lookup and Parse find them like the papers' rules; All
// lists only the papers' table. The entries are new on every call.
func Engines() []*Entry { return engines() }

// Sources of the presets: repository@commit, the snapshot each formula was
// read from.
const (
	srcLeelaZero = "leela-zero/leela-zero@3ee6d20d0b36ae26120331c610926359cc5837de src/UCTNode.cpp, src/GTP.cpp"
	srcLc0       = "LeelaChessZero/lc0@909a40826db9e8b221d9209a487daba6ab57e3b7 src/search/classic/search.cc, params.cc"
	srcKataGo    = "lightvector/KataGo@6a1fc5de9fc253723ac475a0683bf0b9d9b7bd19 cpp/search/searchexplorehelpers.cpp, cpp/program/setup.cpp"
	srcOpenSpiel = "google-deepmind/open_spiel@112b77704631fc2ce7ad8e4581f6ca09798ce15a open_spiel/algorithms/mcts.cc"
	srcMctx      = "google-deepmind/mctx@b53073fd5035618228a717e29254e36ceb6f0645 mctx/_src/action_selection.py, qtransforms.py"
	srcFuego     = "svn2github/fuego@0bf51c65aa80d87ac2f34920ac55792166951e9d smartgame/SgUctSearch.cpp"
	srcFuegoGo   = srcFuego + ", gouct/GoUctGlobalSearch.h"
	srcPachi     = "pasky/pachi@b69e353981e6728058e142b14632eb125b011c02 uct/policy/ucb1amaf.c, uct/prior.c"
	srcLudii     = "Ludeme/Ludii@"
)

// zeroPriorWhy is the failure of the PUCT presets whose policy can be 0
// (not lc0's: Lc0StoredPolicy): a child whose policy is 0 gets no
// exploration term, so it is simulated only if its first-play value beats
// a visited sibling's value plus that sibling's positive term.
const zeroPriorWhy = "a move whose policy is 0 has no exploration term: "

// lc0Why is the reason lc0's presets are consistent: Lc0StoredPolicy.
const lc0Why = "lc0 stores every policy in 16 bits, rounding any p below 2^-31 up to 2^-31 (Edge::SetP), so no move's policy is 0: " +
	"the term c(N)·P·sqrt(N−1)/(1+n) grows without bound for a child with fixed n (Eq. 5), c(N) growing only like ln N, and vanishes for children visited in proportion to N (Eq. 4)"

func engines() []*Entry {
	pc := func(name string, def, lo, hi float64, doc string) Param {
		return Param{Name: name, Default: def, Min: lo, Max: hi, Doc: doc}
	}
	pcOpen := func(name string, def, lo, hi float64, doc string) Param {
		return Param{Name: name, Default: def, Min: lo, MinOpen: true, Max: hi, Doc: doc}
	}
	lc0Params := func(fpu float64, fpuDoc string) []Param {
		return []Param{
			pc("c", 1.745, 0, 100, "CPuct, the exploration constant at N = 0"),
			pc("cbase", 38739, 1, 1e9, "CPuctBase of the cpuct schedule"),
			pc("cfactor", 3.894, 0, 1000, "CPuctFactor: c(N) = c + cfactor·ln((N + cbase)/cbase)"),
			pc("fpu", fpu, -100, 100, fpuDoc),
			pc("softmax", 1.359, 0.1, 10, "policy softmax temperature T: the policy is p^(1/T) normalised"),
		}
	}
	lc0Build := func(abs bool) func(map[string]float64, *Instance) core.Rule {
		return func(a map[string]float64, _ *Instance) core.Rule {
			return Lc0{CPuct: a["c"], CPuctBase: a["cbase"], CPuctFactor: a["cfactor"], FPU: a["fpu"], Absolute: abs, Softmax: a["softmax"]}
		}
	}
	fuegoParams := func(b, rave, w0, wf, fpu float64) []Param {
		return []Param{
			pc("b", b, 0, maxC, "bias term constant B of sqrt(ln N(F)/(n+1))"),
			pc("rave", rave, 0, 1, "1 turns RAVE on, 0 off"),
			pcOpen("w0", w0, 0, maxK, "raveWeightInitial"),
			pcOpen("wf", wf, 0, maxK, "raveWeightFinal"),
			pc("fpu", fpu, 0, maxK, "first-play urgency: the value of a child with neither visits nor RAVE data"),
			pc("rr", 20, 0, maxK, "with RAVE on, ignore it in one selection of rr (0: never; below 1 counts as 1)"),
		}
	}
	fuegoBuild := func(a map[string]float64, _ *Instance) core.Rule {
		return Fuego{Bias: a["b"], Rave: a["rave"] >= 0.5, W0: a["w0"], Wf: a["wf"], FPU: a["fpu"], RandomizeRave: randomizeRave(a["rr"])}
	}
	return []*Entry{
		{
			Name:    "leela-zero",
			Summary: "Leela Zero: Q + c·P·sqrt(N·ln(0.015N+1.7))/(1+n), unvisited Q = parent's − 0.25·sqrt(visited policy)",
			Params: []Param{
				pc("c", 0.5, 0, maxC, "cfg_puct"),
				pc("fpu", 0.25, 0, maxC, "cfg_fpu_reduction (the root's too)"),
				pc("logpuct", 0.015, 0, maxC, "cfg_logpuct"),
				pcOpen("logconst", 1.7, 1, maxC, "cfg_logconst (> 1, so that the logarithm is positive)"),
			},
			Predicted: Prediction{Eq4: true, Source: srcLeelaZero,
				Why: zeroPriorWhy + "its first-play value is the parent's mean minus 0.25·sqrt(visited policy), below a visited sibling with P > 0, whose value the parent's mean follows; with every P > 0 the term grows like sqrt(N ln N) and it would be consistent"},
			build: func(a map[string]float64, _ *Instance) core.Rule {
				return LeelaZero{C: a["c"], FPU: a["fpu"], LogPUCT: a["logpuct"], LogConst: a["logconst"]}
			},
		},
		{
			Name:    "lc0",
			Summary: "lc0, FPU reduction: Q + c(N)·P·sqrt(N−1)/(1+n), c(N) = 1.745 + 3.894·ln((N+38739)/38739), unvisited Q = parent's − 0.33·sqrt(visited policy)",
			Params:  lc0Params(0.330, "FPU reduction (FpuValue, lc0's [-1,1] scale)"),
			Predicted: Prediction{Consistent: true, Frugal: FrugalNo, Eq4: true, Source: srcLc0 + ", node.cc (Edge::SetP)",
				Why: lc0Why,
				Practical: "a move whose network policy is 0 is stored as 2^-31 and, with the FPU reduction's value of the parent's Q − 0.33, starved for about 2^46 simulations on (max 0~1 1) (an estimate): beyond any run, within the checker's horizon. " +
					"lc0 #644 (a reply with policy 0.0135 not found in 2M nodes) and #1410 (an only winning move at 621k visits against 50M, a Q gap of about 0.02) are such finite-N starvation with P > 0"},
			build: lc0Build(false),
		},
		{
			Name:    "lc0-absolute",
			Summary: "lc0, absolute FPU: as lc0, an unvisited child's Q is the fixed fpu (FpuStrategy absolute, FpuValue 0.33)",
			Params:  lc0Params(0.330, "absolute first-play Q on lc0's [-1,1] scale (FpuValue; 0.33 is a reward of 0.665)"),
			Predicted: Prediction{Consistent: true, Frugal: FrugalNo, Eq4: true, Source: srcLc0 + ", node.cc (Edge::SetP)",
				Why: lc0Why,
				Practical: "a move whose network policy is 0 is stored as 2^-31: unvisited, its Q is the absolute FPU 0.33 (a reward of 0.665), and it is starved for about 2^44 simulations below a sibling at 0.75 on (max 0.75~1 1); " +
					"after a losing first simulation its Q is −1, but its term c(N)·2^-31·sqrt(N)/2 still grows, and it returns after about 2^52 simulations against a sibling at Q = 0.5 (estimates)"},
			build: lc0Build(true),
		},
		{
			Name:    "katago",
			Summary: "KataGo: U + (1+0.45·ln((W+500)/500))·sqrt(W+0.01)·f_σ·P/(1+n); only the best-policy unvisited child is a candidate, at U(F) − 0.2·sqrt(visited policy)",
			Params: []Param{
				pc("c", 1.0, 0, 10, "cpuctExploration"),
				pc("clog", 0.45, 0, 10, "cpuctExplorationLog"),
				pc("cbase", 500, 10, 100000, "cpuctExplorationBase"),
				pc("sigma0", 0.4, 1e-8, 10, "cpuctUtilityStdevPrior σ0"),
				pc("sigmaw", 2, 0, 100, "cpuctUtilityStdevPriorWeight"),
				pc("sigmascale", 0.85, 0, 1, "cpuctUtilityStdevScale"),
				pc("fpu", 0.2, 0, 2, "fpuReductionMax"),
				pc("rootfpu", 0.1, 0, 2, "rootFpuReductionMax (0.1 without root noise)"),
			},
			Predicted: Prediction{Eq4: true, Source: srcKataGo,
				Why: zeroPriorWhy + "when it is the best-policy unvisited child its value is U(F) − 0.2·sqrt(visited policy), below the siblings U(F) follows; with every P > 0 the candidate's term grows like sqrt(W) and each child is eventually expanded"},
			build: func(a map[string]float64, _ *Instance) core.Rule {
				return KataGo{C: a["c"], CLog: a["clog"], CBase: a["cbase"], StdevPrior: a["sigma0"], StdevWeight: a["sigmaw"],
					StdevScale: a["sigmascale"], FPU: a["fpu"], RootFPU: a["rootfpu"]}
			},
		},
		{
			Name:    "openspiel-uct",
			Summary: "OpenSpiel UCT: Q + c·sqrt(ln N/n), N = 1 + Σn, unvisited first, children shuffled at expansion",
			Params:  []Param{pc("c", 2, 0, maxC, "uct_c")},
			Predicted: Prediction{Consistent: true, Frugal: FrugalNo, Eq4: true, Source: srcOpenSpiel,
				Why: "UCT (Eq. 12) on the [-1,1] scale with C = 2: every child is visited infinitely often and the bonus vanishes against the mean"},
			build: func(a map[string]float64, _ *Instance) core.Rule { return OpenSpielUCT{C: a["c"]} },
			refine: func(p Prediction, a map[string]float64, _ *Instance) Prediction {
				if a["c"] == 0 {
					p.Consistent, p.Frugal, p.Why = false, FrugalUnknown, "c = 0 is greedy with unvisited children first: a good move that loses its first simulation is never tried again"
				}
				return p
			},
		},
		{
			Name:    "openspiel-puct",
			Summary: "OpenSpiel PUCT: Q + c·P·sqrt(N)/(n+1), N = 1 + Σn, unvisited Q = 0 (a draw)",
			Params:  []Param{pc("c", 2, 0, maxC, "uct_c")},
			Predicted: Prediction{Eq4: true, Source: srcOpenSpiel,
				Why: zeroPriorWhy + "unvisited, its value is 0 (a draw, a reward of 1/2), so a bad sibling whose mean stays above 1/2 keeps it unvisited; " +
					"in binary games bad siblings fall to −1 and it is tried, but if that first simulation loses, its Q is −1 and, with no exploration term, " +
					"it is never selected again (PUCTValue: Q + c·P·sqrt(N)/(n+1), with P = 0 nothing but Q), below every visited sibling with P > 0"},
			build: func(a map[string]float64, _ *Instance) core.Rule { return OpenSpielPUCT{C: a["c"]} },
		},
		{
			Name:    "mctx-muzero",
			Summary: "mctx MuZero: q̂ + sqrt(N)·(1.25 + ln((N+19653)/19652))·P/(n+1), q̂ min–max normalised over the parent and siblings, 0 unvisited; root P mixed with noise",
			Params: []Param{
				pc("c", 1.25, 0, maxC, "pb_c_init"),
				pcOpen("base", 19652, 0, maxK, "pb_c_base"),
				pc("noise", 0.25, 0, 1, "dirichlet_fraction at the root, the noise taken at its mean 1/k"),
			},
			Predicted: Prediction{Eq4: true, Source: srcMctx + ", policies.py",
				Why: "the root's policy is mixed with Dirichlet noise (fraction 0.25 by default), so no root child's policy is 0, but an interior node's, softmax(prior_logits), can be: " +
					zeroPriorWhy + "its q̂ is 0, the minimum of the normalisation, so it never beats a visited sibling with P > 0, even in binary games, and the interior node's value, on which the root decides, stays wrong; with every P > 0 the term grows like sqrt(N) and it would be consistent"},
			build: func(a map[string]float64, _ *Instance) core.Rule {
				return MctxMuZero{C: a["c"], Base: a["base"], Noise: a["noise"]}
			},
		},
		{
			Name:    "mctx-gumbel",
			Summary: "mctx Gumbel MuZero, interior nodes: argmax softmax(ln P + (50 + max n)·0.1·q̂) − n/(1+Σn), q̂ completed by the mixed value and rescaled",
			Params: []Param{
				pc("scale", 0.1, 0, maxC, "value_scale"),
				pc("visitinit", 50, 0, maxK, "maxvisit_init"),
			},
			Predicted: Prediction{Eq4: true, Source: srcMctx + ", seq_halving.py",
				Why: "the rescaled q̂ gap between the best child and an underestimated one is amplified by (50 + max n)·0.1, so the latter's target share falls like e^(−0.1·n): its visits are summable and it can starve (Eq. 5); a policy of 0 is a share of 0 outright"},
			build: func(a map[string]float64, _ *Instance) core.Rule {
				return MctxGumbel{Scale: a["scale"], VisitInit: a["visitinit"]}
			},
		},
		{
			Name:    "fuego",
			Summary: "Fuego, SgUctSearch defaults: V̂ + 0.7·sqrt(ln N/(n+1)), RAVE off, unvisited 10000",
			Params:  fuegoParams(0.7, 0, 0.9, 20000, 10000),
			Predicted: Prediction{Consistent: true, Frugal: FrugalNo, Eq4: true, Source: srcFuego,
				Why: "a UCB1 bound with bias 0.7 over n+1 and a first-play urgency above every value: every child is visited infinitely often and the bias vanishes against the mean"},
			build: fuegoBuild,
			refine: func(p Prediction, a map[string]float64, _ *Instance) Prediction {
				if a["b"] == 0 {
					p.Consistent, p.Frugal, p.Why = false, FrugalUnknown, "b = 0 is greedy on the (blended) value: a good move whose value falls to 0 after a first loss is never tried again"
				}
				return p
			},
		},
		{
			Name:    "fuego-go",
			Summary: "Fuego, GoUctGlobalSearch defaults (9×9): RAVE blend β·V' + (1−β)·V̂, β = r/(n·(1/1 + r/5000) + r), no bias, unvisited 1, RAVE ignored 1 in 20",
			Params:  fuegoParams(0, 1, 1, 5000, 1),
			Predicted: Prediction{Eq4: true, Source: srcFuegoGo,
				Why: "bias 0: greedy on the RAVE blend, and greedy on the mean in the 1-in-20 selections without RAVE; a good move whose mean and RAVE value fall to 0 after a first loss stays below a bad move with a positive mean for ever"},
			build: fuegoBuild,
		},
		{
			Name:    "pachi-ucb1amaf",
			Summary: "Pachi ucb1amaf: β·V' + (1−β)·V̂, β = r/(r + n + n·r/3000), no exploration term, 14 prior playouts at 1/2, random ties",
			Params: []Param{
				pcOpen("equiv", 3000, 0, maxK, "equiv_rave"),
				pc("eqex", 14, 0, maxK, "prior playouts of value 1/2 per move (the even prior)"),
			},
			Predicted: Prediction{Eq4: true, Source: srcPachi,
				Why: "explore_p 0: greedy on the blend; where AMAF is silent the even prior makes it the smoothed mean (w + 7)/(n + 14) of Eq. 14, so an untried move keeps 1/2 and a move that lost its first simulations less, below a sibling whose graded mean stays above that (as smoothed fails off binary games)"},
			build: func(a map[string]float64, _ *Instance) core.Rule { return Pachi{Equiv: a["equiv"], Eqex: a["eqex"]} },
		},
		{
			Name:    "ludii-ucb1tuned",
			Summary: "Ludii UCB1-Tuned: Q + sqrt(ln N/n · min(1, σ² + c·sqrt(ln N/n))), σ² the rewards' sample variance (Needs.Squares), unvisited at the parent's mean",
			Params:  []Param{pc("c", math.Sqrt2, 0, maxC, "explorationConstant")},
			Predicted: Prediction{Consistent: true, Frugal: FrugalNo, Eq4: true, Source: srcLudii + "069ebefd655303fc90669897d00ab91469261b10 AI/src/search/mcts/selection/UCB1Tuned.java",
				Why: "for a child with fixed n the term sqrt(ln N/n·min(1, …)) grows without bound (Eq. 5) and vanishes for children visited in proportion to N (Eq. 4)"},
			build: func(a map[string]float64, _ *Instance) core.Rule { return LudiiUCB1Tuned{C: a["c"]} },
		},
		{
			Name:    "ludii-progressive-bias",
			Summary: "Ludii Progressive Bias: Q + c·sqrt(ln N/n) + 10·H/n, unvisited 2·(parent's mean) + c·sqrt(ln N)",
			Params:  []Param{pc("c", math.Sqrt2, 0, maxC, "explorationConstant")},
			Predicted: Prediction{Consistent: true, Frugal: FrugalNo, Eq4: true, Stuck: true,
				Source:    srcLudii + "78e44976932c68bd448af5bb6e613b3662d251cc AI/src/search/mcts/selection/ProgressiveBias.java",
				Why:       "in the limit the heuristic term 10·H/n is bounded and fades like 1/n, while c·sqrt(ln N/n) grows without bound for a child with fixed n (Eq. 5) and vanishes for children visited in proportion to N (Eq. 4)",
				Practical: "stuck through 2^62 simulations on (max 0 0.25~-1) (gen.HeuristicTrap(-1, 1/4)): after one simulation the good move with H = −1 pays 10 (on a [-1,1] scale) that only c·sqrt(ln N) repays, at ln N ≈ ((10 − 0.5)/√2)² ≈ 45, about 2^65 simulations (an estimate)"},
			build: func(a map[string]float64, _ *Instance) core.Rule { return LudiiProgressiveBias{C: a["c"]} },
		},
		{
			Name:    "ludii-progressive-history",
			Summary: "Ludii Progressive History: Q + c·sqrt(ln N/n) + Hist·3/((1−Q)·n + 1), Hist the move's AMAF mean here",
			Params: []Param{
				pc("w", 3, 0, maxC, "W, the weight of the history term"),
				pc("c", math.Sqrt2, 0, maxC, "explorationConstant"),
			},
			Predicted: Prediction{Source: srcLudii + "78e44976932c68bd448af5bb6e613b3662d251cc AI/src/search/mcts/selection/ProgressiveHistory.java",
				Why: "the history term Hist·W/((1−Q)·n + 1) fades only with the child's losses ((1−Q)·n is twice them): a child that wins every simulation (Q = 1) keeps W·Hist for ever, " +
					"and where the move's history is negative (Ludii: its mean at that ply over the whole search; here its AMAF mean, fed by the siblings' subtrees) that is a penalty of up to W = 3 on a [-1,1] scale; " +
					"the winning child then gets only the O(ln n) visits of a UCB1 arm with a gap, too few to lift its history, so its parent's mean stays low (Eq. 4 fails for the better child): " +
					"in (max (max 1@1 (max 0@1)@2 (max 0@1)@6 (max 0@1)@7)@3 0.125@4) the inner node's mean tends to 0 on many seeds and the root keeps the decoy"},
			build: func(a map[string]float64, _ *Instance) core.Rule {
				return LudiiProgressiveHistory{W: a["w"], C: a["c"]}
			},
		},
		{
			Name:    "ludii-ag0",
			Summary: "Ludii AlphaGo Zero PUCT: Q + 2.5·P·sqrt(N)/(1+n), unvisited Q = parent's mean",
			Params:  []Param{pc("c", 2.5, 0, maxC, "explorationConstant")},
			Predicted: Prediction{Eq4: true, Source: srcLudii + "3a931cf5965e8a6aecc3b01e2a43be5cb6ce3d79 AI/src/search/mcts/selection/AG0Selection.java",
				Why: zeroPriorWhy + "its value is the parent's mean, a visit-weighted average of its siblings' means, never above the best visited sibling's Q plus its positive term, even in binary games"},
			build: func(a map[string]float64, _ *Instance) core.Rule { return LudiiAG0{C: a["c"]} },
		},
	}
}

// randomizeRave turns fuego's rr parameter into the frequency: 0 is never,
// values in (0,1) count as 1 (every selection ignores RAVE).
func randomizeRave(rr float64) float64 {
	if rr > 0 {
		return max(rr, 1)
	}
	return 0
}
