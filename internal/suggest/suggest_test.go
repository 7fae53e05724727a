package suggest

import "testing"

// TestNearest: slips of the keyboard find the name meant; names far from
// every known one find none.
func TestNearest(t *testing.T) {
	for _, c := range []struct{ word, want string }{{"x", ""}, {"v", ""}, {"cc", "c"}, {"flor", "floor"}} {
		if got, _ := Nearest(c.word, []string{"c", "k", "floor"}); got != c.want {
			t.Errorf("Nearest(%q) among parameters = %q, want %q", c.word, got, c.want)
		}
	}
	known := []string{"uct", "greedy-fpu", "smoothed", "rave", "rave-floor", "eps-greedy", "eps-greedy-decay", "leela-zero", "lc0", "check", "run", "rules"}
	for _, c := range []struct{ word, want string }{
		{"uctt", "uct"},
		{"UCT", "uct"},
		{"ucb", "uct"},
		{"greedyfpu", "greedy-fpu"},
		{"greedy_fpu", "greedy-fpu"},
		{"greedy-fp", "greedy-fpu"},
		{"epsgreedy", "eps-greedy"},
		{"smoohted", "smoothed"},
		{"leela", "leela-zero"},
		{"chek", "check"},
		{"rue", "run"},
		{"xyz", ""},
		{"x", ""},
		{"lc1", "lc0"},
		{"eps", ""}, // two names begin with it
		{"mcts", ""},
	} {
		got, ok := Nearest(c.word, known)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("Nearest(%q) = %q, %v; want %q", c.word, got, ok, c.want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"abc", "abc", 0}, {"abc", "acb", 1}, {"kitten", "sitting", 3}, {"ca", "abc", 3}} {
		if d := distance(c.a, c.b); d != c.d {
			t.Errorf("distance(%q, %q) = %d, want %d", c.a, c.b, d, c.d)
		}
	}
}
