#!/usr/bin/env python3
"""A selection rule for mctscheck in Python (standard library only).

mctscheck starts this program and asks it to choose children over the
protocol of docs/protocol.md. It implements two rules:

  uct         V + c*sqrt(ln n(F) / n), unvisited children first, with the
              arithmetic of mctscheck's own uct, so that it makes the same
              choices: mctscheck check -rule exec:'python3 examples/uct.py'
              gives the verdict of mctscheck check -rule uct.
  eps-greedy  with probability eps a uniformly random child, else the
              greedy mean (unvisited first), drawing from the site's seed;
              it declares its probabilities, so the checker reads them
              instead of sampling it.

Usage: uct.py [--rule uct|eps-greedy] [--c C] [--eps EPS] [--framing json|binary]

Defaults: --rule uct --c 1.4142135623730951 --eps 0.2 --framing binary
(JSON lines are easier to read; the binary framing takes half the time).
Log to stderr: stdout carries the protocol.
"""

import argparse
import json
import math
import struct
import sys

VERSION = 1
MASK = (1 << 64) - 1


def uct(n, w, ln, c):
    """core.UCT's choice: unvisited children first, then the highest
    w*(1/n) + (c*sqrt(ln))*(1/sqrt(n)), each product rounded on its own
    (core.UCTScore); ties to the lower index."""
    cs = c * math.sqrt(ln)
    best, best_score = 0, -math.inf
    for i, ni in enumerate(n):
        if ni == 0:
            return i
        if ni < 2.0 ** -512 or ni > 2.0 ** 512:
            score = w[i] / ni + cs / math.sqrt(ni)
        else:
            score = w[i] * (1 / ni) + cs * (1 / math.sqrt(ni))
        if score > best_score:
            best, best_score = i, score
    return best


def greedy(n, w):
    """The highest mean w/n, unvisited children first, ties to the lower index."""
    best, best_v = 0, -math.inf
    for i, ni in enumerate(n):
        if ni == 0:
            return i
        v = w[i] / ni
        if v > best_v:
            best, best_v = i, v
    return best


class SplitMix64:
    """The generator the examples seed with a site's seed (splitmix64)."""

    def __init__(self, seed):
        self.x = seed & MASK

    def next(self):
        self.x = (self.x + 0x9E3779B97F4A7C15) & MASK
        z = self.x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)


def eps_greedy(n, w, seed, eps):
    """With probability eps a uniform child, else greedy: u < eps with u
    the top 53 bits of the first draw over 2^53, the child the top 32 bits
    of the second draw times k over 2^32."""
    g = SplitMix64(seed)
    if (g.next() >> 11) * 2.0 ** -53 < eps:
        return ((g.next() >> 32) * len(n)) >> 32
    return greedy(n, w)


def eps_probs(n, w, eps):
    k = len(n)
    p = [eps / k] * k
    p[greedy(n, w)] += 1 - eps
    return p


class Rule:
    def __init__(self, args):
        self.name = args.rule
        self.c, self.eps = args.c, args.eps

    def capabilities(self, framing):
        stochastic = self.name == "eps-greedy"
        return {"version": VERSION, "framing": framing, "seed": stochastic,
                "probs": stochastic, "name": "examples/uct.py --rule " + self.name}

    def answer(self, op, n, w, ln, seed):
        if self.name == "uct":
            return uct(n, w, ln, self.c)
        if op == "probs":
            return eps_probs(n, w, self.eps)
        return eps_greedy(n, w, seed, self.eps)


def serve_json(rule, inp, out):
    for line in inp:
        sites = json.loads(line)
        answers = [rule.answer(s.get("op", "select"), s["n"], s["w"], s["ln"], s.get("seed", 0))
                   for s in sites]
        out.write(json.dumps(answers, separators=(",", ":")))
        out.write("\n")
        out.flush()


HEAD = struct.Struct("<IIBB6xQQdddd")  # 64 bytes: docs/protocol.md


def read_exactly(inp, size):
    data = inp.read(size)
    if len(data) != size:
        raise EOFError
    return data


def serve_binary(rule, inp, out):
    while True:
        try:
            count, size = struct.unpack("<II", read_exactly(inp, 8))
        except EOFError:
            return
        data = read_exactly(inp, size)
        reply = [struct.pack("<I", count)]
        at = 0
        for _ in range(count):
            k, _depth, op, _kind, _t, seed, _pn, _pw, _pv, ln = HEAD.unpack_from(data, at)
            at += HEAD.size
            n = struct.unpack_from("<%dd" % k, data, at)
            w = struct.unpack_from("<%dd" % k, data, at + 8 * k)
            at += 24 * k  # n, w and the real visits v
            if op == 1:
                reply.append(struct.pack("<%dd" % k, *rule.answer("probs", n, w, ln, seed)))
            else:
                reply.append(struct.pack("<i", rule.answer("select", n, w, ln, seed)))
        out.write(b"".join(reply))
        out.flush()


def main():
    ap = argparse.ArgumentParser(description="A selection rule for mctscheck (docs/protocol.md).")
    ap.add_argument("--rule", choices=["uct", "eps-greedy"], default="uct")
    ap.add_argument("--c", type=float, default=math.sqrt(2))
    ap.add_argument("--eps", type=float, default=0.2)
    ap.add_argument("--framing", choices=["json", "binary"], default="binary")
    args = ap.parse_args()
    rule = Rule(args)
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    hello = json.loads(inp.readline())
    if VERSION not in hello.get("versions", []):
        sys.exit("uct.py: mctscheck offers protocol versions %s; this program speaks %d"
                 % (hello.get("versions"), VERSION))
    out.write((json.dumps(rule.capabilities(args.framing)) + "\n").encode())
    out.flush()
    if args.framing == "binary":
        serve_binary(rule, inp, out)
        return
    import io
    serve_json(rule, io.TextIOWrapper(inp, encoding="utf-8"),
               io.TextIOWrapper(out, encoding="utf-8", write_through=True))


if __name__ == "__main__":
    main()
