// Command referee plays one game of Go between two GTP engines and prints
// the moves, the result and the game in SGF. scripts/gtp-vs-gnugo.sh uses
// it to play mctscheck gtp against GNU Go.
//
// Usage:
//
//	go run ./cmd/referee -black 'CMD' -white 'CMD' [-size 9] [-komi 7.5] [-maxmoves N] [-sgf FILE]
//
// Each CMD is run with sh -c. The referee checks every move on its own
// board (area scoring, positional superko) and ends the game at two
// consecutive passes, a resignation or the move cap; it prints its own
// Tromp–Taylor count and each engine's final_score. Exit status: 0 a game
// played to its end, 1 an engine failed or played an illegal move, 2 bad
// usage.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"

	"github.com/mctscheck/mctscheck/games/goboard"
	"github.com/mctscheck/mctscheck/gtp"
	"github.com/mctscheck/mctscheck/match"
)

func main() {
	black := flag.String("black", "", "the black engine's command `CMD` (run with sh -c)")
	white := flag.String("white", "", "the white engine's command `CMD`")
	size := flag.Int("size", 9, "the board `size`")
	komi := flag.Float64("komi", 7.5, "the `komi`")
	maxMoves := flag.Int("maxmoves", 0, "the move cap `N` (0: 3·size²)")
	sgfFile := flag.String("sgf", "", "write the game to `FILE`")
	quiet := flag.Bool("q", false, "do not print the moves as they are played")
	flag.Parse()
	if *black == "" || *white == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "referee: give -black CMD and -white CMD (see go doc ./cmd/referee)")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := play(ctx, *black, *white, goboard.Config{Size: *size, Komi: *komi, NoKomi: *komi == 0, MaxMoves: *maxMoves}, *sgfFile, *quiet); err != nil {
		fmt.Fprintln(os.Stderr, "referee:", err)
		os.Exit(1)
	}
}

func play(ctx context.Context, blackCmd, whiteCmd string, cfg goboard.Config, sgfFile string, quiet bool) error {
	black, err := gtp.Start(os.Stderr, "sh", "-c", blackCmd)
	if err != nil {
		return fmt.Errorf("black: %w", err)
	}
	defer black.Close()
	white, err := gtp.Start(os.Stderr, "sh", "-c", whiteCmd)
	if err != nil {
		return fmt.Errorf("white: %w", err)
	}
	defer white.Close()
	names := [2]string{}
	for i, e := range []*gtp.Client{black, white} {
		name, err := e.Send("name")
		if err != nil {
			return err
		}
		version, _ := e.Send("version")
		names[i] = name + " " + version
	}
	fmt.Printf("black: %s\nwhite: %s\n", names[0], names[1])
	rc := match.RefereeConfig{Go: cfg, Black: names[0], White: names[1]}
	if !quiet {
		rc.Move = func(n int, color, vertex string) {
			sep := " "
			if n%10 == 0 {
				sep = "\n"
			}
			fmt.Printf("%d.%s %s%s", n, color, vertex, sep)
		}
	}
	g, err := match.Referee(ctx, black, white, rc)
	if !quiet {
		fmt.Println()
	}
	if err != nil {
		return err
	}
	winner := map[string]string{"b": "black", "w": "white", "": "nobody (a draw)"}[g.Winner]
	fmt.Printf("end: %s after %d moves\n", g.End, len(g.Moves))
	fmt.Printf("referee's Tromp-Taylor count: %s, so %s wins\n", goboard.ScoreText(g.Score), winner)
	fmt.Printf("black's final_score: %s\nwhite's final_score: %s\n", g.BlackScore, g.WhiteScore)
	if sgfFile != "" {
		if err := os.WriteFile(sgfFile, []byte(g.SGF), 0o644); err != nil {
			return err
		}
		fmt.Printf("sgf: %s\n", sgfFile)
	}
	return nil
}
