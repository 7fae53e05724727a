// Package engine checks a real Go engine, spoken to over GTP, against
// positions whose optimal moves are known exactly: it plays genmove at
// doubling budgets and several seeds and reports, for each position, the
// share of the engine's moves that are optimal.
package engine
