package picture

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/mctscheck/mctscheck/core"
)

// dotShapes are Graphviz's shapes for the node kinds, SVG's own: max a
// triangle pointing up, min one pointing down, chance a circle, a terminal
// a square.
var dotShapes = map[core.Kind]string{core.Max: "triangle", core.Min: "invtriangle", core.Chance: "circle", core.Terminal: "box"}

// WriteDOT writes the tree as a Graphviz DOT digraph named name, with the
// facts SVG draws: each node's name and kind (its shape), value and, after
// a search, simulations; optimal moves as thick green edges, the decided root child
// outlined in red, the finding's child in orange dashes, the root edges'
// shares and the chance edges' probabilities as edge labels; title, if
// not empty, is the graph's label. `dot -Tsvg` draws it.
func (f *Facts) WriteDOT(w io.Writer, name, title string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "digraph %s {\n", dotID(name))
	b.WriteString("  graph [fontname=\"Helvetica\", fontsize=12, labelloc=b, nodesep=0.5, ranksep=0.6")
	if title != "" {
		fmt.Fprintf(&b, ", label=%s", dotID(title))
	}
	b.WriteString("];\n")
	b.WriteString("  node [fontname=\"Helvetica\", fontsize=11, style=filled, fillcolor=\"#f4f4f4\", color=\"#333333\"];\n")
	b.WriteString("  edge [fontname=\"Helvetica\", fontsize=11, color=\"#9a9a9a\", arrowhead=none];\n")
	for i := range f.Nodes {
		nd := &f.Nodes[i]
		lines := append([]string{nd.Path + " " + nd.Kind.String(), "V=" + Num(nd.Value)}, f.stats(nd)...)
		attrs := []string{"shape=" + dotShapes[nd.Kind], "label=" + dotID(strings.Join(lines, "\n")), "tooltip=" + dotID(f.Describe(nd))}
		switch {
		case nd.Chosen:
			attrs = append(attrs, `color="#d62728"`, "penwidth=3")
			if nd.Mechanism {
				attrs = append(attrs, `style="filled,dashed"`)
			}
		case nd.Mechanism:
			attrs = append(attrs, `color="#ff7f0e"`, "penwidth=3", `style="filled,dashed"`)
		}
		fmt.Fprintf(&b, "  n%d [%s];\n", nd.ID, strings.Join(attrs, ", "))
	}
	for i := range f.Nodes {
		nd := &f.Nodes[i]
		if nd.Parent < 0 {
			continue
		}
		var attrs, lab []string
		if nd.Optimal {
			attrs = append(attrs, `color="#2ca02c"`, "penwidth=4")
		}
		if nd.Prob > 0 {
			lab = append(lab, "p="+Num(nd.Prob))
		}
		if f.Searched && nd.IsRootChild() && !math.IsNaN(nd.Share) {
			lab = append(lab, Percent(nd.Share))
		}
		if len(lab) > 0 {
			attrs = append(attrs, "label="+dotID(strings.Join(lab, " ")))
		}
		fmt.Fprintf(&b, "  n%d -> n%d", nd.Parent, nd.ID)
		if len(attrs) > 0 {
			fmt.Fprintf(&b, " [%s]", strings.Join(attrs, ", "))
		}
		b.WriteString(";\n")
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// dotID quotes s as a DOT string: in double quotes, with quotes and
// backslashes escaped and each newline a centred line break.
func dotID(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}
