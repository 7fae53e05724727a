package cli

import (
	"context"
	"errors"

	"github.com/mctscheck/mctscheck/games/goboard"
	"github.com/mctscheck/mctscheck/gtp"
	"github.com/mctscheck/mctscheck/match"
)

const gtpUsage = `Usage: mctscheck gtp -rule SPEC [-budget N] [-size 9] [-komi 7.5] [-seed S] [-cpuprofile FILE]

Gtp plays Go as a GTP engine (Go Text Protocol, version 2) on standard
input and output, for GNU Go's twogtp, gogui or any GTP controller. Its
genmove runs one search of -budget simulations with the rule from the
current position (practical growth, light playouts, the match command's
search) and plays the most visited move; it passes when the search says so
or the game is over, and never resigns. Rules: area scoring (Tromp-Taylor)
with komi, no suicide, positional superko; final_score counts the board as
it stands, without removing dead stones.

Commands: protocol_version, name, version, known_command, list_commands,
quit, boardsize, clear_board, komi, play, genmove, showboard, final_score,
is_legal, time_settings and time_left (accepted and ignored). Errors get
GTP's "? message" replies. The same commands and seed give the same
replies. Gtp has no -json: its output is the protocol.

Examples:

  mctscheck gtp -rule threshold:v=0.3,rule=mc-rave -budget 2000
  echo 'genmove b' | mctscheck gtp -rule uct -budget 500
  gnugo --mode gtp   # the other side; scripts/gtp-vs-gnugo.sh plays a game
`

func cmdGTP(e *env, args []string) error {
	fs := newFlagSet("gtp", gtpUsage)
	ruleSpec := fs.String("rule", "", "the rule `SPEC` of genmove's searches, e.g. mc-rave or uct:c=0.7")
	budget := fs.Int("budget", 1000, "`N` simulations per genmove")
	size := fs.Int("size", goboard.DefaultSize, "the board `size` at the start, 5 to 19 (boardsize changes it)")
	komi := fs.Float64("komi", goboard.DefaultKomi, "the `komi` at the start (komi changes it)")
	seed := fs.Uint64("seed", 1, "the `seed` of the searches")
	asJSON := fs.Bool("json", false, "not available: gtp's output is the Go Text Protocol")
	prof := profileFlagOn(fs)
	if err := fs.parse(e, args); err != nil {
		return err
	}
	if *asJSON {
		return usagef("-json: gtp has no JSON output; it speaks the Go Text Protocol on standard output")
	}
	in, err := parseRule(*ruleSpec)
	if err != nil {
		return err
	}
	if *size < goboard.MinSize || *size > goboard.MaxSize {
		return usagef("-size %d: want %d to %d", *size, goboard.MinSize, goboard.MaxSize)
	}
	if *budget < match.MinBudget || *budget > match.MaxBudget {
		return usagef("-budget %d: want %d to %d simulations (a search needs %d to try a move)", *budget, match.MinBudget, match.MaxBudget, match.MinBudget)
	}
	eng, err := gtp.NewEngine(gtp.Config{Player: match.Player{Name: in.Spec, Rule: in.Rule, Backup: in.Backup}, Budget: *budget,
		Size: *size, Komi: *komi, NoKomi: *komi == 0, Seed: *seed})
	if err != nil {
		return usagef("-size %d -komi %v: %v", *size, *komi, err)
	}
	err = withProfile(prof, func() error { return eng.Serve(e.ctx, e.stdin, e.stdout) })
	if errors.Is(err, context.Canceled) && e.ctx.Err() != nil {
		return &interruption{"interrupted"} // Ctrl-C, idle or in a genmove: the replies so far are written
	}
	return err
}
