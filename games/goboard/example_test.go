package goboard_test

import (
	"fmt"

	"github.com/mctscheck/mctscheck/games/goboard"
)

// A position is built from GTP vertices; White's C2 captures the black
// stone at C3, and Black may not play back into the hole, which would be
// suicide.
func ExampleBoard() {
	b, err := goboard.NewBoard(goboard.Config{Size: 5},
		"C3", "B3", "E5", "D3", "E4", "C4", "E3", "C2")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(b)
	c3, _ := goboard.ParseVertex("C3", 5)
	fmt.Println(b.ToMove(), "to move:", b.Play(c3))
	black, white := b.Area()
	fmt.Printf("area %d–%d, komi %v: score %+v\n", black, white, b.Komi(), b.Score())
	_, err = goboard.ParseVertex("I3", 9)
	fmt.Println(err)
	// Output:
	//    A B C D E
	//  5 . . . . X 5
	//  4 . . O . X 4
	//  3 . O . O X 3
	//  2 . . O . . 2
	//  1 . . . . . 1
	//    A B C D E
	// black to move: goboard: C3: suicide
	// area 3–5, komi 7.5: score -9.5
	// goboard: vertex "I3": GTP has no column I
}

// At a tree node the Game lists every legal move except eye fills, and the
// pass: in this seki, where A5, A1, C1 and E1 are Black's eyes and E5 is
// White's, each side may only play the shared liberty C5, a self-atari.
func ExampleGame() {
	g, err := goboard.NewGame(goboard.Config{Size: 5},
		"b B5", "b A4", "b B4", "b C4", "b E3", "b A2", "b B2", "b C2", "b D2", "b E2", "b B1", "b D1",
		"w D5", "w D4", "w E4", "w A3", "w B3", "w C3", "w D3")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(g.Board())
	for i := range g.NumMoves() {
		h, _ := g.Prior(i)
		fmt.Printf("%s prior %v\n", goboard.Vertex(g.Move(i), 5), h)
	}
	g.Play(1) // both pass: the seki stands
	g.Play(1)
	fmt.Println(g.Kind(), g.Board().Status(), g.Board().Score(), g.Reward())
	// Output:
	//    A B C D E
	//  5 . X . O . 5
	//  4 X X X O O 4
	//  3 O O O O X 3
	//  2 X X X X X 2
	//  1 . X . X . 1
	//    A B C D E
	// C5 prior -0.5
	// pass prior 0
	// terminal two passes 0.5 1
}
