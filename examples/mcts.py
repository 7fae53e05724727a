#!/usr/bin/env python3
"""A textbook Monte-Carlo tree search for mctscheck (Python, standard library only).

mctscheck starts this program and asks it to search whole trees over the
search protocol of docs/protocol.md:

    mctscheck check -search exec:'python3 examples/mcts.py'

Each search is the textbook MCTS (Browne et al. 2012, "A Survey of Monte
Carlo Tree Search Methods", Algorithm 2):

  selection    from the root, a node with a child not yet in the tree adds
               the first such child; a node whose children are all in the
               tree picks by UCT, w/n + C*sqrt(ln N / n) with C = sqrt(2),
               w the rewards from the side of the player who moves into the
               child; a chance node draws a child by its probabilities;
  expansion    one node added per simulation;
  simulation   a uniformly random roll-out from the added node (chance nodes
               drawn by their probabilities) to a terminal;
  backup       the reward added to every node of the path, from the side of
               the player who moved into it; a virtual loss counted on the
               way down is taken back;
  decision     the most visited root child.

It reports the root decision and every node's visits and means at each
checkpoint (the handshake declares "nodes"), so that mctscheck names the
mechanism below the root too. Random numbers come from splitmix64 seeded
with the request's seed, so a search replays exactly.

--bug NAME plants a bug that real engines have had (each witness is the
one the default check, mctscheck check -search, finds):

  fpu-never          a node that has a child in the tree never adds another:
                     its other children are never tried. Inconsistent: a
                     good move after the first is never found (the Eq. 5
                     mechanism: a child starved while its parent's mean
                     stays below its value). Witness: (max 0 1).
  negamax-sign       the backup takes sides by depth parity (max at even
                     depths) instead of by who moves: right while max
                     moves first and the players alternate, wrong where
                     min moves first, one moves twice in a row or a chance
                     node comes between. Inconsistent: at such a node the
                     search plays for the other side (Eq. 4 there: a worse
                     child keeps the simulations). Witness: (min 1 0).
  terminal-rollout   a terminal reached by the search is valued by a
                     roll-out from its parent instead of by its reward.
                     Inconsistent: the search converges to the values of
                     another game (Eq. 7: a terminal's mean is not its
                     reward). Witness: (max 1 0.125).
  virtual-loss-kept  the virtual loss of the descent is never taken back, so
                     a node's count is twice its simulations. Only slow: the
                     exploitation term of every child of a node becomes
                     m/2 for the same m, an order-preserving change, and the
                     exploration term UCT's with C*sqrt(2) and ln 2N; UCT is
                     consistent for any C > 0.
  final-by-mean      the root child with the highest mean is decided, not the
                     most visited. Only slow: UCT simulates every child
                     infinitely often, so every mean converges to its value
                     and the highest mean is eventually an optimal child's;
                     until then a child with a lucky first simulation can be
                     decided (mctscheck's criterion calls a decision wrong
                     only when the decided child also leads in visits).

Three more break a promise of the protocol, which mctscheck checks as a
fault of its own kind (docs/protocol.md, "What mctscheck checks of the
answers"), not as a finding about consistency:

  seed-ignored       the generator is seeded from the clock, not from the
                     request's seed: the same tree and seed give other
                     answers, and no witness would replay. A fault
                     (nondeterministic), showing the first checkpoint at
                     which two searches of the same tree and seed differ.
  mover-means        each node's mean is reported for the player who moves
                     into it (the negamax convention), not for max. A fault
                     (perspective): a terminal under a min node has the
                     mean 1 - reward.
  chance-as-max      a chance node picks its child by UCT, as if max chose
                     the outcome, instead of drawing it: the search searches
                     another game. A fault (chance): the chance node's
                     children's visits do not follow its probabilities.

Six more bugs show only on trees of special shapes, which the default trees
of `mctscheck check -search` include for that reason (docs/protocol.md, "The
trees of a search check"); each is inconsistent:

  open-loop          statistics per sequence of moves, not per node: the
                     outcomes of a chance node share their statistics, so
                     the move after a chance node cannot depend on its
                     outcome (an open-loop search). Below a chance node
                     whose outcomes want different moves, a worse move
                     keeps its share (Eq. 4). Witness:
                     (max (chance 0.5:(max 1 0) 0.5:(max 0 1)) 0.75).
  path-free-hash     statistics keyed by depth and move identity (@move), a
                     hash that ignores the path: cousins with the same move
                     share them. Where cousins with the same moves have
                     opposite values, each shared entry averages them, and
                     a worse move keeps its share (Eq. 4). Witness:
                     (max (min 0 1) (min 1 0) 0.25).
  alternating-turns  the player to move is taken to alternate (chance nodes
                     pass the turn on): right while the players alternate,
                     wrong where one moves twice in a row, where the search
                     plays for the other side (Eq. 4). Witness:
                     (max (max 0 1) 0.5).
  depth-discount     quick wins preferred: every reward is drawn halfway to
                     1/2 at each ply below the root's children. An affine
                     map of all rewards where every terminal is at the same
                     depth; with terminals at mixed depths a slow win loses
                     to a quick lesser reward (Eq. 7: a terminal's mean is
                     not its reward). Witness: (max 0.75 (min 1)).
  win-loss           rewards thresholded to a win (above 1/2), a loss (below)
                     or a draw, as by the adapter of a library that knows
                     only those: harmless on rewards in {0, 1/2, 1}; with
                     rewards strictly between 0 and 1 it ties moves that
                     differ and, under a chance node, misorders them (Eq.
                     7: a terminal's mean is not its reward). Witnesses:
                     (max (min 1 0) 0.25), and on its family's trees
                     (max 0.375 (chance 0.25:1 0.75:0)).
  widening-cap       a node adds its children in order, one a visit, but
                     never more than four (the fixed child array of a search
                     written for narrow games): a fifth or later move is
                     never tried (Eq. 5). Witness: (max 0 0 0 0 1).

Usage: mcts.py [--bug NAME] [--c C]
Log to stderr: stdout carries the protocol.
"""

import argparse
import json
import math
import os
import re
import sys
import time

VERSION = 1
MASK = (1 << 64) - 1
BUGS = ["fpu-never", "negamax-sign", "terminal-rollout", "virtual-loss-kept", "final-by-mean",
        "seed-ignored", "mover-means", "chance-as-max",
        "open-loop", "path-free-hash", "alternating-turns", "depth-discount", "win-loss", "widening-cap"]

TOKEN = re.compile(r"\s+|;[^\n]*|([():@~])|([^\s():@~;]+)")


def parse_tree(text):
    """Parses the tree format into preorder arrays: kind, reward, children,
    prob and move (of the edge into each node: its @move, or its index).
    Priors are read and dropped: this search does not use them."""
    tokens = []
    for m in TOKEN.finditer(text):
        tok = m.group(1) or m.group(2)
        if tok:
            tokens.append(tok)
    kind, reward, children, prob, move = [], [], [], [], []
    pos = 0

    def node(p):
        nonlocal pos
        tok = tokens[pos]
        pos += 1
        i = len(kind)
        prob.append(p)
        move.append(0)
        children.append([])
        if tok != "(":
            kind.append("terminal")
            reward.append(float(tok))
            return i
        kind.append(tokens[pos])
        reward.append(0.0)
        pos += 1
        while tokens[pos] != ")":
            q = 0.0
            if pos + 1 < len(tokens) and tokens[pos + 1] == ":":
                q = float(tokens[pos])
                pos += 2
            c = node(q)
            move[c] = len(children[i])
            children[i].append(c)
            while pos < len(tokens) and tokens[pos] in ("@", "~"):
                if tokens[pos] == "@":
                    move[c] = int(tokens[pos + 1])
                pos += 2
        pos += 1
        return i

    node(0.0)
    return kind, reward, children, prob, move


class Search:
    """One search of one tree, with statistics per preorder node."""

    def __init__(self, tree, seed, bug, c):
        self.kind, self.reward, self.children, self.prob, move = tree
        n = len(self.kind)
        self.bug, self.c, self.rng = bug, c, seed & MASK
        if bug == "seed-ignored":
            self.rng = (time.time_ns() ^ os.getpid() << 32) & MASK
        self.intree = [False] * n
        self.n = [0] * n
        self.w = [0.0] * n  # rewards from the side of the player who moves into the node
        self.vl = [0] * n  # virtual losses not yet taken back
        self.parent = [-1] * n
        self.maxes = [True] * n  # the player who moves into the node maximises
        self.depth = depth = [0] * n
        turn = self.kind[:1] * n  # who moves, as if turns alternated (a chance node passes the turn on)
        for i in range(n):
            for ch in self.children[i]:
                self.parent[ch], depth[ch] = i, depth[i] + 1
                turn[ch] = turn[i] if self.kind[i] == "chance" else "min" if turn[i] == "max" else "max"
                if bug == "negamax-sign":
                    self.maxes[ch] = depth[i] % 2 == 0  # as if turns alternated
                elif bug == "alternating-turns" and self.kind[i] != "chance":
                    self.maxes[ch] = turn[i] != "min"
                else:
                    self.maxes[ch] = self.kind[i] != "min"
        self.intree[0] = True
        self.share(bug, move)

    def share(self, bug, move):
        """The statistics each node's selection reads: key[i] is node i's
        entry in sn and sw, its own unless a bug shares entries."""
        n = len(self.kind)
        self.key = list(range(n))
        self.sn, self.sw = self.n, self.w
        if bug not in ("open-loop", "path-free-hash"):
            return
        self.sn, self.sw = [0] * n, [0.0] * n
        slots = {}
        for i in range(1, n):  # preorder: a node's parent first
            p = self.parent[i]
            if bug == "open-loop" and self.kind[p] == "chance":
                self.key[i] = self.key[p]  # the chance outcomes are not told apart
                continue
            k = (self.key[p], move[i]) if bug == "open-loop" else (self.depth[i], move[i])
            self.key[i] = slots.setdefault(k, len(slots) + 1)

    def next(self):
        """splitmix64."""
        self.rng = (self.rng + 0x9E3779B97F4A7C15) & MASK
        z = self.rng
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def draw(self, i):
        """A child of i: by probability at a chance node, uniform elsewhere."""
        kids = self.children[i]
        if self.kind[i] == "chance":
            u = (self.next() >> 11) * 2.0 ** -53
            for ch in kids:
                u -= self.prob[ch]
                if u < 0:
                    return ch
            return kids[-1]
        return kids[((self.next() >> 32) * len(kids)) >> 32]

    def rollout(self, i):
        """The terminal a uniformly random roll-out from i ends at."""
        while self.kind[i] != "terminal":
            i = self.draw(i)
        return i

    def select(self, i):
        """The first child not in the tree, else the best UCT score."""
        kids = self.children[i]
        if self.bug == "widening-cap":
            kids = kids[:4]  # a fixed array of four children
        intree = self.intree
        for ch in kids:
            if not intree[ch]:
                return ch
            if self.bug == "fpu-never":
                break  # a child in the tree: no other is ever added
        n, w, vl, key = self.sn, self.sw, self.vl, self.key
        cs = self.c * math.sqrt(math.log(n[key[i]] + vl[i]))
        best, best_score = -1, -math.inf
        for ch in kids:
            if not intree[ch]:
                continue
            ne = n[key[ch]] + vl[ch]
            score = w[key[ch]] / ne + cs / math.sqrt(ne)
            if score > best_score:
                best, best_score = ch, score
        return best

    def simulate(self):
        kind, intree, vl = self.kind, self.intree, self.vl
        path = [0]
        i = 0
        while kind[i] != "terminal":
            i = self.draw(i) if kind[i] == "chance" and self.bug != "chance-as-max" else self.select(i)
            vl[i] += 1
            path.append(i)
            if not intree[i]:
                intree[i] = True
                break
        if kind[i] != "terminal":
            i = self.rollout(i)
        elif self.bug == "terminal-rollout":
            i = self.rollout(self.parent[i])
        r = self.reward[i]
        if self.bug == "depth-discount":
            r = 0.5 + (r - 0.5) * 2.0 ** (1 - self.depth[i])  # halfway to 1/2 at each ply below the first
        elif self.bug == "win-loss":
            r = 1.0 if r > 0.5 else 0.0 if r < 0.5 else 0.5
        n, w, maxes = self.n, self.w, self.maxes
        keep = self.bug == "virtual-loss-kept"
        for j in path:
            if j and not keep:
                vl[j] -= 1
            n[j] += 1
            w[j] += r if maxes[j] else 1 - r
        if self.sn is not n:  # shared entries: each one once a simulation
            sn, sw, key, last = self.sn, self.sw, self.key, -1
            for j in path:
                if key[j] != last:
                    sn[key[j]] += 1
                    sw[key[j]] += r if maxes[j] else 1 - r
                last = key[j]

    def mean(self, i):
        """Node i's mean reward for max, None if it has no simulation."""
        if self.n[i] == 0:
            return None
        m = self.w[i] / self.n[i]
        return m if self.maxes[i] or self.bug == "mover-means" else 1 - m

    def checkpoint(self, sims):
        kids = self.children[0]
        n = self.n
        if self.bug == "final-by-mean":
            key = [self.w[ch] / n[ch] if n[ch] else -math.inf for ch in kids]
        else:
            key = [n[ch] for ch in kids]
        decision = max(range(len(kids)), key=lambda k: (key[k], -k))
        means = [self.mean(i) for i in range(len(n))]
        return {"sims": sims, "decision": decision,
                "visits": [n[ch] for ch in kids], "means": [means[ch] for ch in kids],
                "node_visits": n, "node_means": means}


def main():
    ap = argparse.ArgumentParser(description="A textbook MCTS for mctscheck's search protocol (docs/protocol.md).")
    ap.add_argument("--bug", choices=BUGS, help="plant this bug (see the module doc)")
    ap.add_argument("--c", type=float, default=math.sqrt(2), help="UCT's exploration constant")
    args = ap.parse_args()
    hello = json.loads(sys.stdin.readline())
    if VERSION not in hello.get("versions", []):
        sys.exit("mcts.py: mctscheck offers search protocol versions %s; this program speaks %d"
                 % (hello.get("versions"), VERSION))
    name = "examples/mcts.py" + (" --bug " + args.bug if args.bug else "")
    print(json.dumps({"version": VERSION, "nodes": True, "name": name}), flush=True)
    for line in sys.stdin:
        req = json.loads(line)
        s = Search(parse_tree(req["tree"]), int(req["seed"]), args.bug, args.c)
        sims = 0
        for cp in req["checkpoints"]:
            while sims < cp:
                s.simulate()
                sims += 1
            sys.stdout.write(json.dumps(s.checkpoint(sims), separators=(",", ":")) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
