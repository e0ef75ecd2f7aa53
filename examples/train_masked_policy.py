#!/usr/bin/env python3
"""Trains a small masked policy with PyTorch on a rocketgym vector env and
prints its win rate against a uniformly random opponent, before and after.

    /usr/bin/python3 examples/train_masked_policy.py --game last_blast --seconds 120

The learner sits in seat 0 of even envs and seat 1 of odd envs (two-player
games), the opponent plays random legal actions drawn in C++. Illegal actions
get -inf logits, so the policy only ever samples legal ones. The algorithm is
REINFORCE with a learned value baseline (advantage actor-critic without
bootstrapping): rewards arrive only at the end of a game, so each decision's
return is the final reward of the learner's seat.

Run from the build tree with PYTHONPATH=build/python, or after
`pip install .`.
"""

import argparse
import math
import os
import sys
import time

import numpy as np
import torch
from torch import nn

try:
    import rocketgym as rg
except ImportError:  # running from a source checkout with the default build folder
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "build", "python"))
    import rocketgym as rg


class PolicyValueNet(nn.Module):
    """An MLP trunk with a policy head (one logit per action id) and a value head."""

    def __init__(self, obs_size: int, num_actions: int, hidden: int = 128):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(obs_size, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.policy = nn.Linear(hidden, num_actions)
        self.value = nn.Linear(hidden, 1)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor):
        h = self.trunk(obs)
        logits = self.policy(h).masked_fill(mask == 0, float("-inf"))  # illegal actions: probability 0
        return logits, self.value(h).squeeze(-1)


def learner_seats(num_envs: int) -> np.ndarray:
    return np.arange(num_envs, dtype=np.int32) % 2


def choose_actions(net, vec, seats, greedy=False):
    """Random actions for the opponent; the policy's for envs where the learner is to move."""
    actions = vec.sample_actions()
    mine = np.flatnonzero(vec.current_players == seats)
    if mine.size == 0:
        return actions, mine, None, None
    obs = torch.from_numpy(vec.observations[mine].reshape(mine.size, -1))  # a copy: the buffers move on
    mask = torch.from_numpy(vec.action_masks[mine].astype(np.int64))
    with torch.no_grad():
        logits, _ = net(obs, mask)
    if greedy:
        chosen = logits.argmax(-1)
    else:
        chosen = torch.distributions.Categorical(logits=logits).sample()
    actions[mine] = chosen.numpy()
    return actions, mine, obs, mask


def evaluate(net, game, num_games, seed, threads):
    """Win rate of the greedy policy against random over `num_games` games, seats alternating."""
    vec = rg.make_vec(game, 256, num_players=2, num_threads=threads, seed=seed)
    seats = learner_seats(vec.num_envs)
    wins = losses = draws = 0
    while wins + losses + draws < num_games:
        actions, *_ = choose_actions(net, vec, seats, greedy=True)
        _, rewards, terminated, truncated, _ = vec.step(actions)
        for i in np.flatnonzero(terminated | truncated):
            r = rewards[i, seats[i]]
            wins += r > 0
            losses += r < 0
            draws += r == 0
    n = wins + losses + draws
    rate = (wins + 0.5 * draws) / n
    half_width = 1.96 * math.sqrt(rate * (1 - rate) / n)
    return rate, half_width, n


def train(net, args):
    vec = rg.make_vec(args.game, args.num_envs, num_players=2, num_threads=args.threads, seed=args.seed)
    seats = learner_seats(vec.num_envs)
    optimizer = torch.optim.Adam(net.parameters(), lr=args.lr)
    pending = [[] for _ in range(vec.num_envs)]  # the learner's (obs, mask, action) per env, this game
    batch_obs, batch_mask, batch_action, batch_return = [], [], [], []
    games = updates = 0
    start = time.time()
    while time.time() - start < args.seconds:
        actions, mine, obs, mask = choose_actions(net, vec, seats)
        for k, i in enumerate(mine):
            pending[i].append((obs[k], mask[k], int(actions[i])))
        _, rewards, terminated, truncated, _ = vec.step(actions)
        for i in np.flatnonzero(terminated | truncated):
            final = float(rewards[i, seats[i]])
            for o, m, a in pending[i]:
                batch_obs.append(o)
                batch_mask.append(m)
                batch_action.append(a)
                batch_return.append(final)
            pending[i].clear()
            games += 1
        if len(batch_return) >= args.batch:
            o, m = torch.stack(batch_obs), torch.stack(batch_mask)
            a, ret = torch.tensor(batch_action), torch.tensor(batch_return)
            logits, value = net(o, m)
            dist = torch.distributions.Categorical(logits=logits)
            advantage = (ret - value).detach()
            loss = (-(advantage * dist.log_prob(a)).mean() + 0.5 * (ret - value).pow(2).mean()
                    - args.entropy * dist.entropy().mean())
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            optimizer.step()
            batch_obs, batch_mask, batch_action, batch_return = [], [], [], []
            updates += 1
            if updates % 20 == 0:
                print(f"  {time.time() - start:6.1f}s  games {games:7d}  updates {updates:5d}  "
                      f"mean return {ret.mean():+.3f}  value loss {(ret - value).pow(2).mean():.3f}", flush=True)
    return games, updates


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="last_blast", choices=rg.list_games())
    parser.add_argument("--seconds", type=float, default=120.0, help="training time")
    parser.add_argument("--num-envs", type=int, default=128)
    parser.add_argument("--threads", type=int, default=1, help="C++ threads for the vector env and torch")
    parser.add_argument("--batch", type=int, default=2048, help="learner decisions per update")
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--eval-games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    probe = rg.make_vec(args.game, 1, num_players=2, seed=0)
    net = PolicyValueNet(probe.observations[0].size, probe.num_actions)

    rate, hw, n = evaluate(net, args.game, args.eval_games, seed=10_000 + args.seed, threads=args.threads)
    print(f"{args.game}: untrained policy vs random: win rate {rate:.3f} ± {hw:.3f} over {n} games")
    games, updates = train(net, args)
    print(f"trained on {games} games ({updates} updates) in {args.seconds:.0f}s")
    rate, hw, n = evaluate(net, args.game, args.eval_games, seed=20_000 + args.seed, threads=args.threads)
    print(f"{args.game}: trained policy vs random: win rate {rate:.3f} ± {hw:.3f} over {n} games "
          "(draws count half)")


if __name__ == "__main__":
    main()
