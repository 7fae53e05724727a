package cli

import (
	"bytes"
	"encoding/json"
	"io"
)

// writeJSON writes v as one indented JSON document. The documents are
// plain structs: encoding/json writes their fields in order, those of an
// embedded struct (a props.Report in a result) in its place, and a field
// hides a deeper one of the same JSON name (ruleResult.Verdict).
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// marshal returns v's JSON, compact, leaving HTML unescaped as writeJSON
// does.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
