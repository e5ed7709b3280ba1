#!/usr/bin/env bash
# `grundy(code, n)` against ogsolve (the `ogsolve` crate: `cargo install ogsolve`), side by side in
# one run: the octal games 0.137, 0.77, 0.07 and 0.16 at n = 10^4 and 10^5, ogsolve with each of
# its methods (naive, rc, rc2), the ratio taken against its best. Both times are whole processes
# (start-up included, a few milliseconds). Skipped with a message when ogsolve is not installed.
#
#   benches/grundy_vs_ogsolve.sh [SIZES...]
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v ogsolve >/dev/null; then
    echo "SKIPPED: ogsolve is not installed (cargo install ogsolve)"
    exit 0
fi
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10000 100000)
cargo build --release -q
lg=target/release/lg
script=$(mktemp --suffix=.lg)
trap 'rm -f "$script"' EXIT

seconds() {
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null
    end=$(date +%s.%N)
    awk "BEGIN { printf \"%.3f\", $end - $start }"
}

printf '%-6s %8s %8s %8s %8s %8s %7s\n' code n lg naive rc rc2 ratio
for code in 0.137 0.77 0.07 0.16; do
    for n in "${sizes[@]}"; do
        printf 'let g = grundy("%s", %s)\nassert len(g) == %s + 1\n' "$code" "$n" "$n" >"$script"
        ours=$(seconds "$lg" "$script")
        best=1e18
        row=()
        for m in naive rc rc2; do
            t=$(seconds ogsolve -m "$m" -n "$n" "$code")
            row+=("$t")
            best=$(awk "BEGIN { print ($t < $best) ? $t : $best }")
        done
        printf '%-6s %8s %8s %8s %8s %8s %6.2fx\n' "$code" "$n" "$ours" "${row[@]}" \
            "$(awk "BEGIN { print $ours / $best }")"
    done
done
