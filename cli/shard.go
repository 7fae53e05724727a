package cli

// This file is -shard, which run, check and check -search share: one part
// of a check, whose report merge (merge.go) joins to the others'.

import (
	"fmt"
	"strings"

	"github.com/mctscheck/mctscheck/props"
)

// shardFlag is -shard K/N.
type shardFlag struct{ s props.Shard }

func (f *shardFlag) String() string { return f.s.String() }

func (f *shardFlag) Set(v string) error {
	s, err := props.ParseShard(v)
	if err != nil {
		return err
	}
	f.s = s
	return nil
}

// addShardFlag defines -shard.
func addShardFlag(fs *flagSet) *shardFlag {
	var f shardFlag
	fs.Var(&f, "shard", "run only part `K/N` of the check (the K-th of N; searches dealt out in turn) and write its report, which "+
		"mctscheck merge joins to the other parts' into the whole check's report; the exit code is then 0 whatever the part's verdict")
	return &f
}

// sharded reports whether f names a part.
func (f *shardFlag) sharded() bool { return f.s != (props.Shard{}) }

// shardNote is the line a shard's output ends with, naming what to do next.
func shardNote(s string, what string) string {
	k, n, _ := strings.Cut(s, "/")
	return fmt.Sprintf("This is shard %s of %s of the %s: its verdicts are of this part only. mctscheck merge with the report.json of all %s shards makes the %s's report.\n",
		k, n, what, n, what)
}

// withoutShard removes "-shard K/N" from a command line that shard K/N
// wrote, giving the command line of the whole check.
func withoutShard(command, shard string) string {
	return strings.Replace(command, " -shard "+shard, "", 1)
}
