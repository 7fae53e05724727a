package cli

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mctscheck/mctscheck/props"
)

// schemaBlocks are the named blocks of the schema in doc.go and the types
// whose JSON form they describe. A type embedded in another, whose fields
// encoding/json writes in its place, is written "...NAME's fields" in the
// block of the outer one when it has a block of its own.
var schemaBlocks = []struct {
	name string
	typ  any
}{
	{"RESULT", ruleResult{}},
	{"REPORT", props.Report{}},
	{"SHARD", props.ShardReport{}},
	{"POSITION", props.PositionReport{}},
	{"WITNESS", props.Witness{}},
	{"GAMEWITNESS", props.PositionWitness{}},
	{"REPLAY", props.Replay{}},
	{"OPTIONS", optionsDoc{}},
	{"PREDICTION", predictionDoc{}},
}

// TestSchemaBlocks: each block of the schema in doc.go names the JSON
// fields of its type, in the order encoding/json writes them, no more and
// no fewer.
func TestSchemaBlocks(t *testing.T) {
	data, err := os.ReadFile(commandDoc)
	if err != nil {
		t.Fatal(err)
	}
	blockOf := make(map[reflect.Type]string)
	for _, b := range schemaBlocks {
		blockOf[reflect.TypeOf(b.typ)] = b.name
	}
	for _, b := range schemaBlocks {
		doc, err := schemaBlock(string(data), b.name)
		if err != nil {
			t.Errorf("%s: %v", b.name, err)
			continue
		}
		want := jsonFields(reflect.TypeOf(b.typ), blockOf, true)
		if diff := cmp.Diff(want, doc); diff != "" {
			t.Errorf("%s in doc.go is not %T's JSON form (-type +doc):\n%s", b.name, b.typ, diff)
		}
	}
}

// jsonFields lists the JSON names of t's fields in encoding/json's order,
// with the fields of an embedded struct in its place, or "...NAME" for an
// embedded struct that has a block NAME of its own (except at the top).
func jsonFields(t reflect.Type, blockOf map[reflect.Type]string, top bool) []string {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if name, ok := blockOf[t]; ok && !top {
		return []string{"..." + name}
	}
	var out []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-":
		case f.Anonymous && name == "":
			out = append(out, jsonFields(f.Type, blockOf, false)...)
		case !f.IsExported():
		case name == "":
			out = append(out, f.Name)
		default:
			out = append(out, name)
		}
	}
	return out
}

var (
	schemaKey    = regexp.MustCompile(`^"([a-z0-9_]+)"\s*:`)
	schemaSpread = regexp.MustCompile(`^\.\.\.([A-Z]+)'s fields`)
)

// schemaBlock returns the top-level names of block NAME = { … } in the
// doc: its quoted keys and its "...OTHER's fields", in order, without the
// comments and the nested objects' keys.
func schemaBlock(doc, name string) ([]string, error) {
	start := strings.Index(doc, "//\t"+name+" = {")
	if start < 0 {
		return nil, errNoBlock
	}
	var text strings.Builder
	for _, line := range strings.Split(doc[start:], "\n")[1:] {
		line, ok := strings.CutPrefix(line, "//\t")
		if !ok || line == "}" {
			break
		}
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		text.WriteString(line + "\n")
	}
	var out []string
	s, depth := text.String(), 1
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
		case c == '"':
			if m := schemaKey.FindStringSubmatch(s[i:]); m != nil && depth == 1 {
				out = append(out, m[1])
			}
			end := strings.IndexByte(s[i+1:], '"')
			if end < 0 {
				return nil, errNoBlock
			}
			i += end + 1
		case c == '.' && depth == 1:
			if m := schemaSpread.FindStringSubmatch(s[i:]); m != nil {
				out = append(out, "..."+m[1])
				i += len(m[0]) - 1
			}
		}
	}
	return out, nil
}

type schemaError string

func (e schemaError) Error() string { return string(e) }

const errNoBlock = schemaError("no such block, or an unterminated string in it")
