#!/bin/bash
# table_columns.sh MESHGOSSIP: `table` and `bound` print aligned columns
# whatever the width of a table's row, column or algorithm names (they
# broke in tseng-t3, tseng-sync, fujita and bound), with the values' unit in
# their headers and the papers cited by their authors. The tables checked
# are the quick ones; the layout code is the same for all.
set -uo pipefail
mg=$1
fail() { echo "FAIL: $*"; exit 1; }
for t in tseng-sync delmas juurlink-cor1; do
  out=$("$mg" table "$t") || fail "table $t exits $?"
  head=$(printf '%s\n' "$out" | sed -n 2p)
  # the last value column is right-aligned just before "params / note"
  p=$(awk -v h="$head" 'BEGIN { print index(h, "params / note") }')
  [ "$p" -gt 3 ] || fail "$t: no 'params / note' header: $head"
  printf '%s\n' "$out" | tail -n +3 | awk -v p="$p" -v t="$t" '
    substr($0, p - 2, 2) != "  " || substr($0, p - 3, 1) == " " { print "FAIL: " t ": column broken: " $0; bad = 1 }
    END { exit bad }' || exit 1
  grep -q 'paper \[[^]]*\] *closed form \[[^]]*\] *simulated \[[^]]*\]' <<<"$head" ||
    fail "$t: no unit in the value headers: $head"
  grep -q 'seed 00' <<<"$out" && fail "$t cites a paper by file: $(printf '%s\n' "$out" | head -1)"
done
[ "$("$mg" table tseng-sync | sed -n 1p | cut -c1-20)" = "Tseng, Ni, Sheu 1999" ] || fail "tseng-sync title"
# bound: a unit on the bound and on the value column, the terms aligned
out=$("$mg" bound --problem gossip --topo ring:729 --r 10) || fail "bound exits $?"
printf '%s\n' "$out" | sed -n 1p | grep -qx "gossip on ring:729: lower bound 364 t'_l" || fail "bound head: $out"
printf '%s\n' "$out" | sed -n 2p | grep -q "value \[t'_l\]" || fail "bound: no unit: $out"
grep -q 'Juurlink, Rao, Sibeyn 1996 Lemma 1' <<<"$out" || fail "bound cites no authors: $out"
v=$(printf '%s\n' "$out" | tail -n +3 | awk '{ match($0, /^ +[^ ]+ +[^ ]+/); print RLENGTH }' | sort -u | wc -l)
[ "$v" -eq 1 ] || fail "bound's value column is not aligned: $out"
"$mg" bound --problem exchange --topo torus:8x8 --model port=one,ts=1,tl=1e-3 --bytes 1024 | sed -n 1p |
  grep -qx "exchange on torus:8x8: lower bound 65.536 s" || fail "bound in seconds"
echo "table_columns: ok"
