#!/usr/bin/env bash
# Installs every dependency of rocketgym from Debian packages. Safe to run again:
# it installs only what is missing.
set -euo pipefail

packages=(
  build-essential cmake ninja-build git pkg-config
  clang libclang-rt-14-dev libomp-14-dev  # scripts/fuzz.sh: libFuzzer and OpenMP for clang
  clang-format  # scripts/format.sh: the C++ style (.clang-format)
  libyaml-cpp-dev nlohmann-json3-dev libcli11-dev catch2
  libtorch-dev libgloo-dev libopenblas0-openmp
  pybind11-dev python3-dev python3-numpy python3-pytest python3-torch python3-matplotlib
  python3-pytest-xdist  # scripts/test.sh: pytest -n, one worker per core
  python3-setuptools python3-pip python3-wheel
  python3-cloudpickle python3-typing-extensions  # for Gymnasium's / PettingZoo's checkers (docs/python.md)
  mkdocs  # the docs site (scripts/docs.sh)
  python3-yaml  # scripts/profile_ppo.sh reads a run's config.yaml
  gcovr  # line and branch coverage (scripts/coverage.sh)
  chromium chromium-driver python3-selenium fonts-liberation  # the browser tests (tests/browser/)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all dependencies are installed"
  exit 0
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "setup: installing ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
