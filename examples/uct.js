#!/usr/bin/env node
// A selection rule for mctscheck in JavaScript (Node.js, no packages),
// written from docs/protocol.md alone: JSON framing, version 1.
//
//   uct         V + c*sqrt(ln n(F) / n), unvisited children first, with the
//               arithmetic the page gives ("Same choices"), so that
//               mctscheck check -rule exec:'node examples/uct.js' gives the
//               verdict of mctscheck check -rule uct.
//   eps-greedy  with probability eps a uniformly random child, else the
//               greedy mean (unvisited first), drawing from the site's seed
//               with splitmix64 as the page specifies; it declares its
//               probabilities. It asks for seeds as strings (seed_string):
//               JSON.parse reads numbers as doubles, which cannot hold
//               every 64-bit seed.
//
// Usage: node uct.js [--rule uct|eps-greedy] [--c C] [--eps EPS]
// Log to stderr: stdout carries the protocol.

"use strict";

const readline = require("readline");

const VERSION = 1;
const MASK = (1n << 64n) - 1n;

function parseArgs(argv) {
  const a = { rule: "uct", c: Math.SQRT2, eps: 0.2 };
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i], value = argv[i + 1];
    if (value === undefined) throw new Error("uct.js: " + flag + " needs a value");
    if (flag === "--rule" && (value === "uct" || value === "eps-greedy")) a.rule = value;
    else if (flag === "--c") a.c = Number(value);
    else if (flag === "--eps") a.eps = Number(value);
    else throw new Error("uct.js: unknown flag " + flag + " " + value);
  }
  return a;
}

// uct is core.UCT's choice: unvisited first, then the highest
// w*(1/n) + (c*sqrt(ln))*(1/sqrt(n)), each product rounded on its own; for
// n outside [2^-512, 2^512], w/n + cs/sqrt(n). Ties go to the lower index.
function uct(n, w, ln, c) {
  const cs = c * Math.sqrt(ln);
  let best = 0, bestScore = -Infinity;
  for (let i = 0; i < n.length; i++) {
    const ni = n[i];
    if (ni === 0) return i;
    let score;
    if (ni < 2 ** -512 || ni > 2 ** 512) score = w[i] / ni + cs / Math.sqrt(ni);
    else score = w[i] * (1 / ni) + cs * (1 / Math.sqrt(ni));
    if (score > bestScore) { best = i; bestScore = score; }
  }
  return best;
}

// greedy is the highest mean, unvisited first, ties to the lower index.
function greedy(n, w) {
  let best = 0, bestV = -Infinity;
  for (let i = 0; i < n.length; i++) {
    if (n[i] === 0) return i;
    const v = w[i] / n[i];
    if (v > bestV) { best = i; bestV = v; }
  }
  return best;
}

// SplitMix64 is the page's generator: each draw adds 0x9e3779b97f4a7c15 to
// the state, then mixes the new state.
class SplitMix64 {
  constructor(seed) { this.x = BigInt.asUintN(64, seed); }
  next() {
    this.x = (this.x + 0x9e3779b97f4a7c15n) & MASK;
    let z = this.x;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
    return z ^ (z >> 31n);
  }
}

// epsGreedy draws u = (first draw >> 11)·2^-53; u < eps takes the child
// ((second draw >> 32)·k) >> 32, else the greedy one.
function epsGreedy(n, w, seed, eps) {
  const g = new SplitMix64(BigInt(seed));
  if (Number(g.next() >> 11n) * 2 ** -53 < eps) {
    return Number(((g.next() >> 32n) * BigInt(n.length)) >> 32n);
  }
  return greedy(n, w);
}

function epsProbs(n, w, eps) {
  const p = n.map(() => eps / n.length);
  p[greedy(n, w)] += 1 - eps;
  return p;
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const stochastic = args.rule === "eps-greedy";
  const answer = (site) => {
    if (!stochastic) return uct(site.n, site.w, site.ln, args.c);
    if (site.op === "probs") return epsProbs(site.n, site.w, args.eps);
    return epsGreedy(site.n, site.w, site.seed, args.eps);
  };
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  let hello = true;
  rl.on("line", (line) => {
    if (hello) {
      hello = false;
      const offered = JSON.parse(line).versions || [];
      if (!offered.includes(VERSION)) {
        process.stderr.write("uct.js: mctscheck offers versions " + offered + "; this program speaks " + VERSION + "\n");
        process.exit(1);
      }
      process.stdout.write(JSON.stringify({ version: VERSION, framing: "json", seed: stochastic,
        seed_string: stochastic, probs: stochastic, name: "examples/uct.js --rule " + args.rule }) + "\n");
      return;
    }
    process.stdout.write(JSON.stringify(JSON.parse(line).map(answer)) + "\n");
  });
}

main();
