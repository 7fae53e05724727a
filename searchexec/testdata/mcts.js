// A textbook MCTS in JavaScript (Node.js, no packages), written from
// docs/protocol.md's search protocol and examples/mcts.py's description of
// its search: UCT with C = sqrt(2), one node added per simulation, uniformly
// random roll-outs, the most visited root child decided, every node
// reported. Its random numbers are splitmix64's, seeded with the request's
// seed read as a BigInt (JSON.parse would round a 64-bit number), so that
// it makes examples/mcts.py's searches exactly.
//
// Use: mctscheck check -search exec:'node searchexec/testdata/mcts.js'
"use strict";
const readline = require("readline");

const MASK = (1n << 64n) - 1n;
const C = Math.SQRT2;

// parse reads the tree format into preorder arrays.
function parse(text) {
  const tokens = text.match(/[():@~]|[^\s():@~]+/g);
  const kind = [], reward = [], children = [], prob = [];
  let pos = 0;
  function node(p) {
    const tok = tokens[pos++];
    const i = kind.length;
    prob.push(p);
    children.push([]);
    if (tok !== "(") {
      kind.push("terminal");
      reward.push(Number(tok));
      return i;
    }
    kind.push(tokens[pos++]);
    reward.push(0);
    while (tokens[pos] !== ")") {
      let q = 0;
      if (tokens[pos + 1] === ":") {
        q = Number(tokens[pos]);
        pos += 2;
      }
      children[i].push(node(q));
      while (tokens[pos] === "@" || tokens[pos] === "~") pos += 2; // moves and priors: not used
    }
    pos++;
    return i;
  }
  node(0);
  return { kind, reward, children, prob };
}

function search(t, seed, checkpoints, answer) {
  const n = t.kind.length;
  let rng = seed & MASK;
  const next = () => { // splitmix64
    rng = (rng + 0x9E3779B97F4A7C15n) & MASK;
    let z = rng;
    z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & MASK;
    return z ^ (z >> 31n);
  };
  const intree = new Array(n).fill(false), visits = new Array(n).fill(0), w = new Array(n).fill(0);
  const vl = new Array(n).fill(0), parent = new Array(n).fill(-1), maxes = new Array(n).fill(true);
  for (let i = 0; i < n; i++) {
    for (const c of t.children[i]) {
      parent[c] = i;
      maxes[c] = t.kind[i] !== "min"; // the player who moves into c maximises
    }
  }
  intree[0] = true;
  const draw = (i) => {
    const kids = t.children[i];
    if (t.kind[i] === "chance") {
      let u = Number(next() >> 11n) * 2 ** -53;
      for (const c of kids) {
        u -= t.prob[c];
        if (u < 0) return c;
      }
      return kids[kids.length - 1];
    }
    return kids[Number(((next() >> 32n) * BigInt(kids.length)) >> 32n)];
  };
  const select = (i) => {
    const kids = t.children[i];
    for (const c of kids) if (!intree[c]) return c;
    const cs = C * Math.sqrt(Math.log(visits[i] + vl[i]));
    let best = -1, bestScore = -Infinity;
    for (const c of kids) {
      const ne = visits[c] + vl[c];
      const score = w[c] / ne + cs / Math.sqrt(ne);
      if (score > bestScore) { best = c; bestScore = score; }
    }
    return best;
  };
  const simulate = () => {
    const path = [0];
    let i = 0;
    while (t.kind[i] !== "terminal") {
      i = t.kind[i] === "chance" ? draw(i) : select(i);
      vl[i]++;
      path.push(i);
      if (!intree[i]) { intree[i] = true; break; }
    }
    let j = i;
    while (t.kind[j] !== "terminal") j = draw(j);
    const r = t.reward[j];
    for (const x of path) {
      if (x) vl[x]--;
      visits[x]++;
      w[x] += maxes[x] ? r : 1 - r;
    }
  };
  const mean = (i) => visits[i] === 0 ? null : (maxes[i] ? w[i] / visits[i] : 1 - w[i] / visits[i]);
  let sims = 0;
  for (const cp of checkpoints) {
    for (; sims < cp; sims++) simulate();
    const kids = t.children[0];
    let decision = 0;
    kids.forEach((c, k) => { if (visits[c] > visits[kids[decision]]) decision = k; });
    const means = visits.map((_, i) => mean(i));
    answer({ sims, decision, visits: kids.map((c) => visits[c]), means: kids.map((c) => means[c]),
      node_visits: visits, node_means: means });
  }
}

const lines = readline.createInterface({ input: process.stdin, terminal: false });
let hello = true;
lines.on("line", (line) => {
  if (hello) { // the versions offered must include 1
    hello = false;
    if (!JSON.parse(line).versions.includes(1)) {
      process.stderr.write("mcts.js: mctscheck does not offer search protocol version 1\n");
      process.exit(2);
    }
    process.stdout.write(JSON.stringify({ version: 1, nodes: true, name: "mcts.js" }) + "\n");
    return;
  }
  const req = JSON.parse(line);
  search(parse(req.tree), BigInt(req.seed), req.checkpoints, (a) => process.stdout.write(JSON.stringify(a) + "\n"));
});
