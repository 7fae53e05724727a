// Package picture draws a game tree and a witness's search on it: the tree
// as SVG (for report.html) and as Graphviz DOT (solve -dot, check -dot),
// both from one set of facts (Facts: each node's kind, exact value,
// optimal and chosen children, simulations and shares), and the
// convergence of a witness's search beside the average over every tree as
// an SVG chart. It uses the standard library only, so that a command built
// with cli.Main draws its report without a plotting library.
package picture
