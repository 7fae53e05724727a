package cli

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mctscheck/mctscheck/games/goboard"
	gtpclient "github.com/mctscheck/mctscheck/gtp"
	"github.com/mctscheck/mctscheck/internal/version"
	"github.com/mctscheck/mctscheck/match"
)

// TestGTPSession runs a scripted GTP session through the whole protocol,
// errors included, and compares the transcript.
func TestGTPSession(t *testing.T) {
	script := strings.Join([]string{
		"1 protocol_version",
		"name",
		"# a comment line gets no reply",
		"",
		"2 known_command genmove",
		"known_command frobnicate",
		"frobnicate",
		"list_commands extra",
		"3 boardsize 25",
		"boardsize nine",
		"boardsize 5",
		"komi 0.3",
		"komi 6.5",
		"play b C3",
		"play w C3",
		"play purple C4",
		"play w Z1",
		"play w I2",
		"play w",
		"play\tw  D4 # tabs and comments",
		"is_legal b D4",
		"is_legal b B2",
		"is_legal b X9",
		"4 genmove b",
		"showboard",
		"final_score",
		"time_settings 0 1 1",
		"clear_board",
		"5",
		"play b \x01B2",
		"showboard",
		"quit",
		"name",
	}, "\n") + "\n"
	r := mctscheck(t, script, "gtp", "-rule", "uct", "-budget", "50", "-size", "9")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	want := strings.Join([]string{
		"=1 2",
		"= mctscheck",
		"=2 true",
		"= false",
		"? unknown command",
		"? syntax error: want list_commands ",
		"?3 unacceptable size: 25, want 5 to 19",
		`? syntax error: boardsize "nine" is not an integer`,
		"=",
		"? komi 0.3, want a multiple of 0.5 between -25 and 25",
		"=",
		"=",
		"? illegal move: C3: point is occupied",
		`? syntax error: invalid color "purple", want b, black, w or white`,
		`? syntax error: vertex "Z1": column 'Z', want A to E (no I)`,
		`? syntax error: vertex "I2": GTP has no column I`,
		"? syntax error: want play COLOR VERTEX",
		"=",
		"= 0",
		"= 1",
		`? syntax error: vertex "X9": column 'X', want A to E (no I)`,
		"=4 GENMOVE",
		"= \nSHOWBOARD",
		"= SCORE",
		"=",
		"=",
		"?5 syntax error: an id without a command",
		"=",
		"= \n" + strings.Join([]string{
			"   A B C D E",
			" 5 . . . . . 5",
			" 4 . . . . . 4",
			" 3 . . . . . 3",
			" 2 . X . . . 2",
			" 1 . . . . . 1",
			"   A B C D E",
			"komi 6.5, white to move, 1 moves played, playing; Tromp-Taylor score B+18.5"}, "\n"),
		"=",
	}, "\n\n") + "\n\n"
	got := r.stdout
	// The search's move, and the board and score it leads to, are checked
	// below; the transcript pins the rest.
	gen := strings.SplitN(strings.SplitN(got, "=4 ", 2)[1], "\n", 2)[0]
	v, err := goboard.ParseVertex(gen, 5)
	if err != nil || v == 25 {
		t.Fatalf("genmove b = %q: %v, want a point", gen, err)
	}
	b, err := goboard.NewBoard(goboard.Config{Size: 5, Komi: 6.5}, "b C3", "w D4", "b "+gen)
	if err != nil {
		t.Fatalf("genmove b = %s: %v", gen, err)
	}
	board := strings.TrimSuffix(b.String(), "\n") + "\nkomi 6.5, white to move, 3 moves played, playing; Tromp-Taylor score " + goboard.ScoreText(b.Score())
	want = strings.Replace(want, "GENMOVE", gen, 1)
	want = strings.Replace(want, "SHOWBOARD", board, 1)
	want = strings.Replace(want, "SCORE", goboard.ScoreText(b.Score()), 1)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("transcript (-want +got):\n%s", diff)
	}
	// The same session gives the same replies.
	if again := mctscheck(t, script, "gtp", "-rule", "uct", "-budget", "50", "-size", "9"); again.stdout != got {
		t.Errorf("a second session differs:\n%s", again.stdout)
	}
}

// TestGTPEdges: the end of the input without quit, a last line without a
// newline, a line too long, CRLF line ends, a game that is over, genmove
// for the player not to move, and bad flags.
func TestGTPEdges(t *testing.T) {
	tests := []struct {
		stdin string
		want  string
	}{
		{"name", "= mctscheck\n\n"},
		{"name\r\nversion\r\n", "= mctscheck\n\n= " + version.Module + " (rule uct:c=1.4142135623730951, 20 simulations per move)\n\n"},
		{strings.Repeat("x", 70000) + "\nname\n", "? line too long (more than 65536 bytes)\n\n= mctscheck\n\n"},
		{"play b pass\nplay w pass\ngenmove b\nplay b A1\nfinal_score\n", "=\n\n=\n\n= pass\n\n? illegal move: A1: the game is over (two passes)\n\n= W+7.5\n\n"},
		{"play b pass\nplay w pass\ngenmove w\ngenmove b\n", "=\n\n=\n\n= pass\n\n= pass\n\n"},
		{"play b C3\ngenmove b\n", "=\n\n= "},
		{"boardsize 19\nplay b T19\nplay w A20\n", "=\n\n=\n\n? syntax error: vertex \"A20\": row 20, want 1 to 19\n\n"},
		{"komi 0\nplay b pass\nplay w pass\nfinal_score\n", "=\n\n=\n\n=\n\n= 0\n\n"},
	}
	for _, tt := range tests {
		r := mctscheck(t, tt.stdin, "gtp", "-rule", "uct", "-budget", "20", "-size", "5")
		if r.code != 0 || !strings.HasPrefix(r.stdout, tt.want) {
			t.Errorf("stdin %.40q: exit %d, stdout %q, want %q", tt.stdin, r.code, r.stdout, tt.want)
		}
	}
	// genmove for White while Black is to move: White moves, Black is
	// still to move after it.
	r := mctscheck(t, "play b C3\ngenmove w\nshowboard\n", "gtp", "-rule", "uct", "-budget", "20", "-size", "5")
	if !strings.Contains(r.stdout, "black to move, 2 moves played") {
		t.Errorf("genmove w with Black to move:\n%s", r.stdout)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"gtp"}, "gtp: -rule: missing"},
		{[]string{"gtp", "-rule", "uct", "-size", "4"}, "-size 4"},
		{[]string{"gtp", "-rule", "uct", "-komi", "0.2"}, "-komi 0.2"},
		{[]string{"gtp", "-rule", "uct", "-budget", "0"}, "-budget 0"},
		{[]string{"gtp", "-rule", "uct", "-budget", "1"}, "-budget 1: want 2 to"},
		{[]string{"gtp", "-rule", "uct", "-json"}, "-json: gtp has no JSON output"},
		{[]string{"gtp", "-rule", "nope"}, `-rule: rules: unknown rule "nope"`},
	} {
		r := mctscheck(t, "", c.args...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) || r.stdout != "" {
			t.Errorf("mctscheck %s: exit %d, stderr %q, stdout %q; want 2 and %q", strings.Join(c.args, " "), r.code, r.stderr, r.stdout, c.want)
		}
	}
}

// gtpSession starts a gtp session of the tool in this process and returns
// a client for it and a function that waits for its end.
func gtpSession(t *testing.T, args ...string) (*gtpclient.Client, func() int) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		code := mctscheckTool.Run(append([]string{"gtp"}, args...), inR, outW, io.Discard)
		outW.Close()
		done <- code
	}()
	return gtpclient.NewClient(outR, inW), func() int { inW.Close(); return <-done }
}

// TestGTPSelfPlay: the referee plays a whole 5×5 game between two gtp
// sessions of the tool, and both count the final position as the referee
// does.
func TestGTPSelfPlay(t *testing.T) {
	black, waitB := gtpSession(t, "-rule", "threshold:v=0.3,rule=mc-rave", "-budget", "100")
	white, waitW := gtpSession(t, "-rule", "uct", "-budget", "100", "-seed", "2")
	g, err := match.Referee(context.Background(), black, white, match.RefereeConfig{Go: goboard.Config{Size: 5}})
	if err != nil {
		t.Fatal(err)
	}
	if g.End != "two passes" && g.End != "move cap" {
		t.Errorf("the game ended by %q", g.End)
	}
	if s := goboard.ScoreText(g.Score); g.BlackScore != s || g.WhiteScore != s {
		t.Errorf("final_score: black %q, white %q; the referee counts %s", g.BlackScore, g.WhiteScore, s)
	}
	for _, c := range []*gtpclient.Client{black, white} {
		if err := c.Close(); err != nil {
			t.Error(err)
		}
	}
	if b, w := waitB(), waitW(); b != 0 || w != 0 {
		t.Errorf("exit codes %d and %d", b, w)
	}
}

// TestGTPvsGNUGo plays a 9×9 game against GNU Go 3.8 to its end when gnugo
// is installed: every move of each side is accepted by the other.
// scripts/gtp-vs-gnugo.sh plays a stronger game.
func TestGTPvsGNUGo(t *testing.T) {
	path := gtpclient.FindGNUGo()
	if path == "" {
		t.Skip("gnugo not installed (apt-get install gnugo, or set GNUGO); skipping the game against GNU Go")
	}
	if testing.Short() {
		t.Skip("-short: skipping the game against GNU Go")
	}
	ours, wait := gtpSession(t, "-rule", "threshold:v=0.3,rule=mc-rave", "-budget", "100")
	gnugo, err := gtpclient.Start(nil, path, "--mode", "gtp", "--chinese-rules", "--positional-superko", "--level", "0", "--seed", "1")
	if err != nil {
		t.Fatal(err)
	}
	g, err := match.Referee(context.Background(), ours, gnugo, match.RefereeConfig{Go: goboard.Config{}, Black: "mctscheck", White: "gnugo"})
	if err != nil {
		t.Fatalf("after %d moves: %v", len(g.Moves), err)
	}
	if (g.End != "two passes" && g.End != "move cap") || g.WhiteScore == "" || g.BlackScore != goboard.ScoreText(g.Score) {
		t.Errorf("end %q, final_score: ours %q (referee %s), GNU Go's %q", g.End, g.BlackScore, goboard.ScoreText(g.Score), g.WhiteScore)
	}
	t.Logf("%d moves; referee's count %s, GNU Go's final_score %s", len(g.Moves), goboard.ScoreText(g.Score), g.WhiteScore)
	if err := gnugo.Close(); err != nil {
		t.Error(err)
	}
	ours.Close()
	if code := wait(); code != 0 {
		t.Errorf("exit %d", code)
	}
}
