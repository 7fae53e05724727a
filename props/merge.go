package props

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Merge rebuilds the report of a whole check from the reports of its N
// shards (Options.Shard), given in any order: the report that the check
// would have made in one process, with the same verdict, witness, counts,
// lists, curve and simulations. It folds the shards' records of their
// searches in the check's order, tree after tree and seed after seed, as
// the check does, up to the search that would have ended it, and takes the
// witness from the shard that shrank it from that search. Elapsed is the
// shards' time summed, and SimsPerSecond their simulations over it.
//
// Merge returns an error, which says what is wrong, for reports that are
// not all the shards of one check: a report of no shard, shards of checks
// with other options or trees, made by another version of the checker,
// missing or given twice, and records that do not add up (a report cut
// short or edited). A fault that a shard's rule counted but no search met
// (FaultCounter) makes the merged report that fault, as it makes the
// shard's.
func Merge(shards ...*Report) (*Report, error) {
	parts, err := orderShards(shards)
	if err != nil {
		return nil, err
	}
	s0 := parts[0].Shard
	seeds := parts[0].Seeds
	recs, err := searchIndex(parts)
	if err != nil {
		return nil, err
	}
	o := Options{MinBudget: s0.MinBudget, MaxBudget: int(parts[0].MaxBudget), Window: s0.Window}
	budgets := o.budgets()
	rep := &Report{Rule: parts[0].Rule, Seeds: seeds, MaxBudget: parts[0].MaxBudget}
	nodes, read := true, false // every search read reported every node; some search was read
	var evidence *TreeResult   // the tree whose search ends the check, or the first stuck one
	var evidenceAt int
	for t := 0; t < s0.Trees; t++ {
		var fold *treeFold
		end, text := false, ""
		for j := 0; j < seeds && !end; j++ {
			ref := SearchRef{Tree: t, Seed: s0.FirstSeed + uint64(j)}
			s, ok := recs[ref]
			if !ok {
				return nil, fmt.Errorf("props: Merge: shard %s has no record of the search of tree %d with seed %d: its report was cut short",
					shardOf(unit(t, j, seeds, s0.Search), len(parts)), t, ref.Seed)
			}
			if fold == nil {
				fold = newTreeFold(s.Name, nil, false)
			}
			if s.TreeText != "" {
				text = s.TreeText
			}
			rep.Sims += s.Sims
			if s.Outcome != outcomeFault {
				if len(s.Wrong) != len(budgets) || len(s.Share) != len(budgets) || s.Confidence != nil && len(s.Confidence) != len(budgets) {
					return nil, fmt.Errorf("props: Merge: the record of the search of tree %d with seed %d has a curve of %d, %d and %d points, want %d",
						t, ref.Seed, len(s.Wrong), len(s.Share), len(s.Confidence), len(budgets))
				}
				rep.addCurve(s.curve(budgets))
				nodes, read = nodes && !s.RootOnly, true
			}
			end, _ = fold.add(*s, o, s0.Search)
		}
		if !end {
			fold.settle()
		}
		rep.add(fold.res)
		v := fold.res.Verdict
		if v == Inconclusive {
			rep.Unconverged[len(rep.Unconverged)-1].Tree = text
		}
		if v.ends() || v == Stuck && (s0.Search || evidence == nil) {
			res := fold.res
			evidence, evidenceAt = &res, t
		}
		if v.ends() || v == Stuck && s0.Search {
			break
		}
	}
	if s0.Search && evidence == nil { // no witness: the check searched every tree again
		spot, err := spotFold(parts)
		if err != nil {
			return nil, err
		}
		rep.Sims += spot.sims
		if spot.fault != nil {
			evidence, evidenceAt = &TreeResult{Verdict: Faulted, Seed: s0.FirstSeed}, spot.fault.Tree
		}
	}
	if s0.Search && read {
		rep.NodesReported = &nodes
	}
	rep.Handles = parts[0].Handles
	if !nodes {
		rep.Visited, rep.Recent = 0, 0
	}
	counted, countedSims := countedFault(parts)
	switch {
	case counted != nil && (evidence == nil || evidence.Verdict != Faulted):
		rep.Witness = counted // the rule failed where no search met it: as the shard says
		rep.Sims += countedSims
	case evidence != nil:
		w, sims, err := witnessOf(parts, SearchRef{Tree: evidenceAt, Seed: evidence.Seed}, evidence.Verdict)
		if err != nil {
			return nil, err
		}
		rep.Witness = w
		rep.Sims += sims
	}
	var elapsed time.Duration
	var sims int64
	for _, p := range parts {
		elapsed += p.Elapsed
		sims += p.Sims
	}
	rep.settle(elapsed)
	if s := elapsed.Seconds(); s > 0 {
		rep.SimsPerSecond = float64(sims) / s // the shards' speed: their simulations, a witness's and those past the check's end too
	}
	if s0.Search {
		rep.Summary = searchSummary(rep)
	}
	return rep, nil
}

// orderShards checks that the reports are the N shards of one check, each
// once, and returns them in shard order.
func orderShards(shards []*Report) ([]*Report, error) {
	if len(shards) == 0 {
		return nil, errors.New("props: Merge: no reports")
	}
	var parts []*Report
	for i, r := range shards {
		if r == nil || r.Shard == nil {
			return nil, fmt.Errorf("props: Merge: report %d is no shard's: it has no shard record (a check run with Options.Shard, -shard K/N, has one)", i+1)
		}
		if r.Stopped != "" {
			return nil, fmt.Errorf("props: Merge: shard %s stopped before its end (%s): run it again", r.Shard.Shard, r.Stopped)
		}
		s, err := ParseShard(r.Shard.Shard)
		if err != nil {
			return nil, fmt.Errorf("props: Merge: report %d: %v", i+1, err)
		}
		if parts == nil {
			parts = make([]*Report, s.N)
		}
		a, b := shards[0].Shard, r.Shard
		switch {
		case s.N != len(parts):
			return nil, fmt.Errorf("props: Merge: shard %s and shard %s split the check in different numbers of shards", a.Shard, b.Shard)
		case a.Version != b.Version:
			return nil, fmt.Errorf("props: Merge: shard %s was made by the checker %s, shard %s by %s: run every shard with the same program", a.Shard, a.Version, b.Shard, b.Version)
		case a.Check != b.Check || a.Search != b.Search || a.Trees != b.Trees || a.FirstSeed != b.FirstSeed ||
			a.MinBudget != b.MinBudget || a.Window != b.Window || shards[0].Seeds != r.Seeds || shards[0].MaxBudget != r.MaxBudget:
			return nil, fmt.Errorf("props: Merge: shard %s and shard %s are parts of different checks: %s", a.Shard, b.Shard, checkDiff(a.Check, b.Check))
		case parts[s.K-1] != nil:
			return nil, fmt.Errorf("props: Merge: shard %s is given twice", b.Shard)
		}
		parts[s.K-1] = r
	}
	var missing []string
	for k, p := range parts {
		if p == nil {
			missing = append(missing, fmt.Sprintf("%d/%d", k+1, len(parts)))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("props: Merge: %s missing: give the reports of all %d shards", plural(len(missing), "shard")+" ("+strings.Join(missing, ", ")+")", len(parts))
	}
	return parts, nil
}

// checkDiff names the options in which two checks differ.
func checkDiff(a, b string) string {
	fa, fb := strings.Fields(a), strings.Fields(b)
	var diff []string
	for i := range max(len(fa), len(fb)) {
		x, y := "", ""
		if i < len(fa) {
			x = fa[i]
		}
		if i < len(fb) {
			y = fb[i]
		}
		if x != y {
			diff = append(diff, x+" against "+y)
		}
	}
	if len(diff) == 0 {
		return "their shard records differ"
	}
	return strings.Join(diff, ", ")
}

// searchIndex indexes the shards' records by search, checking that each
// belongs to its shard and is recorded once.
func searchIndex(parts []*Report) (map[SearchRef]*SearchRecord, error) {
	n, seeds := len(parts), parts[0].Seeds
	s0 := parts[0].Shard
	recs := make(map[SearchRef]*SearchRecord)
	for k, p := range parts {
		for i := range p.Shard.Searches {
			s := &p.Shard.Searches[i]
			j := int(s.Seed - s0.FirstSeed)
			switch {
			case s.Tree < 0 || s.Tree >= s0.Trees || s.Seed < s0.FirstSeed || j >= seeds:
				return nil, fmt.Errorf("props: Merge: shard %s records a search (tree %d, seed %d) outside the check", p.Shard.Shard, s.Tree, s.Seed)
			case unit(s.Tree, j, seeds, s0.Search)%n != k:
				return nil, fmt.Errorf("props: Merge: shard %s records the search of tree %d with seed %d, which is shard %s's",
					p.Shard.Shard, s.Tree, s.Seed, shardOf(unit(s.Tree, j, seeds, s0.Search), n))
			case recs[s.SearchRef] != nil:
				return nil, fmt.Errorf("props: Merge: shard %s records the search of tree %d with seed %d twice", p.Shard.Shard, s.Tree, s.Seed)
			}
			recs[s.SearchRef] = s
		}
	}
	return recs, nil
}

// shardOf names the shard of n that runs search u.
func shardOf(u, n int) string { return fmt.Sprintf("%d/%d", u%n+1, n) }

// countedFault is the first shard's fault that no search of the check
// met: a failure its rule counted (Report.counted), or output a search
// wrote late; nil if there is none. sims are the simulations it took.
func countedFault(parts []*Report) (w *Witness, sims int64) {
	for _, p := range parts {
		if w := p.Witness; w != nil && w.Verdict == Faulted && p.Shard.WitnessOf == nil {
			return w, p.Shard.WitnessSims
		}
	}
	return nil, 0
}

// spotCheck is the spot check of a whole search's check that found no
// witness, as its shards' records make it: the simulations, and the first
// tree that faulted, if one did.
type spotCheck struct {
	sims  int64
	fault *SpotRecord
}

// spotFold folds the shards' spot checks in the order of the trees, to the
// first that faulted.
func spotFold(parts []*Report) (spotCheck, error) {
	byTree := map[int]*SpotRecord{}
	for _, p := range parts {
		for i := range p.Shard.Spot {
			byTree[p.Shard.Spot[i].Tree] = &p.Shard.Spot[i]
		}
	}
	var sc spotCheck
	for t := range parts[0].Shard.Trees {
		r, ok := byTree[t]
		if !ok {
			return sc, fmt.Errorf("props: Merge: shard %s did not search tree %d again, as a check that found no witness does: its report was cut short",
				shardOf(t, len(parts)), t)
		}
		sc.sims += r.Sims
		if r.Fault {
			sc.fault = r
			break
		}
	}
	return sc, nil
}

// witnessOf finds the witness shrunk from the search ref, of verdict v,
// and the simulations it took.
func witnessOf(parts []*Report, ref SearchRef, v Verdict) (*Witness, int64, error) {
	for _, p := range parts {
		if at := p.Shard.WitnessOf; at != nil && *at == ref && p.Witness != nil {
			if p.Witness.Verdict != v && p.Witness.Verdict != Faulted { // a fault may be met while shrinking
				return nil, 0, fmt.Errorf("props: Merge: shard %s's witness is %s, but the searches say %s", p.Shard.Shard, p.Witness.Verdict, v)
			}
			return p.Witness, p.Shard.WitnessSims, nil
		}
	}
	holders := []string{}
	for _, p := range parts {
		if slices.ContainsFunc(p.Shard.Searches, func(s SearchRecord) bool { return s.SearchRef == ref }) {
			holders = append(holders, p.Shard.Shard)
		}
	}
	return nil, 0, fmt.Errorf("props: Merge: no shard has the witness from the search of tree %d with seed %d (recorded by shard %s), though the searches say %s",
		ref.Tree, ref.Seed, strings.Join(holders, ", "), v)
}
