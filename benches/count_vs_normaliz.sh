#!/bin/bash
# count (Barvinok's short generating functions) beside Normaliz's NumberLatticePoints on the
# inputs of issue 29, in one run: lg's seconds, Normaliz's seconds (or "timeout" past LIMIT), and
# whether the counts agree.
#
#   benches/count_vs_normaliz.sh          # LIMIT=60 seconds per Normaliz run by default
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
LG=target/release/lg
LIMIT=${LIMIT:-60}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
have_normaliz=$(command -v normaliz >/dev/null && echo yes || echo no)

# row NAME D "A rows ; separated" "b entries , separated": {x : Ax ≥ b}
row() {
  local name=$1 d=$2 a=$3 b=$4
  local start end lg_out lg_s nz_s nz_out agree
  start=$(date +%s.%N)
  lg_out=$($LG -e "count(polyhedron([$a], ($b)))" 2>&1 | tail -1)
  end=$(date +%s.%N)
  lg_s=$(echo "$end - $start" | bc)
  nz_s=- nz_out=-
  if [ "$have_normaliz" = yes ]; then
    {
      echo "amb_space $d"
      echo "inhom_inequalities $(echo "$a" | tr ';' '\n' | wc -l)"
      paste -d' ' <(echo "$a" | tr ';' '\n' | sed 's/^ *//') <(echo "$b" | tr ',' '\n' | sed 's/^ *//; s/^-//; t; s/^/-/')
    } > "$TMP/p.in"
    start=$(date +%s.%N)
    if timeout "$LIMIT" normaliz --NumberLatticePoints -x=1 "$TMP/p.in" > /dev/null 2>&1; then
      end=$(date +%s.%N)
      nz_s=$(echo "$end - $start" | bc)
      nz_out=$(sed -n 's/ *\([0-9]*\) lattice points in polytope.*/\1/p' "$TMP/p.out")
    else
      nz_s=timeout
    fi
  fi
  agree=-
  if [ "$nz_out" != "-" ] && [ -n "$nz_out" ]; then
    if [ "$nz_out" = "$lg_out" ]; then agree=yes; else agree=DIFFERS; fi
  fi
  printf '%-28s %8.3f %10s %6s  %s\n' "$name" "$lg_s" "$nz_s" "$agree" "${lg_out:0:40}"
}

printf '%-28s %8s %10s %6s  %s\n' input lg_s normaliz_s agree count
simplex="1 0 0; 0 1 0; 0 0 1; -3 -5 -7"
row "simplex 3,5,7 N=10^3" 3 "$simplex" "0, 0, 0, -1000"
row "simplex 3,5,7 N=10^5" 3 "$simplex" "0, 0, 0, -100000"
row "simplex 3,5,7 N=10^100" 3 "$simplex" "0, 0, 0, -$(printf '1%0100d' 0)"
row "triangle side 3000" 2 "1 0; 0 1; -1 -1" "0, 0, -3000"
row "triangle side 10^9" 2 "1 0; 0 1; -1 -1" "0, 0, -1000000000"
# Random rational polytopes (seeded): a box of side 2·10^6 cut by random half-spaces.
seed=29
# rnd LO HI sets R (no subshell, so the seed advances).
rnd() { seed=$(( (seed * 1103515245 + 12345) % 2147483648 )); R=$(( $1 + seed % ($2 - $1 + 1) )); }
for d in 3 4 5; do
  for k in 1 2; do
    a="" b=""
    for i in $(seq 0 $((d - 1))); do
      e=$(for j in $(seq 0 $((d - 1))); do [ "$i" = "$j" ] && echo -n "1 " || echo -n "0 "; done)
      f=$(for j in $(seq 0 $((d - 1))); do [ "$i" = "$j" ] && echo -n "-1 " || echo -n "0 "; done)
      a="$a${a:+; }$e; $f"
      b="$b${b:+, }-1000000, -1000000"
    done
    for c in 1 2 3; do
      r=""
      for _ in $(seq 1 "$d"); do rnd -9 9; r="$r$R "; done
      a="$a; $r"
      rnd -3000000 0
      b="$b, $R"
    done
    row "random d=$d #$k (10^6)" "$d" "$a" "$b"
  done
done

# Short generating functions as values (no Normaliz counterpart): genfunc of the triangle of
# side 10^9 (three terms), its count, membership and an identity.
start=$(date +%s.%N)
out=$($LG -e 'let f = genfunc(polyhedron([1 0; 0 1; -1 -1], (0, 0, -10^9)))
print(len(members(f, ((10^9 - 2, 0), (10^9, 2)))), count(f), (10^9, 0) in f, f == genfunc(polyhedron([1 0; 0 1; -1 -1; -1 0], (0, 0, -10^9, -2*10^9))))' 2>&1 | tr '\n' ' ')
end=$(date +%s.%N)
printf '%-28s %8.3f %10s %6s  %s\n' "genfunc triangle 10^9" "$(echo "$end - $start" | bc)" - - "${out:0:60}"

# Issue 29's identity genfunc(S ∪ T) + genfunc(S ∩ T) == genfunc(S) + genfunc(T) on random unions
# of three modules in d = 3 (benches/identities/): the seconds of the set algebra and genfunc
# (building both sides) and of the comparison alone.
printf '\n%-28s %10s %10s  %s\n' identity build_s compare_s equal
for f in benches/identities/*.lg; do
  start=$(date +%s.%N)
  $LG "$f" > /dev/null
  mid=$(date +%s.%N)
  (cat "$f"; echo 'print(a == b)') > "$TMP/eq.lg"
  out=$($LG "$TMP/eq.lg" 2>&1 | tail -1)
  end=$(date +%s.%N)
  build=$(echo "$mid - $start" | bc)
  compare=$(echo "($end - $mid) - $build" | bc)
  printf '%-28s %10.3f %10.3f  %s\n' "$(basename "$f" .lg)" "$build" "$compare" "$out"
done
