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
)

// WriteLeelaZeroNetwork writes a Leela Zero network in its text format,
// version 1, with one residual block of one filter and every weight zero, so
// that whatever the position:
//   - the policy is the softmax of policyBias (index y·19+x for the point of
//     column x and row y, both from 0 at A1; index 361 is the pass), which
//     Leela Zero then renormalizes over the legal moves;
//   - the value, for the player to move, is (1 + tanh(valueBias)) / 2.
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
func WriteLeelaZeroNetwork(w io.Writer, policyBias []float64, valueBias float64) error {
	if len(policyBias) != lzPolicyOutputs {
		return fmt.Errorf("engine: %d policy biases, want %d (361 points and the pass)", len(policyBias), lzPolicyOutputs)
	}
	for i, b := range policyBias {
		if math.IsNaN(b) || math.IsInf(b, 0) || math.Abs(b) > 80 {
			return fmt.Errorf("engine: policy bias %d is %v, want a number between -80 and 80", i, b)
		}
	}
	if math.IsNaN(valueBias) || math.IsInf(valueBias, 0) || math.Abs(valueBias) > 20 {
		return fmt.Errorf("engine: value bias %v, want a number between -20 and 20", valueBias)
	}
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
	conv := func(in int) {
		line(zeros(filters * in * 9))
		line(zeros(filters))
		line(zeros(filters))
		line(ones(filters))
	}
	bw.WriteString("1\n")
	conv(lzInputPlanes)
	for range 2 * blocks {
		conv(filters)
	}
	// Policy head.
	line(zeros(lzPolicyPlanes * filters))
	line(zeros(lzPolicyPlanes))
	line(zeros(lzPolicyPlanes))
	line(ones(lzPolicyPlanes))
	line(zeros(lzPolicyOutputs * lzPolicyPlanes * lzPoints))
	line(policyBias)
	// Value head.
	line(zeros(lzValuePlanes * filters))
	line(zeros(lzValuePlanes))
	line(zeros(lzValuePlanes))
	line(ones(lzValuePlanes))
	line(zeros(lzValueLayer * lzValuePlanes * lzPoints))
	line(zeros(lzValueLayer))
	line(zeros(lzValueLayer))
	line([]float64{valueBias})
	return bw.Flush()
}
