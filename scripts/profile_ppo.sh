#!/usr/bin/env bash
# Where PPO's time goes (docs/benchmarks.md "Where PPO's time goes"): trains a
# game's PPO preset for SAMPLES learner samples on RANKS processes (torchrun)
# of THREADS threads each (no imitation warm start, no evaluation, no plot)
# and prints
#   - the seconds of each phase on rank 0 (metrics.csv's seconds_<phase>,
#     summed over the updates after the first, which pays for start-up),
#   - learner samples/s over those updates,
#   - the FLOP limit: the samples/s the cores would reach if they did nothing
#     but the network's arithmetic at the best rate LibTorch multiplies
#     matrices here on RANKS x THREADS threads. A learner sample costs one
#     forward pass while collecting (M multiply-adds, counted dense) and
#     `epochs` forward and backward passes; a backward pass costs 2 M less
#     the first layer's F (the observation needs no gradient):
#     2 * (M + epochs * (3 M - F)) FLOPs.
#
#   scripts/profile_ppo.sh                                  # The Last Blast, 2 threads
#   GAME=rocket_squad THREADS=1 SAMPLES=100000 BUILD=build scripts/profile_ppo.sh
#   RANKS=2 THREADS=1 scripts/profile_ppo.sh                # 2 torchrun ranks of 1 thread
#
# Measure on a quiet machine: other jobs on the cores change every figure.
set -euo pipefail
cd "$(dirname "$0")/.."
game="${GAME:-last_blast}"
threads="${THREADS:-2}"
ranks="${RANKS:-1}"
port="${PORT:-29534}"
samples="${SAMPLES:-50000}"
build="${BUILD:-build}"
out="${OUT:-runs/profile_ppo/$game}"
config="configs/train/${game}_ppo.yaml"
python="${PYTHON:-/usr/bin/python3}"

rm -rf "$out"
mkdir -p "$out"
launch=("$PWD/$build/rocketgym")
if [ "$ranks" -gt 1 ]; then
  # -r 1 -t 1: Debian 12's torchrun fails at start without them (Python 3.11).
  launch=(torchrun -r 1 -t 1 --nproc_per_node="$ranks" --master_addr=127.0.0.1 --master_port="$port" --no_python
    "${launch[@]}")
fi
echo "== $game, $ranks x $threads threads, $samples learner samples (load: $(cut -d' ' -f1-3 /proc/loadavg))"
"${launch[@]}" train "$config" --threads "$threads" --run-dir "$out" --steps "$samples" --minutes 0 \
  --set imitation.steps=0 --set run.eval_every=0 --set run.plot=false >"$out/train.log" 2>&1
network=$(grep -o 'network: [0-9]* multiply-adds a decision, [0-9]*' "$out/train.log" | grep -o '[0-9]*' | tr '\n' ' ')
"$python" - "$out" "$((ranks * threads))" $network <<'PY'
import csv, sys, time
import torch
import yaml

out, threads, multiply_adds, first_layer = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rows = list(csv.DictReader(open(f"{out}/metrics.csv")))
if len(rows) < 2:
    sys.exit(f"profile_ppo: {out}/metrics.csv has {len(rows)} updates; at least 2 are needed")
config = yaml.safe_load(open(f"{out}/config.yaml"))
ppo = config["ppo"]
epochs, minibatch = ppo["epochs"], ppo["minibatch"]
hidden = config["model"]["hidden"]

phases = [c for c in rows[0] if c.startswith("seconds_")]
seconds = {c[len("seconds_"):]: sum(float(r[c]) for r in rows[1:]) for c in phases}  # the first pays for start-up
# The counted updates' samples and seconds: the counters after the last one
# less those after the first update (the row dropped above).
first = rows[0]
rows = rows[1:]
samples = int(rows[-1]["step"]) - int(first["step"])
wall = float(rows[-1]["elapsed_s"]) - float(first["elapsed_s"])
measured = sum(seconds.values())

torch.set_num_threads(threads)
def gemm_rate(m, k, n, seconds=0.2, trials=5):
    # The best of a few trials of about `seconds` each: a VM's cores change
    # speed for seconds at a time, and the limit is what they can do.
    a, b = torch.randn(m, k), torch.randn(k, n)
    a @ b
    best = 0.0
    for _ in range(trials):
        repeats, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            a @ b
            repeats += 1
        best = max(best, 2.0 * m * k * n * repeats / (time.perf_counter() - start))
    return best
peak = max(gemm_rate(minibatch, hidden, hidden), gemm_rate(minibatch, 4 * hidden, hidden),
           gemm_rate(1024, 1024, 1024))
flops_per_sample = 2.0 * (multiply_adds + epochs * (3 * multiply_adds - first_layer))
limit = peak / flops_per_sample
rate = samples / wall

print(f"updates {len(rows)} (after the first), {samples} learner samples in {wall:.1f} s: {rate:,.0f} samples/s")
print(f"{'phase (rank 0)':<14} {'seconds':>8} {'share':>6}")
for name, s in seconds.items():
    print(f"{name:<14} {s:8.2f} {100 * s / wall:5.1f}%")
print(f"{'other':<14} {wall - measured:8.2f} {100 * (wall - measured) / wall:5.1f}%  (metrics, saves, progress)")
print(f"network: {multiply_adds:,} multiply-adds a decision ({first_layer:,} in the first layer); "
      f"{flops_per_sample / 1e6:.1f} MFLOP a learner sample (collection forward + {epochs} x (forward + backward))")
print(f"matrix products on {threads} threads: {peak / 1e9:.1f} GFLOP/s -> FLOP limit {limit:,.0f} samples/s; "
      f"PPO reaches {100 * rate / limit:.0f}% of it")
PY
