#!/usr/bin/env python3
"""Splits a callgrind profile of `rocketgym bench` into the parts of a step.

    scripts/callgrind_split.py PROFILE STEPS GAME

PROFILE is callgrind's output for one bench mode (scripts/profile_step.sh
makes it); STEPS the steps it ran. Prints instructions (Ir) per step for each
part, counted inclusively (a part's callees belong to it) and entered from
outside the part, so nothing is counted twice within a part. The parts
overlap by design: "knowledge tracking" is inside "apply (rules)".
"""
import re
import sys
from collections import defaultdict

# The functions of each game's knowledge model (envs/core/knowledge.h) that
# a step runs: kept up to date by apply. Code inlined into the rules (a known_by
# bit set in place) is not a function and is not counted here.
KNOWLEDGE = {
    "lift_off": r"lift_off::State::(tighten_knowledge|know_\w+|reveal_hands|init_knowledge|default_knowledge)\(",
    "rocket_squad": r"rocket_squad::State::(leave_region|reshuffle|draw_card|put_under_draw_pile|take_from_hand|"
                    r"discard_hand|add_to_hand)\(",
    "launch_pad": r"launch_pad::State::(learn|forget|keep_knowledge_true|take_from_hand|give_to_hand)\(",
    "last_blast": r"last_blast::State::(derive_knowledge|check_knowledge)\(",
    "launchpad23": r"$^",
}
# What the encoder reads of the knowledge model (cards a seat knows).
KNOWLEDGE_READ = {
    "lift_off": r"lift_off::State::(known_specialists|known_objectives|known_hands)\(",
    "launch_pad": r"launch_pad::State::known_count\(",
}


def parse(path):
    names = {"fl": {}, "fn": {}}
    self_cost = defaultdict(int)    # function -> exclusive Ir
    file_cost = defaultdict(int)    # source file (inlined code included) -> exclusive Ir
    edges = defaultdict(int)        # (caller, callee) -> inclusive Ir of the calls
    fn = file = cur_file = callee = None
    in_call = False

    def name(table, text):
        m = re.match(r"\((\d+)\)(?: (.*))?", text)
        if not m:
            return text
        if m.group(2) is not None:
            names[table][m.group(1)] = m.group(2)
        return names[table][m.group(1)]

    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            key, eq, rest = line.partition("=")
            if eq and key == "fl":
                file = cur_file = name("fl", rest)
            elif eq and key in ("fi", "fe"):
                cur_file = name("fl", rest)
            elif eq and key == "fn":
                fn, cur_file = name("fn", rest), file
            elif eq and key in ("cfl", "cfi"):
                name("fl", rest)
            elif eq and key == "cfn":
                callee = name("fn", rest)
            elif eq and key == "calls":
                in_call = True
            elif line[0] in "0123456789+-*":
                parts = line.split()
                cost = int(parts[1]) if len(parts) > 1 else 0
                if in_call:
                    edges[(fn, callee)] += cost
                    in_call = False
                else:
                    self_cost[fn] += cost
                    file_cost[cur_file] += cost
    return self_cost, file_cost, edges


def entered(pattern, self_cost, edges):
    """Ir of the functions matching `pattern`, callees included, entered from outside them."""
    rx = re.compile(pattern)
    inside = {f for f in self_cost if f and rx.search(f)} | {c for (_, c) in edges if c and rx.search(c)}
    return sum(cost for (caller, c), cost in edges.items() if c in inside and caller not in inside)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    path, steps, game = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    self_cost, file_cost, edges = parse(path)
    total = sum(self_cost.values())
    ns = re.escape(game) + "::"
    parts = [
        ("legal mask", ns + r"State::legal_actions_mask\("),
        ("apply (rules)", ns + r"State::apply\("),
        ("  knowledge tracking", KNOWLEDGE.get(game, r"$^")),
        ("encoding", ns + r"Encoder::encode(_changes)?\("),
        ("  knowledge read", KNOWLEDGE_READ.get(game, r"$^")),
        ("reset (new State)", ns + r"State::State\("),
        ("heuristic bot", ns + r"heuristic_action\("),
        ("vector env step", r"VectorEnv<.*>::step\("),
        ("vector env actions", r"VectorEnv<.*>::sample_random_actions\("),
    ]
    print(f"{path}: {total:,} Ir, {total / steps:,.0f} Ir per step")
    for label, pattern in parts:
        ir = entered(pattern, self_cost, edges)
        if ir:
            print(f"  {label:<22}{ir / steps:>9,.0f} Ir/step {100 * ir / total:6.1f} %")
    loop = sum(c for f, c in self_cost.items() if f and re.search(r"_per_second<", f))
    print(f"  {'bench loop (own code)':<22}{loop / steps:>9,.0f} Ir/step {100 * loop / total:6.1f} %")
    rng = sum(c for fl, c in file_cost.items() if fl and fl.endswith("envs/core/rng.h"))
    print(f"  {'RNG (rng.h, inlined)':<22}{rng / steps:>9,.0f} Ir/step {100 * rng / total:6.1f} %")
    fill = entered(r"^__memset", self_cost, edges)
    if fill:
        print(f"  {'memset (1 Ir per byte)':<22}{fill / steps:>9,.0f} Ir/step {100 * fill / total:6.1f} %")


if __name__ == "__main__":
    main()
