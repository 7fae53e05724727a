// Package outside holds selection rules written outside the catalogue, as
// a user would write them: from their formulas, through core's public API
// only, with what the theory says of each in the limit and, where the
// behaviour on one small tree is known by hand, what the checker must say
// there.
//
// The checker is judged on them (the tests of this package, and props'
// sweep): its verdicts must hold on rules nobody tuned it to. They cover
// the shapes that fooled earlier checkers:
//
//   - count-periodic rules, which choose by the parent's count modulo k
//     (a probe that changes one child's count also changes the parent's);
//   - bonuses that grow or vanish very slowly (ln ln n), or stop growing
//     because of a bug (a capped count);
//   - stochastic rules that declare nothing (Select only), among them
//     Thompson sampling, which no catalogue rule resembles;
//   - plain bugs: a sign error, integer division, a warm-up that ends.
//
// None of them is registered in the catalogue; none implements
// core.Stochastic or core.Scorer, so the checker must read every one as a
// black box.
package outside
