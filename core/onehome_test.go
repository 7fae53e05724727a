package core_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// sqrtAllowed are the files of package rules that may take a square root
// themselves, each for a term that is not the UCT formula's: ε-greedy's
// decaying ε, MC-RAVE's β, and the engine presets, whose own terms work on
// their engines' scales (Q = 2V̂ − 1, PUCT's sqrt(N), KataGo's variance).
// Every other rule takes UCT's exploration term from core (UCTScore,
// UCTScoreScaled, UCTFactor).
var sqrtAllowed = map[string]bool{
	"epsgreedy.go": true, "rave.go": true,
	"fuego.go": true, "katago.go": true, "lc0.go": true, "leelazero.go": true,
	"ludii.go": true, "mctx.go": true, "openspiel.go": true,
}

// argmaxLoop matches the hand-written argmax of a selection loop
// ("best, bestScore := 0, math.Inf(-1)" and the like).
var argmaxLoop = regexp.MustCompile(`best, best\w* :?= `)

// TestOneHome keeps docs/guide.md's "Where to change what" true for the UCT
// formula and the argmax: a rule outside sqrtAllowed that calls math.Sqrt,
// or any rule that writes its own argmax loop instead of calling
// core.Argmax (or ArgmaxScore, ArgmaxVisited), fails it.
func TestOneHome(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "rules", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no rules sources: %v", err)
	}
	for _, f := range files {
		name := filepath.Base(f)
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			code, _, _ := strings.Cut(line, "//")
			if strings.Contains(code, "math.Sqrt(") && !sqrtAllowed[name] {
				t.Errorf("rules/%s:%d calls math.Sqrt: take UCT's term from core.UCTScore, UCTScoreScaled or UCTFactor, or add the file to sqrtAllowed with the reason", name, i+1)
			}
			if argmaxLoop.MatchString(code) {
				t.Errorf("rules/%s:%d writes its own argmax: call core.Argmax, ArgmaxScore or ArgmaxVisited", name, i+1)
			}
		}
	}
}
