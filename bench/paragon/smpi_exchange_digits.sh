#!/usr/bin/env bash
# CTest under SMPI on the 4x4x4 Paragon-like torus (docs/alltoall.md,
# docs/allgather.md), the schedules on digit sets. First exchange-digits
# in radix 4 (3 rounds of three messages of 16 blocks on
# searched digit sets, busiest arcs 1 + 2 + 3 messages, longest route
# first) against the best earlier schedules at 4 KiB in the same smpirun:
# exchange-lines (the same 9 messages a node on the lines, the best before:
# 4.612 ms), exchange-allport and merged exchange-swing. Issue 16 asks for
# 10% under the best: asserted (simulated 3.931 ms, 0.852); the
# calibrated model (ranks clock) within 1%; every byte right; the time
# pinned to 6 digits (SimGrid is deterministic). Then the gossip,
# torus-digits (3 rounds of three messages of 1, 4, 16 blocks, the most
# loaded set first) against the best before on 4x4x4, dimwise under the
# executor's sync=data (2.970 and 5.943 ms at 4 and 16 KiB), in one run:
# under it at 4 KiB (2.814), 10% under at 16 KiB (4.385, 0.738), the
# model within 1%, pinned. Two 64-rank runs of a few seconds each.
# usage: smpi_exchange_digits.sh PARAGON_BINARY
set -eu
here=$(cd "$(dirname "$0")" && pwd)
model=$(grep -v '^#' "$here/results/calibrated_9x9.model" | paste -sd, -)
csv=$(smpirun -platform "$here/torus_4x4x4.xml" -hostfile "$here/hosts_4x4x4.txt" -np 64 \
  --cfg=smpi/simulate-computation:no --cfg=smpi/os:0:0:0\;1:0.00025:0 --cfg=smpi/ois:0:0:0\;1:0.00025:0 \
  --cfg=smpi/send-is-detached-thresh:1048576 --log=root.thres:critical \
  "$1" --problem exchange --topo torus:4x4x4 --sizes 4096 --model "$model" --only ours --ring no \
  --algos exchange-digits,exchange-lines,exchange-allport,exchange-swing:merge=2+product=1 | grep -E '^exchange,')
printf '%s\n' "$csv"
printf '%s\n' "$csv" | awk -F, '
  function near(a, b) { return a > b * 0.999999 && a < b * 1.000001 }
  $9 != 1 { print "FAIL: wrong bytes from " $5 " at " $3; bad = 1 }
  $5 == "exchange-digits" {
    d = $7
    if ($8 < $7 * 0.99 || $8 > $7 * 1.01) { printf "FAIL: model %.6f s, SMPI %.6f s\n", $8, $7; bad = 1 }
    next }
  { if (!o || $7 < o) { o = $7; who = $5 } }
  END {
    if (!d || !o) { print "FAIL: missing rows"; exit 1 }
    printf "4 KiB: exchange-digits %.6f s, best other %s %.6f s, ratio %.3f\n", d, who, o, d / o
    if (!(d <= 0.9 * o)) { print "FAIL: ratio"; bad = 1 }
    if (!near(d, D4)) { print "FAIL: the pinned time"; bad = 1 }
    if (bad) { print "FAIL"; exit 1 }
    print "OK"
  }' D4=0.00393050715
csv=$(smpirun -platform "$here/torus_4x4x4.xml" -hostfile "$here/hosts_4x4x4.txt" -np 64 \
  --cfg=smpi/simulate-computation:no --cfg=smpi/os:0:0:0\;1:0.00025:0 --cfg=smpi/ois:0:0:0\;1:0.00025:0 \
  --cfg=smpi/send-is-detached-thresh:1048576 --log=root.thres:critical \
  "$1" --problem gossip --topo torus:4x4x4 --sizes 4096,16384 --model "$model" --only ours --ring no --sync data \
  --algos torus-digits,dimwise,torus-swing | grep -E '^gossip,')
printf '%s\n' "$csv"
printf '%s\n' "$csv" | awk -F, '
  function near(a, b) { return a > b * 0.999999 && a < b * 1.000001 }
  $9 != 1 { print "FAIL: wrong bytes from " $5 " at " $3; bad = 1 }
  $5 == "torus-digits" {
    d[$3] = $7
    if ($8 < $7 * 0.99 || $8 > $7 * 1.01) { printf "FAIL: model %.6f s, SMPI %.6f s\n", $8, $7; bad = 1 }
    next }
  { if (!($3 in o) || $7 < o[$3]) { o[$3] = $7; who[$3] = $5 } }
  END {
    if (!d[4096] || !d[16384] || !o[4096] || !o[16384]) { print "FAIL: missing rows"; exit 1 }
    printf " 4 KiB: torus-digits %.6f s, best other %s %.6f s, ratio %.3f\n", d[4096], who[4096], o[4096], d[4096] / o[4096]
    printf "16 KiB: torus-digits %.6f s, best other %s %.6f s, ratio %.3f\n", d[16384], who[16384], o[16384],
      d[16384] / o[16384]
    if (!(d[4096] < o[4096]) || !(d[16384] <= 0.9 * o[16384])) { print "FAIL: ratios"; bad = 1 }
    if (!near(d[4096], G4) || !near(d[16384], G16)) { print "FAIL: the pinned times"; bad = 1 }
    if (bad) { print "FAIL"; exit 1 }
    print "OK"
  }' G4=0.00281403016 G16=0.00438466884
