#!/usr/bin/env bash
# meshgossip-mpi bench on NP ranks for one collective, sizes 1..4096
# (-m 1:4K, 13 sizes), full statistics, and as JSON. Asserts the OSU
# micro-benchmarks' header and columns (osu_allgather / osu_alltoall):
# the title, the column line, one row per power of two with the given
# iteration count, min <= avg <= max on both sides, the ratio equal to
# ours/library's averages; and that the byte check passed over exactly
# 2 * (1 + 2 + ... + 4096) * NP^2 received bytes (both collectives, every
# rank receives NP blocks), an independent recount.
# usage: bench.sh MPIEXEC TOOL NP allgather|alltoall
set -u
mpiexec=$1 tool=$2 np=$3 coll=$4
fail() { echo "FAIL: $*"; exit 1; }
run() { "$mpiexec" --allow-run-as-root --oversubscribe -np "$np" "$tool" bench --coll "$coll" "$@"; }
# the 13 sizes run a named multi-round schedule (auto would price every
# algorithm at each size on every rank: slow under the sanitizers); the
# JSON run takes auto
case $coll in
allgather) title='# OSU MPI Allgather Latency Test' algo=dimwise ;;
alltoall) title='# OSU MPI All-to-All Personalized Exchange Latency Test' algo=exchange-dimwise ;;
*) fail "unknown collective $coll" ;;
esac
topo=ring:$np
[ "$np" -eq 9 ] && topo=torus:3x3
[ "$np" -eq 4 ] && topo=torus:2x2
want_bytes=$((2 * 8191 * np * np))
out=$(run --topo "$topo" --algo $algo -m 1:4K -i 7 -x 2 -f)
rc=$?
printf '%s\n' "$out"
[ $rc -eq 0 ] || fail "exit $rc"
[ "$(printf '%s\n' "$out" | sed -n 1p | cut -c1-${#title})" = "$title" ] || fail "first line is not '$title'"
cols='# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations    MPI Avg(us)    MPI Min(us)    MPI Max(us)  Ours/MPI  Algorithm'
[ "$(printf '%s\n' "$out" | sed -n 3p)" = "$cols" ] || fail "column line differs from OSU's -f columns"
printf '%s\n' "$out" | grep -v '^#' | awk -v iters=7 -v algo=$algo '
  { want = 2 ^ (NR - 1)
    if ($1 != want) { print "row " NR ": size " $1 ", want " want; bad = 1 }
    if (NF != 10) { print "row " NR ": " NF " fields"; bad = 1 }
    if ($10 !~ "^" algo) { print "row " NR ": algorithm " $10; bad = 1 }
    if ($5 != iters) { print "row " NR ": iterations " $5; bad = 1 }
    if (!($3 <= $2 && $2 <= $4 && $7 <= $6 && $6 <= $8)) { print "row " NR ": not min <= avg <= max"; bad = 1 }
    r = $2 / $6
    if ($9 < r - 0.002 - 0.01 * r || $9 > r + 0.002 + 0.01 * r) { print "row " NR ": ratio " $9 ", want " r; bad = 1 } }
  END { if (NR != 13) { print NR " rows, want 13"; bad = 1 }; exit bad }' || fail "rows"
printf '%s\n' "$out" | grep -qx "# Byte check: passed, $want_bytes received bytes over 13 sizes, ours and the library's, checked before timing" ||
  fail "byte check line missing or not $want_bytes bytes"
# JSON: the same figures in one object
out=$(run --topo "$topo" --sizes 0,100,3000 -i 3 -x 0 --json)
rc=$?
printf '%s\n' "$out"
[ $rc -eq 0 ] || fail "json exit $rc"
printf '%s\n' "$out" | grep -q "\"benchmark\": \"${title#\# }\", \"collective\": \"$coll\", \"ranks\": $np, \"topology\": \"$topo\"" ||
  fail "json header"
[ "$(printf '%s\n' "$out" | grep -o '"size": [0-9]*' | tr -d '"size: ' | tr '\n' ,)" = "0,100,3000," ] || fail "json sizes"
printf '%s\n' "$out" | grep -q "\"check\": \"passed\", \"checked_bytes\": $((2 * 3100 * np * np))}" || fail "json byte check"
# bad usage: a range upside down (one rank is enough)
"$mpiexec" --allow-run-as-root --oversubscribe -np 1 "$tool" bench -m 8:4 >/dev/null 2>&1
[ $? -eq 2 ] || fail "-m 8:4 not refused with exit 2"
# --reps and --sizes: "5x" was atoi's 5; a size past INT32_MAX became a
# negative int count in calibrate; sizes past the 32th were dropped unsaid
for bad in "--reps 5x" "--reps 99999999999" "--sizes 3000000000" "--sizes $(seq -s, 1 33)" "--sizes 1,-2" "--sizes +5"; do
  # shellcheck disable=SC2086
  "$mpiexec" --allow-run-as-root --oversubscribe -np 1 "$tool" bench $bad >/dev/null 2>&1
  [ $? -eq 2 ] || fail "$bad not refused with exit 2"
done
echo "PASS: bench $coll on $np ranks"
