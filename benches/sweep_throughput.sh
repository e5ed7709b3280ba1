#!/usr/bin/env bash
# Throughput of a conjecture sweep (issue 19): examples/sweeps/misere_squarefree.lg over N games
# (default 1000), as one process, and as one shard per core run side by side in parallel, each
# whole `lg` process timed with its peak memory; then the summary of the records.
#
#   benches/sweep_throughput.sh [games] [play]      # play: misere (default) or generalized
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
lg=$PWD/target/release/lg
games=${1:-1000}
play=${2:-misere}
cores=$(nproc)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
sweep=examples/sweeps/misere_squarefree.lg

start=$(date +%s.%N)
/usr/bin/time -f "%e %M" -o "$dir/one.time" \
    "$lg" --set games="$games" --set play="$play" --results "$dir/one.jsonl" "$sweep" >/dev/null
one=$(echo "$(date +%s.%N) - $start" | bc)
read -r _ kib <"$dir/one.time"
printf 'one process:        %7.1f s  %7.0f games/min  peak %s MiB\n' \
    "$one" "$(echo "$games * 60 / $one" | bc -l)" "$((kib / 1024))"

start=$(date +%s.%N)
for i in $(seq 1 "$cores"); do
    RAYON_NUM_THREADS=1 /usr/bin/time -f "%e %M" -o "$dir/$i.time" \
        "$lg" --shard "$i/$cores" --set games="$games" --set play="$play" \
        --results "$dir/$i.jsonl" "$sweep" >/dev/null &
done
wait
sharded=$(echo "$(date +%s.%N) - $start" | bc)
printf '%d shards of 1 thread: %7.1f s  %7.0f games/min  (shards:' \
    "$cores" "$sharded" "$(echo "$games * 60 / $sharded" | bc -l)"
for i in $(seq 1 "$cores"); do
    read -r secs kib <"$dir/$i.time"
    printf ' %s s %s MiB' "$secs" "$((kib / 1024))"
done
echo ')'
"$lg" --summary "$dir"/[0-9]*.jsonl | head -12
