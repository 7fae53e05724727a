package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"

	"github.com/mctscheck/mctscheck/tree"
)

// writeSolveJSON writes solve's JSON document (solveDoc, as writeJSON
// would write it, byte for byte) one root child at a time, so that memory
// stays that of the tree, its solution and one copy of its text however
// many children the root has: a root of 10^7 children needs no
// 10^7-element slice, nor the gigabytes of an indented document held whole.
func writeSolveJSON(out io.Writer, t *tree.Tree, sol *tree.Solution) error {
	w := bufio.NewWriterSize(out, 1<<16)
	var err error
	put := func(parts ...string) {
		for _, p := range parts {
			if err == nil {
				_, err = w.WriteString(p)
			}
		}
	}
	value := func(v any, prefix string) string {
		if err != nil {
			return ""
		}
		var b []byte
		b, err = marshalIndent(v, prefix)
		return string(b)
	}
	put("{\n  \"tree\": ")
	if err == nil {
		err = writeJSONText(w, t.AppendText(nil))
	}
	put(",\n")
	put("  \"kind\": ", value(kindName(t.Kind(0)), ""), ",\n")
	put("  \"value\": ", value(sol.Value(0), ""), ",\n")
	n := t.NumChildren(0)
	if n == 0 {
		put("  \"children\": [],\n")
	} else {
		put("  \"children\": [\n")
		for k := range n {
			sep := ",\n"
			if k == n-1 {
				sep = "\n"
			}
			put("    ", value(rootChild(t, sol, k), "    "), sep)
		}
		put("  ],\n")
	}
	opt := sol.Optimal(0)
	if len(opt) == 0 {
		put("  \"optimal\": []\n")
	} else {
		put("  \"optimal\": [\n")
		for i, k := range opt {
			sep := ",\n"
			if i == len(opt)-1 {
				sep = "\n"
			}
			put("    ", value(k, ""), sep)
		}
		put("  ]\n")
	}
	put("}\n")
	if err != nil {
		return err
	}
	return w.Flush()
}

// marshalIndent is writeJSON's encoding of v, for a value nested at
// prefix's depth, without the final newline.
func marshalIndent(v any, prefix string) ([]byte, error) {
	b, err := marshal(v)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	err = json.Indent(&out, b, prefix, "  ")
	return out.Bytes(), err
}

// writeJSONText writes the JSON string of a tree's text: the text in
// quotes, as the canonical text has nothing to escape, without the copies
// marshal would make of a text of megabytes.
func writeJSONText(w *bufio.Writer, text []byte) error {
	for _, c := range text {
		if c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			b, err := marshal(string(text))
			if err == nil {
				_, err = w.Write(b)
			}
			return err
		}
	}
	w.WriteByte('"')
	w.Write(text)
	return w.WriteByte('"')
}
