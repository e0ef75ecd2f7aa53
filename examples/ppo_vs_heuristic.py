#!/usr/bin/env python3
"""Masked PPO (CleanRL style, one file) trained against the heuristic bot, then rated against the zoo bot.

    /usr/bin/python3 examples/ppo_vs_heuristic.py --game last_blast --total-steps 200000

The opponents play inside the env (rg.make_vec(..., opponents=["heuristic"])): every step is one
decision of the learner, the observations and rewards are the learner's only, and the learner's seat
is drawn per game (seat="random"), so the loop is plain single-agent PPO. Illegal actions get -inf
logits, so the policy only samples legal ones. The env auto-resets in the same step (Gymnasium's
SAME_STEP): a step that ends a game already shows the next game's first decision; its reward is the
finished game's return, and the advantage does not bootstrap across it (a truncated game is treated as
ended, the simplification CleanRL makes too).

At the end rg.arena rates the greedy policy against --eval-opponent (default: the game's zoo bot) over
--eval-games games, each seed in both seat rotations as `rocketgym arena` plays them, and the script
prints the arena's table and the win rate with its 95 % interval.

Run from the build tree with PYTHONPATH=build/python, or after `pip install .`.
"""

import argparse
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


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="last_blast", choices=rg.list_games())
    p.add_argument("--total-steps", type=int, default=200_000, help="learner decisions to train for")
    p.add_argument("--num-envs", type=int, default=32)
    p.add_argument("--num-steps", type=int, default=64, help="rollout length per env and update")
    p.add_argument("--threads", type=int, default=1, help="C++ threads of the env, and torch threads")
    p.add_argument("--lr", type=float, default=2.5e-4)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--minibatches", type=int, default=4)
    p.add_argument("--update-epochs", type=int, default=4)
    p.add_argument("--clip-coef", type=float, default=0.2)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    p.add_argument("--eval-games", type=int, default=200)
    p.add_argument("--eval-opponent", default="zoo", help="a player spec; 'zoo' is the game's zoo bot")
    p.add_argument("--seed", type=int, default=1)
    return p.parse_args()


class Agent(nn.Module):
    """An MLP with a policy head (a logit per action id) and a value head."""

    def __init__(self, obs_size, num_actions, hidden=128):
        super().__init__()
        self.trunk = nn.Sequential(nn.Flatten(), nn.Linear(obs_size, hidden), nn.Tanh(), nn.Linear(hidden, hidden),
                                   nn.Tanh())
        self.actor = nn.Linear(hidden, num_actions)
        self.critic = nn.Linear(hidden, 1)

    def value(self, obs):
        return self.critic(self.trunk(obs)).squeeze(-1)

    def forward(self, obs):  # the logits: what rg.TorchAgent expects of a module
        return self.actor(self.trunk(obs))

    def act(self, obs, mask, action=None):
        hidden = self.trunk(obs)
        logits = self.actor(hidden).masked_fill(~mask, float("-inf"))
        dist = torch.distributions.Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.critic(hidden).squeeze(-1)


def train(args, agent):
    envs = rg.make_vec(args.game, args.num_envs, opponents=["heuristic"], seat="random", seed=args.seed,
                       num_threads=args.threads)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    n, t_len = args.num_envs, args.num_steps
    obs_buf = torch.zeros((t_len, n) + envs.observation_shape)
    mask_buf = torch.zeros((t_len, n, envs.num_actions), dtype=torch.bool)
    actions = torch.zeros((t_len, n), dtype=torch.long)
    logprobs, rewards, dones, values = (torch.zeros((t_len, n)) for _ in range(4))

    obs, _ = envs.reset(seed=args.seed)
    next_obs = torch.tensor(obs["observation"])  # a copy: the env's arrays are overwritten by every step
    next_mask = torch.tensor(obs["action_mask"] != 0)
    next_done = torch.zeros(n)
    batch = n * t_len
    updates = max(1, args.total_steps // batch)
    games = wins = 0
    start = time.time()
    for update in range(1, updates + 1):
        for t in range(t_len):
            obs_buf[t], mask_buf[t], dones[t] = next_obs, next_mask, next_done
            with torch.no_grad():
                action, logprob, _, value = agent.act(next_obs, next_mask)
            actions[t], logprobs[t], values[t] = action, logprob, value
            obs, reward, terminated, truncated, _ = envs.step(action.numpy().astype(np.int32))
            finished = terminated | truncated
            rewards[t] = torch.tensor(reward)
            next_obs = torch.tensor(obs["observation"])
            next_mask = torch.tensor(obs["action_mask"] != 0)
            next_done = torch.tensor(finished, dtype=torch.float32)
            games += int(finished.sum())
            wins += int((reward[finished] > 0).sum())

        # Generalized advantage estimation; a finished game cuts the bootstrap.
        with torch.no_grad():
            next_value = agent.value(next_obs)
            advantages = torch.zeros_like(rewards)
            last = torch.zeros(n)
            for t in reversed(range(t_len)):
                not_done = 1.0 - (next_done if t == t_len - 1 else dones[t + 1])
                following = next_value if t == t_len - 1 else values[t + 1]
                delta = rewards[t] + args.gamma * following * not_done - values[t]
                last = delta + args.gamma * args.gae_lambda * not_done * last
                advantages[t] = last
            returns = advantages + values

        b_obs, b_mask = obs_buf.reshape((batch,) + envs.observation_shape), mask_buf.reshape(batch, -1)
        b_actions, b_logprobs = actions.reshape(-1), logprobs.reshape(-1)
        b_advantages, b_returns = advantages.reshape(-1), returns.reshape(-1)
        minibatch = batch // args.minibatches
        for _ in range(args.update_epochs):
            order = torch.randperm(batch)
            for first in range(0, batch, minibatch):
                idx = order[first:first + minibatch]
                _, new_logprob, entropy, new_value = agent.act(b_obs[idx], b_mask[idx], b_actions[idx])
                ratio = (new_logprob - b_logprobs[idx]).exp()
                adv = b_advantages[idx]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                policy_loss = torch.max(-adv * ratio,
                                        -adv * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)).mean()
                value_loss = 0.5 * (new_value - b_returns[idx]).pow(2).mean()
                loss = policy_loss - args.ent_coef * entropy.mean() + args.vf_coef * value_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
        if update % 10 == 0 or update == updates:
            rate = wins / games if games else float("nan")
            print(f"update {update}/{updates}  steps {update * batch}  games {games}  "
                  f"win rate against heuristic {rate:.3f}  {time.time() - start:.0f}s", flush=True)
            games = wins = 0


def evaluate(args, agent):
    """Rates the greedy policy against --eval-opponent in the arena: the schedule of `rocketgym arena`
    (each seed played in both seat rotations), its table and the win rate with its 95 % interval."""
    policy = rg.TorchAgent(agent)  # greedy: the most probable legal action
    report = rg.arena(args.game, agents={"ppo": policy, "opponent": args.eval_opponent},
                      games=max(1, args.eval_games // 2), seed=args.seed + 1, threads=args.threads)
    print(report.table)
    rate, low, high = report.win_rate("ppo", "opponent")
    print(f"win rate against {args.eval_opponent}: {rate:.3f} [{low:.3f}, {high:.3f}] "
          f"over {len(report.games)} games")


def main():
    args = parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    probe = rg.make(args.game, opponents=["random"])
    agent = Agent(int(np.prod(probe.observation_shape)), probe.num_actions)
    train(args, agent)
    evaluate(args, agent)


if __name__ == "__main__":
    main()
