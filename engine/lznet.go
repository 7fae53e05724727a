package engine

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
)

// Leela Zero's network geometry (src/config.h and src/Network.h of
// leela-zero 0.17): 18 input planes, a 19×19 board, 362 policy outputs
// (361 points and the pass), a 256-unit value layer, and 2 and 1 output
// planes of the policy and value heads.
const (
	lzInputPlanes   = 18
	lzPoints        = 19 * 19
	lzPolicyOutputs = lzPoints + 1
	lzValueLayer    = 256
	lzPolicyPlanes  = 2
	lzValuePlanes   = 1
	lzBoardSize     = 19
	// lzBlackToMovePlane is the input plane that is all ones when Black is
	// to move (Network::gather_features: 8 history planes of the mover's
	// stones, 8 of the opponent's, then Black to move, White to move).
	lzBlackToMovePlane = 16
)

// WriteLeelaZeroNetwork writes a Leela Zero network in its text format,
// version 1, with one residual block of one filter, so that whatever the
// position:
//   - the policy is the softmax of policyBias (index y·19+x for the point of
//     column x and row y, both from 0 at A1; index 361 is the pass), which
//     Leela Zero then renormalizes over the legal moves;
//   - the value, for the player to move, is (1 + tanh(b)) / 2 with b =
//     blackBias when Black is to move and whiteBias when White is.
//
// When the two biases are equal every weight is zero and b is the value
// layer's last bias. Otherwise four weights carry the "Black to move" input
// plane (all ones when Black is to move) to the value: the input
// convolution's centre tap from that plane, the value head's 1×1
// convolution, the first value unit's 361 weights (1/361 each, so the unit
// is 1 when Black is to move and 0 otherwise) and that unit's weight in the
// last layer (blackBias − whiteBias), with whiteBias as the last bias. The
// policy head's weights stay zero, so the policy does not change.
//
// The layout is the one Network::load_v1_network reads (src/Network.cpp):
// a line "1", then one line per array, space-separated, in this order
// (F = 1 filter, B = 1 block): the input convolution (F·18·9 weights, F
// biases, F batch-norm means, F variances); per block, two convolutions
// (F·F·9 weights, F biases, F means, F variances each); the policy head
// (2·F weights, 2 biases, 2 means, 2 variances, then 362·722 weights and 362
// biases); the value head (F weights, 1 bias, 1 mean, 1 variance, then
// 256·361 weights, 256 biases, 256 weights and 1 bias). That is
// 1 + 4 + 8·B + 14 = 27 lines. Variances are 1, so the zero activations
// pass the batch norms unchanged.
func WriteLeelaZeroNetwork(w io.Writer, policyBias []float64, blackBias, whiteBias float64) error {
	if len(policyBias) != lzPolicyOutputs {
		return fmt.Errorf("engine: %d policy biases, want %d (361 points and the pass)", len(policyBias), lzPolicyOutputs)
	}
	for i, b := range policyBias {
		if math.IsNaN(b) || math.IsInf(b, 0) || math.Abs(b) > 80 {
			return fmt.Errorf("engine: policy bias %d is %v, want a number between -80 and 80", i, b)
		}
	}
	for _, v := range []float64{blackBias, whiteBias} {
		if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 20 {
			return fmt.Errorf("engine: value bias %v, want a number between -20 and 20", v)
		}
	}
	byColor := blackBias != whiteBias
	const filters, blocks = 1, 1
	bw := bufio.NewWriter(w)
	line := func(xs ...[]float64) {
		first := true
		for _, x := range xs {
			for _, v := range x {
				if !first {
					bw.WriteByte(' ')
				}
				first = false
				bw.WriteString(strconv.FormatFloat(v, 'g', -1, 32))
			}
		}
		bw.WriteByte('\n')
	}
	zeros := func(n int) []float64 { return make([]float64, n) }
	ones := func(n int) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = 1
		}
		return x
	}
	conv := func(in int, weights []float64) {
		line(weights)
		line(zeros(filters))
		line(zeros(filters))
		line(ones(filters))
	}
	bw.WriteString("1\n")
	input := zeros(filters * lzInputPlanes * 9)
	if byColor {
		input[lzBlackToMovePlane*9+4] = 1 // centre tap of the 3×3 kernel
	}
	conv(lzInputPlanes, input)
	for range 2 * blocks {
		conv(filters, zeros(filters*filters*9))
	}
	// Policy head.
	line(zeros(lzPolicyPlanes * filters))
	line(zeros(lzPolicyPlanes))
	line(zeros(lzPolicyPlanes))
	line(ones(lzPolicyPlanes))
	line(zeros(lzPolicyOutputs * lzPolicyPlanes * lzPoints))
	line(policyBias)
	// Value head.
	conv1, fc1, fc2 := zeros(lzValuePlanes*filters), zeros(lzValueLayer*lzValuePlanes*lzPoints), zeros(lzValueLayer)
	if byColor {
		conv1[0] = 1
		for i := range lzPoints {
			fc1[i] = 1.0 / lzPoints
		}
		fc2[0] = blackBias - whiteBias
	}
	line(conv1)
	line(zeros(lzValuePlanes))
	line(zeros(lzValuePlanes))
	line(ones(lzValuePlanes))
	line(fc1)
	line(zeros(lzValueLayer))
	line(fc2)
	line([]float64{whiteBias})
	return bw.Flush()
}
