#!/usr/bin/env bash
# CTest under SMPI on the 8x8 Paragon-like torus (docs/allgather.md):
# torus-tiling meets two of issue 15's targets, asserted on SimGrid's
# deterministic simulated time, through the executor's per-size spec
# (the table MESHGOSSIP_ALLGATHER takes): 4 KiB per rank picks
# torus-tiling:split=1, at most 3.00 ms (simulated 2.976); 16 KiB picks
# torus-tiling:spread=1, at most 5.90 ms (5.316); every result
# byte-correct. One 64-rank run of a few seconds.
# usage: smpi_tiling.sh PARAGON_BINARY
set -eu
here=$(cd "$(dirname "$0")" && pwd)
spec="torus-doubling<=1024;torus-tiling:split=1<=4096;torus-tiling:spread=1<=32768;dimwise-colored"
csv=$(smpirun -platform "$here/torus_8x8.xml" -hostfile "$here/hosts_8x8.txt" -np 64 \
  --cfg=smpi/simulate-computation:no --cfg=smpi/os:0:0:0\;1:0.00025:0 --cfg=smpi/ois:0:0:0\;1:0.00025:0 \
  --cfg=smpi/send-is-detached-thresh:1048576 --log=root.thres:critical \
  "$1" --problem gossip --topo torus:8x8 --sizes 4096,16384 --only ours --algos "$spec" | grep -E '^gossip,')
printf '%s\n' "$csv"
printf '%s\n' "$csv" | awk -F, '
  $9 != 1 { print "FAIL: wrong bytes from " $5 " at " $3; bad = 1 }
  $3 == 4096 && $5 == "torus-tiling:split=1" { a = $7 }
  $3 == 16384 && $5 == "torus-tiling:spread=1" { b = $7 }
  END {
    if (a == "" || b == "") { print "FAIL: missing rows (the per-size spec picked something else)"; exit 1 }
    printf "4 KiB: %.6f s (target 0.003); 16 KiB: %.6f s (target 0.0059)\n", a, b
    if (bad || !(a <= 0.003) || !(b <= 0.0059)) { print "FAIL"; exit 1 }
    print "OK"
  }'
