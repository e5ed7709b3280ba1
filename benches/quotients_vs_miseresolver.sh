#!/bin/bash
# Misère quotients: `lg` side by side with Aaron Siegel's MisereSolver (from aaron-siegel/cgsuite,
# built with the Debian JDK and small stand-ins for the Scala classes it imports; not part of CI).
#
#   MISERESOLVER=/path/to/run.sh benches/quotients_vs_miseresolver.sh
#
# MISERESOLVER is a script taking `CODE N` that runs MisereSolver to heap N and prints the
# `Elapsed (wall clock)` and `Maximum resident set size` lines of /usr/bin/time -v. Without it,
# only lg's side runs. Each row: the code, the heap bound, lg's seconds and peak RSS, the order
# and P-portion size lg proves, and MisereSolver's seconds (JVM start included, about 0.12 s).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
LG=target/release/lg
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
printf '%-8s %5s %9s %9s %6s %4s %12s\n' code N lg_s lg_MiB "|Q|" "|P|" solver_s
for row in "0.75 30" "0.77 253" "0.07 24" "0.07 25" "0.07 27" "0.137 12" "0.6 12" "4.07 10" "0.3122 6"; do
  set -- $row
  code=$1 n=$2
  cat > "$TMP/q.lg" <<LG
let Q = misere_quotient("$code", $n, timeout: 600)
print(quotient_order(Q), len(p_portion(Q)))
LG
  /usr/bin/time -f '%e %M' -o "$TMP/time" $LG "$TMP/q.lg" > "$TMP/out" 2>&1 || true
  read -r secs kib < "$TMP/time"
  read -r order p < "$TMP/out" || { order='-'; p='-'; }
  solver='-'
  if [ -n "${MISERESOLVER:-}" ]; then
    solver=$("$MISERESOLVER" "$code" "$n" 2>/dev/null | sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' | head -1)
  fi
  printf '%-8s %5s %9s %9s %6s %4s %12s\n' "$code" "$n" "$secs" "$((kib / 1024))" "$order" "$p" "$solver"
done
