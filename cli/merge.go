package cli

import (
	"encoding/json"
	"os"
	"strings"

	"github.com/mctscheck/mctscheck/gen"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
	"github.com/mctscheck/mctscheck/tree"
)

const mergeUsage = `Usage: mctscheck merge [-out DIR] [-json] REPORT.json...

Merge makes, from the reports of the N shards of one check or run (each
run with -shard K/N, K from 1 to N, on one machine or on N), the report
that the check or run would have made in one process: the same verdicts,
witnesses, counts, curves and simulations; only the timings differ (the
shards' are summed). A REPORT is a shard's report.json, or its -json
output, which is the same document.

Merge folds the shards' evidence search by search in the check's order,
as the check does, up to the search that would have ended it, and takes
the witness from the shard that shrank it. It prints what check or run
prints, writes the same report directory with -out (report.md,
report.html, report.json), and exits as check or run would have: 1 for
a contradicted prediction (a stuck search), 4 for a fault, 0 otherwise.

The reports must be all the shards of one check or run, made by the same
version of the command with the same flags. Merge refuses, with exit
code 2, reports of different checks, flags or versions, missing or
repeated shards, a report cut short or edited, a report of a whole check,
and an interrupted shard (run that shard again).

Examples:

  mctscheck check -rule greedy-fpu -shard 1/2 -json > 1.json
  mctscheck check -rule greedy-fpu -shard 2/2 -json > 2.json
  mctscheck merge -out /tmp/greedy 1.json 2.json
  mctscheck run -shard 3/4 -out shard-3      # on each of four machines
  mctscheck merge -out report shard-*/report.json
`

func cmdMerge(e *env, args []string) error {
	fs := newFlagSet("merge", mergeUsage)
	fs.args = true
	out := fs.String("out", "", "write the merged report `DIR`ectory: report.md, report.html, report.json")
	asJSON := fs.Bool("json", false, "print one JSON document instead of text")
	if err := fs.parse(e, args); err != nil {
		return err
	}
	paths := fs.Args()
	if len(paths) == 0 {
		return usagef("give the report.json (or -json output) of every shard (see %s merge -h)", e.tool.name())
	}
	if *out != "" {
		if err := writableDir(*out); err != nil {
			return usagef("-out %s: %v", *out, err)
		}
	}
	var runs []*runDoc
	var checks []*checkDoc
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return usagef("%v", err)
		}
		var keys map[string]json.RawMessage
		if err := json.Unmarshal(data, &keys); err != nil {
			return usagef("%s: not a report's JSON: %v", p, err)
		}
		var into any
		if _, ok := keys["rules"]; ok {
			runs = append(runs, new(runDoc))
			into = runs[len(runs)-1]
		} else {
			checks = append(checks, new(checkDoc))
			into = checks[len(checks)-1]
		}
		if err := json.Unmarshal(data, into); err != nil {
			return usagef("%s: not a report of check or run: %v", p, err)
		}
	}
	switch {
	case len(runs) > 0 && len(checks) > 0:
		return usagef("the reports are of run and of check: give the shards of one of them")
	case len(runs) > 0:
		doc, err := mergeRuns(e, paths, runs)
		if err != nil {
			return err
		}
		return writeRun(e, doc, *out, *asJSON)
	}
	return mergeChecks(e, paths, checks, *out, *asJSON)
}

// mergeRuns makes the run document that the shards' documents docs, read
// from paths, are the parts of.
func mergeRuns(e *env, paths []string, docs []*runDoc) (*runDoc, error) {
	d0 := docs[0]
	shard0 := d0.Options.Shard
	for i, d := range docs {
		switch {
		case d.Options.Shard == "":
			return nil, usagef("%s: not a shard's report: run with -shard K/N writes those", paths[i])
		case withoutShard(d.Command, d.Options.Shard) != withoutShard(d0.Command, shard0):
			return nil, usagef("%s and %s are shards of different runs:\n  %s\n  %s", paths[0], paths[i], d0.Command, d.Command)
		case len(d.Rules) != len(d0.Rules):
			return nil, usagef("%s has %d rules, %s %d: shards of different runs", paths[0], len(d0.Rules), paths[i], len(d.Rules))
		}
	}
	doc := &runDoc{Command: withoutShard(d0.Command, shard0), Options: d0.Options, replayNote: e.tool.replayNote(), title: e.tool.name()}
	doc.Options.Shard = ""
	var insts []*rules.Instance
	for r := range d0.Rules {
		results := make([]*ruleResult, len(docs))
		for i, d := range docs {
			results[i] = &d.Rules[r]
		}
		in, err := rules.Parse(d0.Rules[r].Spec)
		if err != nil {
			return nil, usagef("the rule %s: %v", d0.Rules[r].Spec, err)
		}
		rep, err := mergeResults(paths, results)
		if err != nil {
			return nil, err
		}
		res := *results[0]
		res.Report, res.Verdict = rep, rep.Verdict
		res.Agreement = agreementOf(in.Predicted, rep.Verdict)
		doc.Rules = append(doc.Rules, res)
		insts = append(insts, in)
		doc.ElapsedNS += int64(rep.Elapsed)
	}
	doc.expectation = e.tool.expectation(insts)
	var extra []gen.Trap
	if f := strings.Fields(doc.Command); len(f) > 1 && f[1] == "presets" || strings.Contains(doc.Command+" ", " -presets ") {
		extra = gen.EngineTraps() // as run -presets checks
	}
	doc.countTraps(extra)
	doc.count()
	return doc, nil
}

// mergeChecks merges the shards' documents of check, read from paths,
// and writes what the whole check would have written.
func mergeChecks(e *env, paths []string, docs []*checkDoc, out string, asJSON bool) error {
	d0 := docs[0]
	shard0 := d0.Options.Shard
	results := make([]*ruleResult, len(docs))
	for i, d := range docs {
		o, o0 := d.Options, d0.Options
		o.Shard, o0.Shard = "", ""
		switch {
		case d.Options.Shard == "":
			return usagef("%s: not a shard's report: check with -shard K/N writes those", paths[i])
		case withoutShard(d.Command, d.Options.Shard) != withoutShard(d0.Command, shard0) || d.Tree != d0.Tree || o != o0 || d.Spec != d0.Spec:
			return usagef("%s and %s are shards of different checks:\n  %s\n  %s", paths[0], paths[i], d0.Command, d.Command)
		}
		results[i] = &d.ruleResult
	}
	rep, err := mergeResults(paths, results)
	if err != nil {
		return err
	}
	doc := checkDoc{Tree: d0.Tree, Options: d0.Options, ruleResult: *results[0]}
	doc.Options.Shard = ""
	doc.Report, doc.Verdict = rep, rep.Verdict
	doc.Replay = nil // a shard's alone: the whole check's document has none
	w := checkOutput{dir: out, command: withoutShard(d0.Command, shard0), json: asJSON, replay: d0.Replay}
	if results[0].Report.Shard.Search {
		doc.ruleResult = searchResult(doc.Spec, props.Options{BinaryOnly: doc.BinaryOnly}, rep)
		w.search, w.expectation = true, searchPrediction.Source
		return writeCheck(e, &doc, rep, w)
	}
	in, err := rules.Parse(doc.Spec)
	if err != nil {
		return usagef("the rule %s: %v", doc.Spec, err)
	}
	var tr *tree.Tree
	if doc.Tree != "" {
		if tr, err = tree.Parse(doc.Tree); err != nil {
			return usagef("the tree of %s: %v", paths[0], err)
		}
	}
	doc.Agreement = agreementOf(in.Predicted, rep.Verdict)
	if tr != nil {
		doc.Agreement = checkAgreement(in, tr, rep.Verdict)
	}
	w.expectation = e.tool.expectation([]*rules.Instance{in})
	return writeCheck(e, &doc, rep, w)
}

// mergeResults merges one rule's (or search's) results in the shards'
// documents, read from paths, into the whole check's report.
func mergeResults(paths []string, results []*ruleResult) (*props.Report, error) {
	reps := make([]*props.Report, len(results))
	for i, r := range results {
		switch {
		case r.Agreement == Interrupted || r.Verdict == props.Interrupted || r.Stopped != "":
			return nil, usagef("%s: the check of %s was interrupted: run that shard again", paths[i], r.Name)
		case r.Report == nil || r.Report.Shard == nil:
			return nil, usagef("%s: %s has no shard record: not a report of -shard K/N", paths[i], r.Name)
		case r.Spec != results[0].Spec:
			return nil, usagef("%s checks %s where %s checks %s: shards of different runs", paths[i], r.Spec, paths[0], results[0].Spec)
		}
		r.Report.Verdict, r.Report.Rule = r.Verdict, r.Spec // not in the JSON form, where the result names the rule
		if w := r.Report.Witness; w != nil {
			w.Rule = r.Spec
		}
		reps[i] = r.Report
	}
	rep, err := props.Merge(reps...)
	if err != nil {
		return nil, usagef("%s: %s", results[0].Name, strings.TrimPrefix(err.Error(), "props: Merge: "))
	}
	rep.Shard = nil
	return rep, nil
}
