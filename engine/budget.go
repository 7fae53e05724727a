package engine

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// minimumWords finds the smallest budget an engine names in a refusal:
// Pachi's "Error: minimum 500 playouts." or "at least 500 visits".
var minimumWords = regexp.MustCompile(`(?i)\b(?:minimum|at least)\s+(?:of\s+)?(\d+)`)

// MinimumBudget returns the minimum budget an engine's message names, or
// 0 when it names none.
func MinimumBudget(msg string) int {
	m := minimumWords.FindStringSubmatch(msg)
	if m == nil {
		return 0
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		return 0
	}
	return n
}

// SuggestBudgets returns budgets like bs whose smallest is at least min,
// in the form of mctscheck engine's -budgets: a doubling range LO..HI
// keeps doubling from the first LO·2^k ≥ min (up to HI or that, whichever
// is larger); a list keeps its budgets ≥ min, or is min alone.
func SuggestBudgets(bs []int, min int) string {
	doubling := len(bs) > 1
	for i := 1; i < len(bs); i++ {
		doubling = doubling && bs[i] == 2*bs[i-1]
	}
	if doubling {
		lo := bs[0]
		for lo < min {
			lo *= 2
		}
		return fmt.Sprintf("%d..%d", lo, max(bs[len(bs)-1], lo))
	}
	var kept []string
	for _, b := range bs {
		if b >= min {
			kept = append(kept, strconv.Itoa(b))
		}
	}
	if len(kept) == 0 {
		return strconv.Itoa(min)
	}
	return strings.Join(kept, ",")
}

// BudgetError is an engine that refuses the check's smallest budget: it
// faulted at its start with that budget and named a minimum above it.
type BudgetError struct {
	Budget, Minimum int
	Fault           string // what the engine did and said
	Suggest         string // budgets that start at the minimum (SuggestBudgets)
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("the engine refuses a budget of %d (%s); it names a minimum of %d: give -budgets %s",
		e.Budget, e.Fault, e.Minimum, e.Suggest)
}

// budgetHint says, when a fault names a minimum budget above the smallest
// of budgets, which budgets to give instead; otherwise "".
func budgetHint(fault string, budgets []int) string {
	min := MinimumBudget(fault)
	if min <= budgets[0] {
		return ""
	}
	return fmt.Sprintf("the engine names a minimum of %d: try -budgets %s", min, SuggestBudgets(budgets, min))
}

// BudgetHint says, when a fault of the report names a minimum budget
// above the smallest budget of the check, which budgets to give instead;
// otherwise "".
func (r *Report) BudgetHint() string {
	for _, pr := range r.Positions {
		for _, t := range pr.Trials {
			if t.Fault == "" {
				continue
			}
			if h := budgetHint(t.Fault, r.Config.Budgets); h != "" {
				return h
			}
		}
	}
	return ""
}

// probe starts the engine with the smallest budget and the first seed and
// asks it the first command of every trial, before the positions are
// solved: an engine that refuses the budget at its start (Pachi: "Error:
// minimum 500 playouts.") is a *BudgetError at once, with the budgets to
// give instead. Any other fault is left to the trials, which report it.
func probe(ctx context.Context, args []string, budget int, timeout time.Duration) error {
	proc, err := start(args)
	if err != nil {
		return nil // the trials report it
	}
	if _, err := proc.send(ctx, "boardsize 19", time.Now().Add(min(timeout, 30*time.Second))); err == nil {
		proc.close()
		return nil
	}
	proc.kill()
	fault := "it ended at its start: " + proc.exited()
	if s := lastLines(proc.stderr.String(), 3); s != "" {
		fault += ": " + s
	}
	if m := MinimumBudget(fault); m > budget {
		return &BudgetError{Budget: budget, Minimum: m, Fault: fault}
	}
	return nil
}
