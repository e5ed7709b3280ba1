#!/bin/bash
# Misère quotients: `lg` side by side with Aaron Siegel's MisereSolver (from aaron-siegel/cgsuite,
# built with the Debian JDK and small stand-ins for the Scala classes it imports; not part of CI).
#
#   MISERESOLVER=/path/to/run.sh benches/quotients_vs_miseresolver.sh            # the hard codes
#   MISERESOLVER=/path/to/run.sh benches/quotients_vs_miseresolver.sh --census   # the census
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
