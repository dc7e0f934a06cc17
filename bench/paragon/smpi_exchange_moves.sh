#!/usr/bin/env bash
# CTest under SMPI on the Paragon-like tori (docs/alltoall.md):
# exchange-moves, a few rounds of messages that move at most `reach` hops
# along each axis, every route shortest, its plan searched against the
# calibrated model's clock (MESHGOSSIP_MODEL: the executor plans under
# it), run by the executor under sync=data against exchange-hops, the best
# earlier schedule at 16 KiB per block (7.226 ms on 4x4x4, 9.306 on 8x8;
# exchange-allport 7.687 and 9.610), in the same smpirun. Issue 16 asks
# for 10% under the best: asserted on torus:4x4x4 (the default plan, 3
# rounds of one-hop moves: simulated 5.909 ms, 0.818) and on torus:8x8
# (reach=2,rounds=2: 8.302, 0.892). The calibrated model within 1%; every
# byte right; the times pinned to 6 digits (SimGrid is deterministic).
# Two 64-rank runs. Every rank builds the same plan, and the search is
# what takes the time: the library's memo (src/util/memo.c) lets one
# search serve them all, but SMPI gives each rank its own copy of a
# program's globals unless smpi/privatization is off. paragon_smpi keeps
# no per-rank state in globals (the library keeps none but the memo, the
# signal registry and Swing's thread-local plan, all shared by design), so
# it is off here: 19 s in all, against 84 s with a search per rank.
# usage: smpi_exchange_moves.sh PARAGON_BINARY
set -eu
here=$(cd "$(dirname "$0")" && pwd)
model=$(grep -v '^#' "$here/results/calibrated_9x9.model" | paste -sd, -)
BIN=$1
run() { # shape bytes algos
  MESHGOSSIP_MODEL="$model" smpirun -platform "$here/torus_$1.xml" -hostfile "$here/hosts_$1.txt" -np 64 \
    --cfg=smpi/simulate-computation:no --cfg=smpi/privatization:no --cfg=smpi/os:0:0:0\;1:0.00025:0 --cfg=smpi/ois:0:0:0\;1:0.00025:0 \
    --cfg=smpi/send-is-detached-thresh:1048576 --log=root.thres:critical \
    "$BIN" --problem exchange --topo "torus:$1" --sizes "$2" --model "$model" --only ours --ring no --sync data \
    --algos "$3" | grep -E '^exchange,'
}
check() { # label pinned
  awk -F, -v label="$1" -v pin="$2" '
    function near(a, b) { return a > b * 0.999999 && a < b * 1.000001 }
    $9 != 1 { print "FAIL: wrong bytes from " $5; bad = 1 }
    $5 ~ /^exchange-moves/ {
      d = $7
      if ($8 < $7 * 0.99 || $8 > $7 * 1.01) { printf "FAIL: model %.6f s, SMPI %.6f s\n", $8, $7; bad = 1 }
      next }
    { if (!o || $7 < o) { o = $7; who = $5 } }
    END {
      if (!d || !o) { print "FAIL: missing rows"; exit 1 }
      printf "%s: exchange-moves %.6f s, best other %s %.6f s, ratio %.3f\n", label, d, who, o, d / o
      if (!(d <= 0.9 * o)) { print "FAIL: not 10% under the best other"; bad = 1 }
      if (!near(d, pin)) { print "FAIL: the pinned time " pin; bad = 1 }
      if (bad) { print "FAIL"; exit 1 }
      print "OK"
    }'
}
csv=$(run 4x4x4 16384 exchange-moves,exchange-hops)
printf '%s\n' "$csv"
printf '%s\n' "$csv" | check "4x4x4, 16 KiB" 0.00590850961
csv=$(run 8x8 16384 exchange-moves:reach=2+rounds=2,exchange-hops)
printf '%s\n' "$csv"
printf '%s\n' "$csv" | check "8x8, 16 KiB" 0.00830200079
