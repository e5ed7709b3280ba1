#!/usr/bin/env bash
# Heap games at scale (issue 15), whole `lg` processes timed with their peak memory:
# building `octal("0.77", n)` as a lattice game (the axioms certified in linear time), Nim(40),
# `outcome`/`winning_moves`/`grundy(G, p)` on a Kayles position with a million heaps, and
# `misere_grundy`/`genus`/`periodicity` of Kayles. `grundy(code, n)` against ogsolve is in
# benches/grundy_vs_ogsolve.sh.
#
#   benches/heap_games.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
lg=target/release/lg
script=$(mktemp --suffix=.lg)
trap 'rm -f "$script"' EXIT

run() {
    local label=$1
    printf '%s\n' "$2" >"$script"
    /usr/bin/time -f "%e %M" -o "$script.time" "$lg" "$script" >/dev/null 2>&1 || true
    read -r secs kib < <(tail -n 1 "$script.time")
    printf '%-52s %8s s %8s MiB\n' "$label" "$secs" "$((kib / 1024))"
    rm -f "$script.time"
}

printf '%-52s %10s %12s\n' input time peak
for n in 100 200 300; do
    run "octal(\"0.77\", $n) (n(n+1)/2 moves in dimension $n)" "let G = octal(\"0.77\", $n)"
done
run "octal(\"0.77\", 1000) (500500 moves in dimension 1000)" 'let G = octal("0.77", 1000)'
run "octal(\"0.77\", 2000) (2001000 moves in dimension 2000)" 'let G = octal("0.77", 2000)'
run "misère octal(\"0.77\", 1000) + outcome of heaps 3, 5, 7" '
let G = octal("0.77", 1000, play: "misere")
print(outcome(G, heap(1000, 3) + heap(1000, 5) + heap(1000, 7)))'
run "game(nim(40), normal_play(nim(40)))" 'let G = game(nim(40), normal_play(nim(40)))'
run "outcome + winning_moves + grundy, 10^6 heaps (0.77, n=40)" '
let G = octal("0.77", 40)
let p = 1000000 * unit(40, 40) + 999999 * unit(40, 17) + 3 * unit(40, 6)
print(outcome(G, p), winning_moves(G, p), grundy(G, p))'
run "misere_grundy(\"0.77\", 40)" 'print(misere_grundy("0.77", 40))'
run "genus(\"0.77\", 40)" 'print(genus("0.77", 40))'
run "periodicity(\"0.77\", 10^5)" 'print(periodicity("0.77", 100000))'
