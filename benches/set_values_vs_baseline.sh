#!/usr/bin/env bash
# The set-algebra inputs of issue 14 (benches/set_values/*.lg), timed with this checkout's `lg`
# and with a baseline build of an earlier commit, side by side in one run, with the ratios.
#
#   benches/set_values_vs_baseline.sh [REV] [RUNS]
#
# REV defaults to 808e18f (the code before issue 14); it is built once into target/baseline-REV
# from a temporary git worktree. Each input runs RUNS times (default 3) per binary and the median
# wall time is shown; a run over LIMIT seconds (default 400) counts as a time-out, and a refusal
# (exit code 1) shows as "error". INPUTS names another folder of inputs (benches/unions: issue 29's
# unions of 30 random modules).
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:-808e18f}
runs=${2:-3}
limit=${LIMIT:-400}

cargo build --release -q
new=target/release/lg
source benches/baseline.sh
old=$(baseline_lg "$rev")

# The median wall time in seconds of $runs runs of `$1 $2`, or "timeout", or "error" when the
# binary refused the input (a diagnostic and exit code 1).
median() {
    local times=()
    for _ in $(seq "$runs"); do
        local start end status=0
        start=$(date +%s.%N)
        timeout "$limit" "$1" "$2" >/dev/null 2>&1 || status=$?
        if [ "$status" -eq 124 ]; then
            echo timeout
            return
        elif [ "$status" -ne 0 ]; then
            echo error
            return
        fi
        end=$(date +%s.%N)
        times+=("$(awk "BEGIN { print $end - $start }")")
    done
    printf "%s\n" "${times[@]}" | sort -g | sed -n "$(((runs + 1) / 2))p" | awk "{ printf \"%.3f\\n\", \$1 }"
}

printf '%-36s %12s %12s %8s\n' input "baseline s" "now s" ratio
for f in "${INPUTS:-benches/set_values}"/*.lg; do
    a=$(median "$old" "$f")
    b=$(median "$new" "$f")
    if [[ "$a" =~ ^[0-9.]+$ && "$b" =~ ^[0-9.]+$ ]]; then
        r=$(awk "BEGIN { printf \"%.1fx\", $a / $b }")
    else
        r=-
    fi
    printf '%-36s %12s %12s %8s\n' "$(basename "$f" .lg)" "$a" "$b" "$r"
done
