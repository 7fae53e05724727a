// Package gtp speaks the Go Text Protocol, version 2 (G. Farnebäck, "GTP —
// Go Text Protocol", draft 2), both ways.
//
// Client drives a Go engine (GNU Go, Leela Zero, mctscheck gtp) over its
// standard input and output (Start) or any pair of pipes (NewClient):
// Send sends one command and returns its reply. match.Referee plays a game
// between two clients, and goboard's tests check the board against GNU Go
// through one.
//
// Engine is the other side: it plays Go with a selection rule, each
// genmove a search of the kind a match plays (match.Think) from the
// current position of a goboard.History. Serve runs a whole session, Do
// one command line; `mctscheck gtp` serves standard input and output. The
// commands are those of Commands: protocol_version, name, version,
// known_command, list_commands, quit, boardsize, clear_board, komi, play,
// genmove, showboard, final_score, is_legal, time_settings and time_left.
// A genmove when the game is over answers pass.
package gtp
