#!/usr/bin/env bash
# `stratify` on games in five dimensions (issue 30, item 4): the sweep of generalized misère play
# drawn on N^5 only (`--set min_dim=5 --set max_dim=5`), timed with this checkout's `lg` and with
# a baseline build of an earlier commit, side by side in one run, each under the same time limit
# per game; then each one's time and counts by outcome (from `lg --summary`), and the items one
# stratified and the other did not.
#
#   benches/stratify_five_dims.sh [REV] [GAMES] [SEED] [PLAY] [TIMEOUT]
#
# REV defaults to eedd283 (before the guess of layers was tried in d = 5); it is built once into
# target/baseline-REV from a temporary git worktree. GAMES 50, SEED 6061, PLAY generalized
# (misere, rules), TIMEOUT 10 seconds a game.
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:-eedd283}
games=${2:-50}
seed=${3:-6061}
play=${4:-generalized}
timeout=${5:-10}

cargo build --release -q
new=$PWD/target/release/lg
source benches/baseline.sh
old=$(baseline_lg "$rev")
sweep=examples/sweeps/misere_squarefree.lg
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

for which in baseline now; do
    lg=$new
    [ "$which" = baseline ] && lg=$old
    start=$(date +%s.%N)
    "$lg" --set min_dim=5 --set max_dim=5 --set games="$games" --set seed="$seed" \
        --set play="$play" --set timeout="$timeout" --results "$dir/$which.jsonl" "$sweep" \
        >/dev/null
    printf '== %s (%s): %.0f s for %s games on N^5, play=%s, seed %s\n' "$which" \
        "$([ "$which" = baseline ] && echo "$rev" || git rev-parse --short HEAD)" \
        "$(echo "$(date +%s.%N) - $start" | bc)" "$games" "$play" "$seed"
    "$new" --summary "$dir/$which.jsonl" | sed -n '3,/^$/p'
done

# The items each stratified (from each record's item and outcome), one a line, and those of one
# list only.
for which in baseline now; do
    grep '"outcome":"stratified"' "$dir/$which.jsonl" | sed 's/.*"item":\([0-9]*\),.*/\1/' |
        sort >"$dir/$which.items" || true
done
only() { comm "$1" "$dir/baseline.items" "$dir/now.items" | sort -n | tr '\n' ' '; }
echo "stratified by the baseline only: $(only -23)"
echo "stratified now only:             $(only -13)"
