#!/usr/bin/env python3
"""examples/mcts.py as a search that reports the root's children only.

It runs examples/mcts.py (with this program's arguments), declares no
"nodes" in its handshake and drops "node_visits" and "node_means" from its
answers: what a search that keeps no per-node statistics to report gives
mctscheck. For the tests of check -search's reports (cli).
"""

import json
import os
import subprocess
import sys

MCTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "mcts.py")


def main():
    inner = subprocess.Popen([sys.executable, MCTS] + sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True, bufsize=1)
    inner.stdin.write(sys.stdin.readline())  # the hello
    inner.stdin.flush()
    hello = json.loads(inner.stdout.readline())
    hello["nodes"] = False
    print(json.dumps(hello), flush=True)
    for request in sys.stdin:
        last = json.loads(request)["checkpoints"][-1]
        inner.stdin.write(request)
        inner.stdin.flush()
        while True:
            line = inner.stdout.readline()
            if not line:
                sys.exit(1)
            answer = json.loads(line)
            answer.pop("node_visits", None)
            answer.pop("node_means", None)
            print(json.dumps(answer), flush=True)
            if answer["sims"] == last:
                break


if __name__ == "__main__":
    main()
