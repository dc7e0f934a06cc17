#!/usr/bin/env bash
# CTest under SMPI on the 9x9 Paragon-like torus (docs/alltoall.md): the
# radix-3 exchanges against the best earlier schedules run in the same
# smpirun: mpi-alltoall-bruck (7 messages on the ring of ranks, the best at
# 256 B) and exchange-lines (16 direct line messages, the best at 1 and 4
# KiB). exchange-ternary (balanced digits: 4 rounds of two messages of 27
# blocks on the + and - arcs of one axis, 216 block-times on the busiest
# arcs) and exchange-digits (the same messages over the searched digit
# sets, 189 block-times). Issue 16 asks for 10% under the best: asserted
# for exchange-ternary at 256 B (simulated 2.292 against 2.878 ms) and for
# exchange-digits at 1 KiB (3.614 against 4.097) and 4 KiB (6.868 against
# 7.822); the calibrated model (ranks clock) within 1% of every radix-3
# row; every result byte-correct; the digits times pinned to 6 digits
# (SimGrid is deterministic). One 81-rank run of about 10 s.
# usage: smpi_exchange_ternary.sh PARAGON_BINARY
set -eu
here=$(cd "$(dirname "$0")" && pwd)
model=$(grep -v '^#' "$here/results/calibrated_9x9.model" | paste -sd, -)
csv=$(smpirun -platform "$here/torus_9x9.xml" -hostfile "$here/hosts_9x9.txt" -np 81 \
  --cfg=smpi/simulate-computation:no --cfg=smpi/os:0:0:0\;1:0.00025:0 --cfg=smpi/ois:0:0:0\;1:0.00025:0 \
  --cfg=smpi/send-is-detached-thresh:1048576 --log=root.thres:critical \
  "$1" --problem exchange --topo torus:9x9 --sizes 256,1024,4096 --model "$model" --only ours --ring no \
  --algos exchange-ternary,exchange-digits,mpi-alltoall-bruck,exchange-lines | grep -E '^exchange,')
printf '%s\n' "$csv"
printf '%s\n' "$csv" | awk -F, '
  function near(a, b) { return a > b * 0.999999 && a < b * 1.000001 }
  $9 != 1 { print "FAIL: wrong bytes from " $5 " at " $3; bad = 1 }
  $5 == "exchange-ternary" || $5 == "exchange-digits" {
    s[$5, $3] = $7
    if ($8 < $7 * 0.99 || $8 > $7 * 1.01) { printf "FAIL: %s at %d: model %.6f s, SMPI %.6f s\n", $5, $3, $8, $7; bad = 1 }
    next }
  { if (!($3 in o) || $7 < o[$3]) { o[$3] = $7; who[$3] = $5 } }
  END {
    for (i = 0; i < 3; i++) {
      b = 256 * 4 ^ i
      if (!(("exchange-ternary", b) in s) || !(("exchange-digits", b) in s) || !(b in o)) {
        print "FAIL: missing rows at " b " B"; exit 1 }
      printf "%5d B: exchange-ternary %.6f s, exchange-digits %.6f s, best other %s %.6f s, ratios %.3f %.3f\n", b,
        s["exchange-ternary", b], s["exchange-digits", b], who[b], o[b], s["exchange-ternary", b] / o[b],
        s["exchange-digits", b] / o[b]
    }
    if (!(s["exchange-ternary", 256] <= 0.9 * o[256]) || !(s["exchange-digits", 1024] <= 0.9 * o[1024]) ||
        !(s["exchange-digits", 4096] <= 0.9 * o[4096])) { print "FAIL: ratios"; bad = 1 }
    if (!near(s["exchange-digits", 1024], D1) || !near(s["exchange-digits", 4096], D4)) { print "FAIL: the pinned times"; bad = 1 }
    if (bad) { print "FAIL"; exit 1 }
    print "OK"
  }' D1=0.00361423341 D4=0.00686800074
