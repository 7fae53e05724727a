package searchexec

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/mctscheck/mctscheck/props"
)

// appendRequest appends a search request, one JSON line: the tree in the
// text format, the seed as a decimal string (a double cannot hold every
// 64-bit seed) and the checkpoints.
func appendRequest(b []byte, text string, seed uint64, checkpoints []int64) []byte {
	b = append(b, `{"tree":`...)
	q, _ := json.Marshal(text) // a string always marshals
	b = append(b, q...)
	b = append(b, `,"seed":"`...)
	b = strconv.AppendUint(b, seed, 10)
	b = append(b, `","checkpoints":[`...)
	for i, c := range checkpoints {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, c, 10)
	}
	return append(b, "]}\n"...)
}

// parseHandshake reads the program's handshake: a JSON object whose
// version is one mctscheck speaks.
func parseHandshake(line []byte) (Capabilities, error) {
	var caps Capabilities
	if err := json.Unmarshal(line, &caps); err != nil {
		return caps, fmt.Errorf("not a JSON object with the handshake's fields (%v)", err)
	}
	if caps.Version != ProtocolVersion {
		return caps, fmt.Errorf("protocol version %d; mctscheck speaks version %d (docs/protocol.md)", caps.Version, ProtocolVersion)
	}
	if caps.Rewards != "" && caps.Rewards != "any" && caps.Rewards != "binary" {
		return caps, fmt.Errorf(`"rewards": %q, want "binary" (rewards in {0, 1} only) or "any"`, caps.Rewards)
	}
	return caps, nil
}

// answer is one checkpoint's answer as the program writes it.
type answer struct {
	Sims       *int64     `json:"sims"`
	Done       int64      `json:"done"`
	Decision   *int       `json:"decision"`
	Visits     []int64    `json:"visits"`
	Means      []*float64 `json:"means"`
	NodeVisits []int64    `json:"node_visits"`
	NodeMeans  []*float64 `json:"node_means"`
}

// parseCheckpoint reads one checkpoint's answer: a JSON object with sims,
// decision, visits and means, and node_visits and node_means from a
// program that declared nodes. A null mean is NaN, and so is the mean of a
// child or node with 0 visits, whatever number the program wrote there (a
// library that keeps 0 in an unvisited child's value reports 0, or 0.5 once
// mapped to [0,1]): a mean of no simulation is no statistic
// (docs/protocol.md).
func parseCheckpoint(line []byte, nodes bool) (props.Checkpoint, error) {
	var a answer
	if err := json.Unmarshal(line, &a); err != nil {
		return props.Checkpoint{}, errors.New("not a JSON object of the answer's fields")
	}
	switch {
	case a.Sims == nil || a.Decision == nil || a.Visits == nil || a.Means == nil:
		return props.Checkpoint{}, errors.New(`want "sims", "decision", "visits" and "means"`)
	case nodes && (a.NodeVisits == nil || a.NodeMeans == nil):
		return props.Checkpoint{}, errors.New(`the handshake declared "nodes": want "node_visits" and "node_means"`)
	}
	cp := props.Checkpoint{Sims: *a.Sims, Done: a.Done, Decision: *a.Decision, Visits: a.Visits, Means: means(a.Means, a.Visits)}
	if nodes {
		cp.NodeVisits, cp.NodeMeans = a.NodeVisits, means(a.NodeMeans, a.NodeVisits)
	}
	return cp, nil
}

// means turns JSON numbers and nulls into float64s: NaN for null, and for
// the mean of a child with 0 visits.
func means(ps []*float64, visits []int64) []float64 {
	out := make([]float64, len(ps))
	for i, p := range ps {
		out[i] = math.NaN()
		if p != nil && (i >= len(visits) || visits[i] != 0) {
			out[i] = *p
		}
	}
	return out
}
