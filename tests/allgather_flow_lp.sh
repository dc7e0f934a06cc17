#!/usr/bin/env bash
# scripts/allgather_flow_lp.py, the lower bound that holds for every
# allgather schedule on the SMPI Paragon platform (docs/allgather.md, "Where
# we still lose"): on 64 ranks with 1 KiB blocks it must exclude 1870 us,
# issue 15's target, with the shortfall it printed when it was written
# (54.59 pieces, bins of 10 us, pieces credited one by one; the bound the
# script recomputes from the solver's duals agrees), and it must not
# exclude 1996 us, where a real schedule exists: every node sending 1, 2, 4,
# 8, 8, 24, 16 blocks ends at 1995.7 us on free hops (the uniform schedule
# of scripts/allgather_classes_ilp.py). Skipped (77) without SciPy.
# usage: allgather_flow_lp.sh SOURCE_DIR
set -u
src=$1
py=$src/scripts/allgather_flow_lp.py
fail() { echo "FAIL: $*"; exit 1; }
/usr/bin/python3 -c 'import scipy.optimize' 2>/dev/null || { echo "SKIP: no SciPy"; exit 77; }
export PYTHONDONTWRITEBYTECODE=1
out=$(/usr/bin/python3 "$py" 1870 --delta 10 --pieces) || fail "1870: the script failed: $out"
echo "$out"
grep -q 'no schedule ends by D' <<<"$out" || fail "1870 us not excluded"
f=$(sed -n 's/.*shortfall \([0-9.]*\).*/\1/p' <<<"$out")
awk -v f="$f" 'BEGIN { exit !(f > 54.5 && f < 54.7) }' || fail "1870 us: shortfall $f, not 54.59"
# the verdict rests on the bound recomputed from the duals (weak duality),
# which must come within 0.01 of the solver's optimum (its primal may be
# off by its tolerance either way)
cert=$(sed -n 's/.*certified >= \([-0-9.]*\).*/\1/p' <<<"$out")
awk -v f="$f" -v c="$cert" 'BEGIN { exit !(c != "" && c < f + 0.01 && c > f - 0.01) }' ||
  fail "1870 us: certified bound '$cert' against the optimum $f"
out=$(/usr/bin/python3 "$py" 1996 --delta 10 --pieces) || fail "1996: the script failed: $out"
echo "$out"
grep -q 'does not exclude D' <<<"$out" || fail "1996 us excluded, where the uniform schedule ends at 1995.7"
# 16 KiB blocks (bins of 25 us): 3234 us is above 1.3 times `meshgossip
# bound`'s 2.4875 ms on torus:8x8 under the calibrated model (3233.8), the
# mark issue 15 asks for; no schedule of whole blocks ends by then (28.08
# pieces missing), so that mark is out of reach at 16 KiB (docs/allgather.md,
# "Where we still lose"); the program allows 3360 us in bins of 10 us (not
# run here: 43 s)
out=$(/usr/bin/python3 "$py" 3234 --delta 25 --blk 16384 --pieces) || fail "16 KiB, 3234: the script failed: $out"
echo "$out"
f=$(sed -n 's/.*shortfall \([0-9.]*\).*/\1/p' <<<"$out")
cert=$(sed -n 's/.*certified >= \([-0-9.]*\).*/\1/p' <<<"$out")
awk -v f="$f" -v c="$cert" 'BEGIN { exit !(f > 28.0 && f < 28.2 && c > f - 0.01 && c < f + 0.01) }' ||
  fail "16 KiB, 3234 us: shortfall $f (certified $cert), not 28.08"
# the message times by hand, on 2 nodes (bins of 2.5 us): a 1 KiB block
# (SimGrid's band from 732 B moves at 0.342 of 175 MB/s) arrives 250 +
# 17.11 + 0.4 = 267.51 us after the start, so at 267.5 both nodes lack
# their piece and at 267.6 neither; with blocks cut anywhere in halves
# (--split 2), a message of 513 B (0.338) counts as a half-block and
# arrives at 259.07: at 259 each node lacks half
shortfall_of() { /usr/bin/python3 "$py" "$@" --delta 2.5 --nodes 2 | sed -n 's/.*shortfall \([0-9.]*\).*/\1/p'; }
[ "$(shortfall_of 267.5)" = 2.0000 ] || fail "2 nodes, 267.5 us: $(shortfall_of 267.5), want 2"
[ "$(shortfall_of 267.6)" = 0.0000 ] || fail "2 nodes, 267.6 us: $(shortfall_of 267.6), want 0"
[ "$(shortfall_of 259 --split 2)" = 1.0000 ] || fail "2 nodes, halves, 259 us: $(shortfall_of 259 --split 2), want 1"
[ "$(shortfall_of 259.1 --split 2)" = 0.0000 ] || fail "2 nodes, halves, 259.1 us: want 0"
out=$(/usr/bin/python3 "$py" 1870 --delta 7 2>&1) && fail "delta 7 accepted: $out"
grep -q 'delta must divide 250' <<<"$out" || fail "delta 7: $out"
echo "ok"
