#!/usr/bin/env bash
# CTest under SMPI on the 9x9 Paragon-like torus, 32 KiB per rank: every
# result byte-correct, and our best allgather's simulated time below SMPI's
# default MPI_Allgather (SimGrid's simulated time is deterministic). A few
# of our schedules only (the seeds' 2D ones and torus-doubling): each is
# a full SMPI run of 81 ranks.
# usage: smpi_check.sh PARAGON_BINARY
set -eu
here=$(cd "$(dirname "$0")" && pwd)
csv=$(smpirun -platform "$here/torus_9x9.xml" -hostfile "$here/hosts_9x9.txt" -np 81 \
  --cfg=smpi/simulate-computation:no --cfg=smpi/os:0:0:0\;1:0.00025:0 --cfg=smpi/ois:0:0:0\;1:0.00025:0 \
  --cfg=smpi/send-is-detached-thresh:1048576 --cfg=smpi/allgather:default --log=root.thres:critical \
  "$1" --problem gossip --topo torus:9x9 --sizes 32768 --label default \
  --algos torgos,cubgos,dimwise-colored,torus-doubling)
printf '%s\n' "$csv"
printf '%s\n' "$csv" | awk -F, '
  $1 == "gossip" && $9 != 1 { print "FAIL: wrong bytes from " $4 " " $5; bad = 1 }
  $1 == "gossip" && $4 == "mpi" { mpi = $7 }
  $1 == "gossip" && $4 == "ours" && $9 == 1 && (best == "" || $7 < best) { best = $7; name = $5 " on " $6 }
  END {
    if (mpi == "" || best == "") { print "FAIL: missing rows"; exit 1 }
    printf "our best: %s %.6f s; SMPI default: %.6f s; factor %.3f\n", name, best, mpi, mpi / best
    if (bad || !(best < mpi)) { print "FAIL"; exit 1 }
    print "OK"
  }'
