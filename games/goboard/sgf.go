package goboard

import (
	"fmt"
	"strconv"
	"strings"
)

// SGFInfo is what an SGF record says about a game besides its moves.
type SGFInfo struct {
	Black, White string // the players' names
	// Game and Seed are the game's number in its match and its seed; with
	// Seed 0 the record names neither.
	Game int
	Seed uint64
}

// SGF returns the game in SGF (FF[4]): size, komi, area rules, the
// players, the result as SGF writes it (B+3.5, W+0.5, 0 for a draw) once
// the game is over, the moves (a pass is an empty value) and a comment
// with how the game stands (and its number and seed).
func (h *History) SGF(info SGFInfo) string {
	b := h.Board()
	var s strings.Builder
	size := b.Size()
	fmt.Fprintf(&s, "(;GM[1]FF[4]CA[UTF-8]AP[mctscheck]SZ[%d]KM[%s]RU[Chinese]", size, strconv.FormatFloat(b.Komi(), 'f', -1, 64))
	fmt.Fprintf(&s, "PB[%s]PW[%s]", sgfText(info.Black), sgfText(info.White))
	if b.Status() != Playing {
		fmt.Fprintf(&s, "RE[%s]", ScoreText(b.Score()))
	}
	comment := fmt.Sprintf("%s, Tromp-Taylor area score %s", b.Status(), strconv.FormatFloat(b.Score(), 'f', -1, 64))
	if info.Seed != 0 {
		fmt.Fprintf(&s, "GN[game %d]", info.Game)
		comment = fmt.Sprintf("game %d, seed %d: %s", info.Game, info.Seed, comment)
	}
	fmt.Fprintf(&s, "C[%s]\n", sgfText(comment))
	for i, mv := range h.moves {
		color, vertex, _ := strings.Cut(mv, " ")
		m, err := ParseVertex(vertex, size)
		if err != nil {
			continue // moves are stored normalised; this cannot happen
		}
		fmt.Fprintf(&s, ";%s[%s]", strings.ToUpper(color[:1]), sgfPoint(m, size))
		if (i+1)%10 == 0 {
			s.WriteByte('\n')
		}
	}
	s.WriteString(")\n")
	return s.String()
}

// sgfPoint returns SGF's coordinates of point identity m: column and row
// letters from the top-left corner, "" for the pass.
func sgfPoint(m, size int) string {
	if m == size*size {
		return ""
	}
	col, row := m%size, size-1-m/size
	return string([]byte{byte('a' + col), byte('a' + row)})
}

// ScoreText writes an area score for Black as SGF's RE value and GTP's
// final_score reply do: B+3.5 when Black wins by 3.5, W+0.5 when White
// wins by 0.5, 0 for a draw.
func ScoreText(score float64) string {
	switch {
	case score > 0:
		return "B+" + strconv.FormatFloat(score, 'f', -1, 64)
	case score < 0:
		return "W+" + strconv.FormatFloat(-score, 'f', -1, 64)
	}
	return "0"
}

// sgfText escapes a SimpleText value: ']' and '\' take a backslash.
func sgfText(s string) string {
	return strings.NewReplacer(`\`, `\\`, `]`, `\]`).Replace(s)
}
