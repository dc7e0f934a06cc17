#!/usr/bin/env bash
# CTest under SMPI on the 8x8 Paragon-like torus (docs/alltoall.md): at
# 256 B, 1 KiB and 4 KiB per block, where the 250 us per message
# dominates, exchange-swing (log2 64 = 6 messages of 32 blocks per node,
# on torus-swing's contention-free steps) and its radix-4 form
# (merge=2+product=1: 3 rounds of 3 messages of 16 blocks on Swing's
# product plan) against the best earlier schedules run in the same
# smpirun: mpi-alltoall-bruck (the best at 256 B, the same time as SMPI's
# own bruck) and exchange-lines (the best at 1 and 4 KiB, with
# Tseng-Ni-Sheu's T4). Issue 16 asks for 10% under the best: asserted as
# the better swing <= 0.9 x the better of the others at each size
# (simulated 1.773 against 2.146 ms, 2.848 against 3.59, 4.849 against
# 6.452), every result byte-correct. One 64-rank run of a few seconds.
# usage: smpi_exchange_swing.sh PARAGON_BINARY
set -eu
here=$(cd "$(dirname "$0")" && pwd)
csv=$(smpirun -platform "$here/torus_8x8.xml" -hostfile "$here/hosts_8x8.txt" -np 64 \
  --cfg=smpi/simulate-computation:no --cfg=smpi/os:0:0:0\;1:0.00025:0 --cfg=smpi/ois:0:0:0\;1:0.00025:0 \
  --cfg=smpi/send-is-detached-thresh:1048576 --log=root.thres:critical \
  "$1" --problem exchange --topo torus:8x8 --sizes 256,1024,4096 --only ours --ring no \
  --algos exchange-swing,exchange-swing:merge=2+product=1,mpi-alltoall-bruck,exchange-lines | grep -E '^exchange,')
printf '%s\n' "$csv"
printf '%s\n' "$csv" | awk -F, '
  $9 != 1 { print "FAIL: wrong bytes from " $5 " at " $3; bad = 1 }
  $5 ~ /^exchange-swing/ { if (!($3 in s) || $7 < s[$3]) { s[$3] = $7; sw[$3] = $5 }; next }
  { if (!($3 in o) || $7 < o[$3]) { o[$3] = $7; who[$3] = $5 } }
  END {
    for (i = 0; i < 3; i++) {
      b = 256 * 4 ^ i
      if (!(b in s) || !(b in o)) { print "FAIL: missing rows at " b " B"; exit 1 }
      printf "%5d B: %s %.6f s, best other %s %.6f s, ratio %.3f\n", b, sw[b], s[b], who[b], o[b], s[b] / o[b]
      if (!(s[b] <= 0.9 * o[b])) bad = 1
    }
    if (bad) { print "FAIL"; exit 1 }
    print "OK"
  }'
