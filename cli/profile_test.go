package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCPUProfile: -cpuprofile writes a profile (gzip, as go tool pprof
// reads it) for check, run, match and gtp, and an unwritable path is a usage error
// before any work.
func TestCPUProfile(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"check", "-rule", "uct", "-trees", "2", "-seeds", "1", "-budget", "1024"},
		{"run", "-rules", "uct", "-trees", "2", "-seeds", "1", "-budget", "1024", "-out", ""},
		{"match", "-a", "uct", "-b", "uct:c=0.2", "-game", "connect4", "-games", "2", "-budget", "50"},
		{"gtp", "-rule", "uct", "-budget", "50"}, // on an empty input
	} {
		f := filepath.Join(dir, args[0]+".prof")
		r := mctscheck(t, "", append(args, "-cpuprofile", f)...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
		}
		b, err := os.ReadFile(f)
		if err != nil || !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
			t.Errorf("%v: profile %d bytes, %v; want a gzipped profile", args, len(b), err)
		}
	}
	r := mctscheck(t, "", "check", "-rule", "uct", "-cpuprofile", filepath.Join(dir, "no", "such", "dir", "p"))
	if r.code != 2 || !strings.Contains(r.stderr, "-cpuprofile") {
		t.Errorf("unwritable profile: exit %d, want 2 and an error naming -cpuprofile\n%s", r.code, r.stderr)
	}
}
