// Package tree provides explicit game trees for testing MCTS selection rules:
// a compact tree type, a builder, the text format every tool and report uses,
// and an exact minimax/expectimax solver that serves as the oracle.
//
// A [Tree] stores its nodes as flat arrays numbered in breadth-first order:
// the root is node 0, the children of node i are the contiguous range
// [First(i), First(i)+NumChildren(i)), and every child comes after its parent.
// [Tree.Game] returns a [Cursor] that walks the tree as a [core.Game] without
// allocating.
//
// Trees are made by a [Builder], which takes nodes bottom-up in any order and
// checks them in [Builder.Build], or by [Parse], which reads the text format:
//
//	tree   := leaf | '(' kind item* ')'
//	leaf   := number                  reward in [0,1]
//	kind   := 'max' | 'min' | 'chance'
//	item   := [prob ':'] tree ['@' move] ['~' prior]
//	prob   := number in (0,1]         only (and always) under chance; they sum to 1
//	move   := integer in [0, 2^20)    move identity (MaxMove); default: the child's index
//	prior  := number                  heuristic value of the move; default: none
//
// The children of a max or min node have distinct moves, given or by
// default (AMAF statistics are kept per move): (max 1@0 0@0) and
// (max 1@1 0) are errors.
//
// For example
//
//	(max (min 1 0)@3~0.8 (chance 0.5:(min 1 1) 0.5:0)~-0.2)
//
// Whitespace is free and ';' starts a comment that runs to the end of the line.
// [Tree.String] prints the canonical form, and printing then parsing gives the
// same tree back. Parse errors are [*ParseError] values that give the byte
// offset and what was expected there. Parse reads at most [MaxParseNodes]
// nodes (2^22), which bounds its memory;
// [ParseLimit] sets another bound.
//
// Errors about a node name it by its path from the root: the root is written
// 0 and each step down to child k appends .k, so "node 0.2.1" is child 1 of
// child 2 of the root (see [FormatPath]).
//
// [Solve] computes the Bellman value V of every node and the optimal children
// of every max and min node in one linear pass. With rewards and probabilities
// on dyadic grids (multiples of 1/16 and 1/8) the values are exact in float64,
// so ties between optimal children are real ties.
//
// [Tree.Without], [Tree.WithLeaf], [Tree.Hoist], [Tree.WithReward] and
// [Tree.WithoutPriors] return edited copies of a tree, the steps a shrinker takes
// toward a smaller counterexample; [Tree.WithLeaves] and
// [Tree.WithoutChildren] take many such steps in one copy. Each result is
// checked like a built tree.
//
// Random trees and the trap families of the literature are in package tree;
// implicit games (the benchmarks' synth workload, tic-tac-toe) in package
// games.
//
// Nothing in this package recurses on the shape of a tree: building, parsing,
// printing and solving a chain a million nodes deep uses a constant amount of
// goroutine stack.
package tree
