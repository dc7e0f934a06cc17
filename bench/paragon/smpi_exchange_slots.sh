#!/usr/bin/env bash
# CTest under SMPI on the 4x4x4 Paragon-like torus (docs/alltoall.md):
# exchange-slots, nine one-message slots in which a block never goes on in
# the slot after the one that brought it, so a rank's nine 250 us
# overheads run back to back, run by the executor under sync=data with its
# plan fitted to the calibrated model (MESHGOSSIP_MODEL: the executor plans
# under it), against the best earlier schedules at 1 KiB per block in the
# same smpirun: exchange-lines (2.653 ms, nine sends of 16 KiB that wait
# for each axis's transfers) and exchange-digits (radix 4, the same nine).
# Issue 16 asks for 10% under the best: asserted (simulated 2.370 ms,
# 0.893); the calibrated model within 1%; every byte right; the time
# pinned to 6 digits (SimGrid is deterministic). One 64-rank run, 12 s.
# usage: smpi_exchange_slots.sh PARAGON_BINARY
set -eu
here=$(cd "$(dirname "$0")" && pwd)
model=$(grep -v '^#' "$here/results/calibrated_9x9.model" | paste -sd, -)
csv=$(MESHGOSSIP_MODEL="$model" smpirun -platform "$here/torus_4x4x4.xml" -hostfile "$here/hosts_4x4x4.txt" -np 64 \
  --cfg=smpi/simulate-computation:no --cfg=smpi/os:0:0:0\;1:0.00025:0 --cfg=smpi/ois:0:0:0\;1:0.00025:0 \
  --cfg=smpi/send-is-detached-thresh:1048576 --log=root.thres:critical \
  "$1" --problem exchange --topo torus:4x4x4 --sizes 1024 --model "$model" --only ours --ring no --sync data \
  --algos exchange-slots,exchange-lines,exchange-digits | grep -E '^exchange,')
printf '%s\n' "$csv"
printf '%s\n' "$csv" | awk -F, '
  function near(a, b) { return a > b * 0.999999 && a < b * 1.000001 }
  $9 != 1 { print "FAIL: wrong bytes from " $5 " at " $3; bad = 1 }
  $5 == "exchange-slots" {
    d = $7
    if ($8 < $7 * 0.99 || $8 > $7 * 1.01) { printf "FAIL: model %.6f s, SMPI %.6f s\n", $8, $7; bad = 1 }
    next }
  { if (!o || $7 < o) { o = $7; who = $5 } }
  END {
    if (!d || !o) { print "FAIL: missing rows"; exit 1 }
    printf "1 KiB: exchange-slots %.6f s, best other %s %.6f s, ratio %.3f\n", d, who, o, d / o
    if (!(d <= 0.9 * o)) { print "FAIL: ratio"; bad = 1 }
    if (!near(d, S1)) { print "FAIL: the pinned time"; bad = 1 }
    if (bad) { print "FAIL"; exit 1 }
    print "OK"
  }' S1=0.00236985661
