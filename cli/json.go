package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// writeJSON writes v as one indented JSON document.
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

// object is the members of a JSON object, in order: the means by which a
// document puts the tool's fields around those of a library type.
type object []member

// member is one name and value of a JSON object.
type member struct {
	name  string
	value json.RawMessage
}

// objectOf returns the members of the JSON object that v marshals to.
func objectOf(v any) (object, error) {
	if o, ok := v.(object); ok {
		return o, nil
	}
	data, err := marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("%T does not marshal to a JSON object", v)
	}
	o := object{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		m := member{name: t.(string)}
		if err := dec.Decode(&m.value); err != nil {
			return nil, err
		}
		o = append(o, m)
	}
	return o, nil
}

// index returns the position of the member called name, or -1.
func (o object) index(name string) int {
	for i, m := range o {
		if m.name == name {
			return i
		}
	}
	return -1
}

// MarshalJSON writes the members as one object.
func (o object) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, m := range o {
		name, err := marshal(m.name)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(append(append(b, name...), ':'), m.value...)
	}
	return append(b, '}'), nil
}

// joinObjects returns one JSON object with the members of the objects that
// parts marshal to (or are), in order.
func joinObjects(parts ...any) ([]byte, error) {
	var all object
	for _, p := range parts {
		o, err := objectOf(p)
		if err != nil {
			return nil, err
		}
		all = append(all, o...)
	}
	return all.MarshalJSON()
}
