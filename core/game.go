package core

import "strconv"

// Kind is the type of a game position: who moves there, or whether it is
// terminal.
type Kind uint8

const (
	// Terminal positions end the game and carry a reward in [0,1] for max.
	Terminal Kind = iota
	// Max positions are chosen by the max player, who takes the argmax.
	Max
	// Min positions are chosen by the min player; the core hands the rule
	// statistics from min's perspective (rewards 1−r), so it too takes the argmax.
	Min
	// Chance positions draw a child from their distribution; no rule is called.
	Chance
)

// String returns "terminal", "max", "min" or "chance".
func (k Kind) String() string {
	switch k {
	case Terminal:
		return "terminal"
	case Max:
		return "max"
	case Min:
		return "min"
	case Chance:
		return "chance"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Game is a cursor over a finite game tree, driven by move index: a game
// that has not ended after Config.MaxDepth moves is an error. The search
// owns the cursor: it calls Reset to go back to the root and Play to descend,
// never going up. Implementations should not allocate in Play.
//
// Explicit trees (package tree) and implicit games (package games, as in
// its TicTacToe example) implement it alike.
type Game interface {
	// Reset moves the cursor back to the root position.
	Reset()
	// Kind reports the kind of the current position.
	Kind() Kind
	// NumMoves reports the number of children of the current position:
	// 0 at terminal positions, at least 1 elsewhere.
	NumMoves() int
	// Play moves the cursor to child i, 0 <= i < NumMoves().
	Play(i int)
	// Reward is the terminal reward for the max player, in [0,1]. It is only
	// called at terminal positions.
	Reward() float64
	// Prob is the probability of child i at a chance position. It is only
	// called at chance positions; each probability is a number in [0,1]
	// and they sum to 1 within ProbTolerance. The search checks this when
	// it stores a chance position and at every chance position of a
	// roll-out, and fails with a *GameError otherwise.
	Prob(i int) float64
}

// Mover is implemented by games whose moves have identities beyond their
// index, so that AMAF/RAVE statistics can share a move's value across the
// tree. Without it, a move's identity is its index.
type Mover interface {
	// Move returns the identity of child i of the current position, in
	// [0, MoveLimit()).
	Move(i int) int
	// MoveLimit bounds the identities Move returns.
	MoveLimit() int
}

// Heuristic is implemented by games that carry prior knowledge about moves,
// the H(s,a) of the Grand Challenge paper §4.2 or MoGo's pattern value.
type Heuristic interface {
	// Prior returns the heuristic value of child i of the current position,
	// from the perspective of the player who moves there, and whether it has
	// one.
	Prior(i int) (h float64, ok bool)
}

// Playouter is implemented by games that play the search's default roll-out
// themselves, without an interface call per move: from the current
// position, a move drawn as rng.IntN(NumMoves()) at every position until
// the game ends, exactly as the search would draw them, so that the
// statistics do not change. The search uses it in practical mode when it
// has no roll-out Policy, keeps no AMAF statistics and does not read the
// game's GameArrays; games with chance positions should not implement it.
// The search does not look at its context during a Playout, which the
// limit (Config.MaxDepth) bounds.
type Playouter interface {
	// Playout plays such moves until the game ends, or until it has played
	// limit moves, and returns the terminal reward and true, or false if
	// the game had not ended.
	Playout(rng *RNG, limit int) (reward float64, ended bool)
}

// PolicyPlayouter is implemented by roll-out policies (Config.Rollout)
// that can play their whole roll-out on some games themselves, without an
// interface call per move. The search uses it under the conditions of
// Playouter, with the policy in place of the default one.
type PolicyPlayouter interface {
	Policy
	// Playouter returns a Playouter that plays this policy's roll-outs on
	// g from its current position: at every position the move Choose would
	// choose, with the same draws from rng, so that the statistics do not
	// change. It returns nil when it cannot play them on g.
	Playouter(g Game) Playouter
}

// playouterOf returns the Playouter that plays the roll-outs of policy on
// game (nil: the default policy), or nil if there is none.
func playouterOf(game Game, policy Policy) Playouter {
	switch pol := policy.(type) {
	case nil:
		if p, ok := game.(Playouter); ok {
			return p
		}
	case PolicyPlayouter:
		if p := pol.Playouter(game); p != nil {
			return p
		}
	}
	return nil
}
