#!/usr/bin/env bash
# CTest under SMPI on the 8x8 Paragon-like torus, 32 KiB per block
# (docs/alltoall.md): exchange-relay and exchange-relay:relay=0 byte-correct;
# relay=0 (exchange-allport's schedule with SimGrid's tie routes) simulated
# at 0.0178737 s and predicted by our model within 1% of it (the model prices
# the arcs SimGrid loads); the relayed ties (relay=2) cost more on SMPI
# (0.0195549 s: cross-traffic and two more rounds of serial start-ups), which
# this test pins so that a change shows. SimGrid's time is deterministic.
# usage: smpi_relay_check.sh PARAGON_BINARY
set -eu
here=$(cd "$(dirname "$0")" && pwd)
csv=$(smpirun -platform "$here/torus_8x8.xml" -hostfile "$here/hosts_8x8.txt" -np 64 \
  --cfg=smpi/simulate-computation:no --cfg=smpi/os:0:0:0\;1:0.00025:0 --cfg=smpi/ois:0:0:0\;1:0.00025:0 \
  --cfg=smpi/send-is-detached-thresh:1048576 --log=root.thres:critical \
  "$1" --problem exchange --topo torus:8x8 --sizes 32768 --model ts=0.000266971,td=0,tl=5.96648e-09 \
  --only ours --ring no --algos exchange-relay,exchange-relay:relay=0)
printf '%s\n' "$csv"
printf '%s\n' "$csv" | awk -F, '
  function near(a, b) { return a > b * 0.999999 && a < b * 1.000001 }
  $1 == "exchange" && $9 != 1 { print "FAIL: wrong bytes from " $5; bad = 1 }
  $5 == "exchange-relay:relay=0" { r0 = $7; p0 = $8 }
  $5 == "exchange-relay" { r2 = $7 }
  END {
    if (r0 == "" || r2 == "") { print "FAIL: missing rows"; exit 1 }
    printf "relay=0 %.7f s (model %.7f), relay=2 %.7f s\n", r0, p0, r2
    if (bad || !near(r0, 0.0178737406) || !near(r2, 0.0195549281) || p0 < r0 * 0.99 || p0 > r0 * 1.01) {
      print "FAIL"; exit 1
    }
    print "OK"
  }'
