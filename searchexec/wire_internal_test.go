package searchexec

import (
	"math"
	"testing"
)

// TestUnvisitedMeanIsNone: the mean a program writes for a child or node
// with no visits, null or a number (0.5 from a library that keeps 0 in an
// unvisited child's value in [-1,1]), is read as none (NaN); a visited
// one's as written.
func TestUnvisitedMeanIsNone(t *testing.T) {
	for _, line := range []string{
		`{"sims":64,"decision":0,"visits":[64,0],"means":[0.75,0.5],"node_visits":[64,64,0],"node_means":[0.75,0.75,0.5]}`,
		`{"sims":64,"decision":0,"visits":[64,0],"means":[0.75,0],"node_visits":[64,64,0],"node_means":[0.75,0.75,0]}`,
		`{"sims":64,"decision":0,"visits":[64,0],"means":[0.75,null],"node_visits":[64,64,0],"node_means":[0.75,0.75,null]}`,
	} {
		cp, err := parseCheckpoint([]byte(line), true)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if cp.Means[0] != 0.75 || !math.IsNaN(cp.Means[1]) || cp.NodeMeans[1] != 0.75 || !math.IsNaN(cp.NodeMeans[2]) {
			t.Errorf("%s: means %v, node means %v; want [0.75 NaN] and [0.75 0.75 NaN]", line, cp.Means, cp.NodeMeans)
		}
	}
}
