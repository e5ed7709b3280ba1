#!/bin/bash
# Misère quotients: `lg` side by side with Aaron Siegel's MisereSolver (from aaron-siegel/cgsuite,
# built with the Debian JDK and small stand-ins for the Scala classes it imports; not part of CI).
#
#   MISERESOLVER=/path/to/run.sh benches/quotients_vs_miseresolver.sh            # the hard codes
#   MISERESOLVER=/path/to/run.sh benches/quotients_vs_miseresolver.sh --census   # the census
#   MISERESOLVER=/path/to/run.sh benches/quotients_vs_miseresolver.sh --three-digit [CODE...]
#
# MISERESOLVER is a script taking `CODE N` that runs MisereSolver to heap N and prints a line
# `|Q| |P|` for the last heap it proved, then the `Elapsed (wall clock)` and `Maximum resident
# set size` lines of /usr/bin/time -v. Without it, only lg's side runs.
#
# Default: each row is a code and a heap bound; lg runs `misere_quotient(code, max_heap: N)`
# within LIMIT seconds (default 120) and reports the heap it proved (N when the quotient is
# final, so proved for every heap size, before N), |Q|, |P|, its seconds and
# peak RSS; MisereSolver's seconds (JVM start included), |Q|, |P| and peak RSS follow, and the
# ratio lg/MisereSolver.
#
# --three-digit: "where MisereSolver reaches heap 30 within two minutes, lg within twice its
# time", on the codes 0.abc of tests/reference_tools/miseresolver_three_digit_codes.tsv (or on
# the codes given, of any length): MisereSolver to heap 30 within LIMIT seconds (default 120;
# here its script must also print `heap K` before each heap's `|Q| |P|`); where it gets there,
# lg within twice its time (both wall clock, JVM start included), else lg within 10 s to show
# its heap. One line a code, then the counts. All 448 take about six hours, nearly all of it
# MisereSolver's LIMIT on the 171 codes it does not take to heap 30; run it on an otherwise idle
# machine.
#
# --census: runs examples/sweeps/misere_quotients.lg to heap N (default 30) as two shards side by
# side (the machine's two cores), prints the wall time of the whole census, and compares each
# code's |Q|, |P| with MisereSolver's at the same heap where it is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
LG=target/release/lg
LIMIT=${LIMIT:-120}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# MisereSolver on CODE N: "|Q| |P| seconds MiB", or dashes.
solver() {
  if [ -z "${MISERESOLVER:-}" ]; then echo "- - - -"; return; fi
  local out
  out=$(timeout $((2 * LIMIT)) "$MISERESOLVER" "$1" "$2" 2>&1 || true)
  local qp secs kib
  qp=$(echo "$out" | grep -E '^[0-9]+ [0-9]+$' | tail -1)
  secs=$(echo "$out" | sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' | head -1 \
    | awk -F: '{ if (NF == 3) print $1 * 3600 + $2 * 60 + $3; else print $1 * 60 + $2 }')
  kib=$(echo "$out" | sed -n 's/.*Maximum resident set size (kbytes): //p' | head -1)
  echo "${qp:-- -} ${secs:--} $(( ${kib:-0} / 1024 ))"
}

if [ "${1:-}" = "--three-digit" ]; then
  shift
  if [ -z "${MISERESOLVER:-}" ]; then echo "--three-digit needs MISERESOLVER" >&2; exit 2; fi
  TABLE=tests/reference_tools/miseresolver_three_digit_codes.tsv
  if [ $# -gt 0 ]; then codes="$*"; else codes=$(awk -F'\t' '!/^#/ && $1 != "code" { print $1 }' "$TABLE"); fi
  printf '%-6s | %7s %8s | %7s %8s | %6s  %s\n' code ms_heap ms_s lg_heap lg_s ratio verdict
  reached=0 within=0 slower=0 short=0
  for code in $codes; do
    start=$(date +%s.%N)
    out=$(timeout "$LIMIT" "$MISERESOLVER" "$code" 30 2>&1 || true)
    ms_s=$(echo "$(date +%s.%N) - $start" | bc)
    ms_heap=$(echo "$out" | sed -n 's/^heap //p' | tail -1)
    if [ "${ms_heap:-0}" = 30 ]; then
      budget=$(echo "$ms_s * 2" | bc | awk '{ print int($1) + 1 }')
    else
      budget=10
    fi
    cat > "$TMP/q.lg" <<LG
let Q = misere_quotient("$code", max_heap: 30, timeout: $budget)
print(if is_final(Q) { 30 } else { quotient_heap(Q) })
LG
    start=$(date +%s.%N)
    lg_heap=$($LG "$TMP/q.lg" 2>/dev/null | tail -1 || true)
    lg_s=$(echo "$(date +%s.%N) - $start" | bc)
    ratio=- verdict="MisereSolver short of heap 30 in $LIMIT s"
    if [ "${ms_heap:-0}" = 30 ]; then
      reached=$((reached + 1))
      ratio=$(printf '%.2f' "$(echo "scale=3; $lg_s / $ms_s" | bc)")
      if [ "$lg_heap" = 30 ] && [ "$(echo "$lg_s <= 2 * $ms_s" | bc)" = 1 ]; then
        within=$((within + 1)) verdict="within 2x"
      else
        slower=$((slower + 1)) verdict="SLOWER than 2x"
      fi
    else
      short=$((short + 1))
    fi
    printf '%-6s | %7s %8.2f | %7s %8.2f | %6s  %s\n' "$code" "${ms_heap:--}" "$ms_s" "${lg_heap:--}" "$lg_s" "$ratio" "$verdict"
  done
  echo "MisereSolver reached heap 30 within $LIMIT s on $reached codes: lg within twice its time on $within, slower on $slower; short of heap 30: $short"
  exit 0
fi

if [ "${1:-}" = "--census" ]; then
  n=${2:-30}
  start=$(date +%s.%N)
  for i in 1 2; do
    $LG --shard $i/2 --results "$TMP/$i.jsonl" --set max_heap="$n" --set timeout="$LIMIT" \
      examples/sweeps/misere_quotients.lg > /dev/null &
  done
  wait
  end=$(date +%s.%N)
  echo "census to heap $n: $(echo "$end - $start" | bc) s on two shards"
  $LG --summary "$TMP"/*.jsonl | head -20
  printf '%-6s %5s %6s %5s %8s | %6s %5s %8s\n' code heap "|Q|" "|P|" lg_s "|Q|" "|P|" solver_s
  cat "$TMP"/*.jsonl | python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    print(r["item"], r.get("heap") or "-", r.get("order") or "-", r.get("p_count") or "-", r.get("seconds"), r.get("outcome"))
' | sort | while read -r code heap order p secs outcome; do
    if [ "$heap" = "-" ]; then
      printf '%-6s %5s %6s %5s %8s | %s\n' "$code" - - - "$secs" "$outcome"
      continue
    fi
    read -r sq sp ss _ <<< "$(solver "$code" "$heap")"
    flag=""
    if [ "$sq" != "-" ] && { [ "$sq" != "$order" ] || [ "$sp" != "$p" ]; }; then flag="  DIFFERS"; fi
    printf '%-6s %5s %6s %5s %8s | %6s %5s %8s%s\n' "$code" "$heap" "$order" "$p" "$secs" "$sq" "$sp" "$ss" "$flag"
  done
  exit 0
fi

printf '%-7s %4s | %4s %5s %4s %8s %6s | %5s %4s %8s %6s | %6s\n' \
  code N heap "|Q|" "|P|" lg_s lg_MiB "|Q|" "|P|" solver_s s_MiB ratio
for row in "0.75 30" "0.77 253" "0.07 25" "0.07 27" "0.07 30" "0.07 33" "0.17 30" "0.57 30" \
           "0.137 30" "0.137 33" "0.4 30" "0.4 33" "0.104 30" "0.14 30" "0.74 30" "0.146 30" \
           "0.6 12" "4.07 10" "0.3122 6"; do
  set -- $row
  code=$1 n=$2
  cat > "$TMP/q.lg" <<LG
let Q = misere_quotient("$code", max_heap: $n, timeout: $LIMIT)
print(if is_final(Q) { $n } else { quotient_heap(Q) }, quotient_order(Q), len(p_portion(Q)))
LG
  /usr/bin/time -f '%e %M' -o "$TMP/time" $LG "$TMP/q.lg" > "$TMP/out" 2>&1 || true
  read -r secs kib < "$TMP/time"
  read -r heap order p < "$TMP/out" || { heap='-'; order='-'; p='-'; }
  read -r sq sp ss smib <<< "$(solver "$code" "$n")"
  ratio=-
  if [ "$ss" != "-" ] && [ "$heap" = "$n" ]; then ratio=$(echo "scale=2; $secs / $ss" | bc); fi
  printf '%-7s %4s | %4s %5s %4s %8s %6s | %5s %4s %8s %6s | %6s\n' \
    "$code" "$n" "$heap" "$order" "$p" "$secs" "$((kib / 1024))" "$sq" "$sp" "$ss" "$smib" "$ratio"
done
