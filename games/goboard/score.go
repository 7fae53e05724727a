package goboard

// Area returns each player's area by Tromp–Taylor rules (the Chinese area
// count without removing dead stones): the player's stones plus the empty
// points from which only the player's stones can be reached through empty
// points. Empty regions that reach both colors, or none, count for nobody.
//
// The stones are counted as they are played and captured; an empty point
// without an empty neighbour is a region of its own, counted from its
// neighbour counts, so that the end of a light playout, where nearly every
// empty point is such an eye, costs one read a point and no flood fill.
func (b *Board) Area() (black, white int) {
	black, white = b.placed[Black], b.placed[White]
	wide := false
	for _, p := range b.empty[:b.nEmpty] {
		switch nb := b.nb[p]; {
		case nb>>8 != 0:
			wide = true
		case nb&15 == 4:
			black++
		case nb>>4&15 == 4:
			white++
		}
	}
	if wide {
		bw, ww := b.wideRegions()
		black, white = black+bw, white+ww
	}
	return black, white
}

// wideRegions returns the points of the empty regions of two or more
// points that reach only Black's stones and of those that reach only
// White's.
func (b *Board) wideRegions() (black, white int) {
	var seen [maxCells]bool
	var stack [maxCells]int16
	for _, p := range b.empty[:b.nEmpty] {
		if seen[p] || b.nb[p]>>8 == 0 {
			continue
		}
		// Flood the region of p, noting which colors it reaches.
		size, reach := 0, Color(0)
		seen[p] = true
		stack[0] = p
		top := 1
		for top > 0 {
			top--
			q := int(stack[top])
			size++
			for _, t := range b.around(q) {
				switch col := b.color[t]; col {
				case Empty:
					if !seen[t] {
						seen[t] = true
						stack[top] = int16(t)
						top++
					}
				case Black, White:
					reach |= col
				}
			}
		}
		switch reach {
		case Black:
			black += size
		case White:
			white += size
		}
	}
	return black, white
}

// Score returns Black's area minus White's area minus komi (Area): positive
// when Black wins.
func (b *Board) Score() float64 {
	black, white := b.Area()
	return float64(black-white) - b.komi
}

// Reward returns the outcome for Black, the max player: 1 when Black wins on
// Score, 0 when White wins, 1/2 for a draw (possible only with an integer
// komi). It scores the board as it stands, whether or not the game is over.
func (b *Board) Reward() float64 {
	switch s := b.Score(); {
	case s > 0:
		return 1
	case s < 0:
		return 0
	}
	return 0.5
}
