#!/usr/bin/env python3
"""OpenSpiel's Python MCTSBot, checked by mctscheck as it is.

This adapter speaks mctscheck's search protocol (docs/protocol.md) and runs
OpenSpiel's MCTS (open_spiel/python/algorithms/mcts.py, fetched separately:
nothing of it is in this repository) on each tree mctscheck sends. It does
not change the search: it loads mcts.py from the given checkout, gives it
a game with pyspiel's interface (the module pyspiel, which OpenSpiel builds
in C++, is replaced by the thin shim below, enough for mcts.py's import and
calls), and reads the search tree that mcts_search returns.

  --openspiel DIR   the OpenSpiel checkout (the directory holding open_spiel/)
  --uct-c C         MCTSBot's uct_c (default 2, as in OpenSpiel's examples/mcts.py)
  --no-solve        MCTSBot's solve=False (default: solve=True, MCTSBot's default)

How the tree becomes a game: max is player 0, min player 1, chance nodes
are pyspiel chance nodes with the tree's probabilities, actions are child
indices, and a terminal's reward r in [0,1] for max is the returns
[2r - 1, 1 - 2r], OpenSpiel's zero-sum convention (max_utility 1).

How a search is observed: mcts_search runs max_simulations (the last
checkpoint) simulations from a fresh tree, with a numpy RandomState shared
by the bot and its RandomRolloutEvaluator (as OpenSpiel's examples do),
seeded with the request's seed. The adapter's subclass of MCTSBot only
looks: before each simulation (at the first step of _apply_tree_policy,
which each simulation calls once) it reads the root's tree when the
simulations done reach a checkpoint, and answers it; the last checkpoint
is answered from the tree mcts_search returns. The decision is
root.best_child().action, what MCTSBot.step plays. A search that proves
the root's value stops early (mcts_search's own rule); the answers then
say how many simulations it ran ("done"). MCTSBot's first simulation
evaluates the root itself, so the root children's visits add up to one
fewer than the simulations.

Use (the system python3, with Debian's python3-numpy and python3-absl):

  mctscheck check -search exec:'/usr/bin/python3 examples/openspiel_mcts.py --openspiel /tmp/open_spiel'
"""

import argparse
import importlib.util
import json
import os
import sys
import types

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mcts import parse_tree  # noqa: E402 (examples/mcts.py's parser of the tree format)


def pyspiel_shim():
    """The part of pyspiel that mcts.py uses: Bot, GameType, PlayerId,
    INVALID_ACTION."""
    m = types.ModuleType("pyspiel")

    class Bot:
        def __init__(self):
            pass

    class GameType:
        class RewardModel:
            REWARDS, TERMINAL = "rewards", "terminal"

        class Dynamics:
            SIMULTANEOUS, SEQUENTIAL = "simultaneous", "sequential"

    class PlayerId:
        CHANCE, INVALID, TERMINAL = -1, -3, -4

    m.Bot, m.GameType, m.PlayerId, m.INVALID_ACTION = Bot, GameType, PlayerId, -1
    return m


class Game:
    """A tree as a pyspiel game: two players, terminal rewards, chance."""

    def __init__(self, pyspiel, tree):
        self.pyspiel, self.tree = pyspiel, tree

    def get_type(self):
        t = self.pyspiel.GameType
        return types.SimpleNamespace(reward_model=t.RewardModel.TERMINAL, dynamics=t.Dynamics.SEQUENTIAL)

    def max_utility(self):
        return 1.0

    def new_initial_state(self):
        return State(self, 0)


class State:
    """A node of the tree as a pyspiel state."""

    def __init__(self, game, node):
        self.game, self.node = game, node

    def clone(self):
        return State(self.game, self.node)

    def kind(self):
        return self.game.tree[0][self.node]

    def is_terminal(self):
        return self.kind() == "terminal"

    def is_chance_node(self):
        return self.kind() == "chance"

    def current_player(self):
        return {"max": 0, "min": 1, "chance": self.game.pyspiel.PlayerId.CHANCE,
                "terminal": self.game.pyspiel.PlayerId.TERMINAL}[self.kind()]

    def legal_actions(self, player=None):
        return list(range(len(self.game.tree[2][self.node])))

    def chance_outcomes(self):
        kids, prob = self.game.tree[2][self.node], self.game.tree[3]
        return [(a, prob[c]) for a, c in enumerate(kids)]

    def apply_action(self, action):
        self.node = self.game.tree[2][self.node][action]

    def returns(self):
        r = self.game.tree[1][self.node]
        return [2 * r - 1, 1 - 2 * r]

    def action_to_string(self, player, action):
        return str(action)


def load_mcts(openspiel):
    """OpenSpiel's mcts.py, imported as it is, with the shim as pyspiel."""
    sys.modules["pyspiel"] = pyspiel_shim()
    path = os.path.join(openspiel, "open_spiel", "python", "algorithms", "mcts.py")
    spec = importlib.util.spec_from_file_location("openspiel_mcts_module", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def answer(root, tree, sims, chance_player):
    """The checkpoint's answer from MCTSBot's search tree."""
    kind, _, children, _, _ = tree
    n = len(kind)
    visits, means = [0] * n, [None] * n

    def walk(node, at, persp):
        # total_reward is for the player who moved into the node; a chance
        # node's child's, for the player of the nearest decision above it.
        if node.player != chance_player:
            persp = node.player
        visits[at] = node.explore_count
        if node.explore_count:
            x = node.total_reward / node.explore_count
            means[at] = (1 + x) / 2 if persp == 0 else (1 - x) / 2
        for c in node.children:
            walk(c, children[at][c.action], persp)

    walk(root, 0, root.player)
    kids = children[0]
    out = {"sims": sims, "decision": root.best_child().action,
           "visits": [visits[c] for c in kids], "means": [means[c] for c in kids],
           "node_visits": visits, "node_means": means}
    if root.explore_count < sims:
        out["done"] = root.explore_count
    return out


def observed_bot(mcts):
    """MCTSBot with a look at its tree between simulations: before each
    simulation, _apply_tree_policy's first step, it hands the root and the
    simulations done so far to self.observe. The search is MCTSBot's."""

    class Observed(mcts.MCTSBot):
        def _apply_tree_policy(self, root, state):
            self.observe(root, self.done)
            self.done += 1
            return super()._apply_tree_policy(root, state)

    return Observed


def main():
    ap = argparse.ArgumentParser(description="OpenSpiel's MCTSBot over mctscheck's search protocol.")
    ap.add_argument("--openspiel", required=True, help="the OpenSpiel checkout")
    ap.add_argument("--uct-c", type=float, default=2.0)
    ap.add_argument("--no-solve", action="store_true")
    args = ap.parse_args()
    mcts = load_mcts(args.openspiel)
    pyspiel = sys.modules["pyspiel"]
    bot_type = observed_bot(mcts)
    hello = json.loads(sys.stdin.readline())
    if 1 not in hello.get("versions", []):
        sys.exit("openspiel_mcts.py: mctscheck does not offer search protocol version 1")
    print(json.dumps({"version": 1, "nodes": True, "name": "OpenSpiel MCTSBot"}), flush=True)
    for line in sys.stdin:
        req = json.loads(line)
        tree = parse_tree(req["tree"])
        game = Game(pyspiel, tree)
        pending = list(req["checkpoints"])
        rs = np.random.RandomState(np.random.MT19937(int(req["seed"])))
        bot = bot_type(game, args.uct_c, pending[-1], mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs),
                       solve=not args.no_solve, random_state=rs)
        bot.done = 0

        def observe(root, done):
            if pending and done == pending[0]:
                print(json.dumps(answer(root, tree, pending.pop(0), pyspiel.PlayerId.CHANCE)), flush=True)

        bot.observe = observe
        root = bot.mcts_search(game.new_initial_state())
        while pending:  # the last checkpoint, or those after the search proved the root
            print(json.dumps(answer(root, tree, pending.pop(0), pyspiel.PlayerId.CHANCE)), flush=True)


if __name__ == "__main__":
    main()
