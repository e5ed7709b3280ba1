#!/usr/bin/env bash
# The games that resisted `stratify` in the sweeps measured for issue 30, run again: misère play
# of random rule sets (seed 5555) and generalized misère play (seeds 1234 and 6061), 100 games
# each at 10 s a game with default settings, where these 18 were the ones not stratified. Each
# is re-run through the sweep itself (`--set items=`), so it is the same game, drawn from
# (seed, item) alone, at a longer limit; the sweep's table per family, then `lg --summary`
# of the three (the counts by outcome, the slowest, those not stratified).
# A change meant to gain such games is measured here first (a 100-game sweep then checks it
# loses none that were found).
#
#   benches/stratify_resisting.sh [TIMEOUT] [LG]     # TIMEOUT in seconds (default 60)
set -euo pipefail
cd "$(dirname "$0")/.."
timeout=${1:-60}
lg=${2:-}
if [ -z "$lg" ]; then
    cargo build --release -q
    lg=$PWD/target/release/lg
fi
sweep=examples/sweeps/misere_squarefree.lg
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

run() { # play seed items
    echo "== play=$1 seed=$2, $timeout s a game"
    "$lg" --set play="$1" --set seed="$2" --set items="$3" --set timeout="$timeout" \
        --results "$dir/$1_$2.jsonl" "$sweep"
}
run rules 5555 25,29,34,39,46,47,75,77,79,94
run generalized 1234 8,15,31,50
run generalized 6061 23,60,84,90
echo "== all three, $timeout s a game"
"$lg" --summary "$dir"/*.jsonl
