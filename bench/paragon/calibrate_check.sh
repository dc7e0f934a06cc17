#!/usr/bin/env bash
# CTest under SMPI: `meshgossip-mpi-smpi calibrate -o FILE` on the 9x9
# Paragon-like torus (the SMPI configuration of run.sh) fits what SimGrid is
# configured with (docs/models.md, "Calibration"); SMPI is deterministic, so
# the ranges are tight:
#   o     = 2.5e-4 s     smpi/os and smpi/ois (every message above 1 byte);
#   or    <= 1e-7 s      smpi/or is 0 (the fan-in slope is its 2-byte wire);
#   tl    = 6.07e-9 s/B  1 / (175 MB/s x 0.940694), SMPI's bw-factor at 64 KiB
#                        (within 1%: the fit's byte time includes the hop latency);
#   share = hops         two flows on one arc end at 0.75 of each other;
#   routes = simgrid     written by the smpicc build (SimGrid's TORUS
#                        cluster picks every message's route);
#   detach = 1048576     the least send that waits for its receiver
#                        (smpi/send-is-detached-thresh), to the byte;
#   timing = ranks       the executor's clock;
#   ack   = 0.05         network/crosstraffic: two opposite 64-KiB messages
#                        take 1.05x one (within 10%: hop latency);
#   bwf   7 steps, the first to 0.3383 (smpi/bw-factor 0.338112/0.940694
#         relative to tl, within 7%).
# Then the model file predicts SMPI cells: tests/model_accuracy_check.sh
# with MODEL=@FILE (median <= 10%, max <= 25%, picks within 5%).
# usage: calibrate_check.sh MESHGOSSIP_MPI_SMPI MESHGOSSIP
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
smpirun -platform "$here/torus_9x9.xml" -hostfile "$here/hosts_9x9.txt" -np 81 \
  --cfg=smpi/simulate-computation:no "--cfg=smpi/os:0:0:0;1:0.00025:0" "--cfg=smpi/ois:0:0:0;1:0.00025:0" \
  --cfg=smpi/send-is-detached-thresh:1048576 --log=root.thres:critical \
  "$1" calibrate --sizes 256,65536 --reps 1 -o "$tmp/model" | grep -v '^1D\|^step'
cat "$tmp/model"
key() { sed -n "s/^$1=//p" "$tmp/model"; }
o=$(key o) or=$(key or) tl=$(key tl) share=$(key share) bwf=$(key bwf) routes=$(key routes) detach=$(key detach) timing=$(key timing)
ack=$(key ack)
echo "o=$o or=$or tl=$tl share=$share"
awk -v o="$o" -v r="$or" -v tl="$tl" 'BEGIN {
  ok = o >= 2.49e-4 && o <= 2.51e-4 && r >= 0 && r <= 1e-7 && tl >= 6.074e-9 * 0.99 && tl <= 6.074e-9 * 1.01
  if (!ok) print "FAIL: o, or or tl out of range"
  exit !ok }'
[ "$share" = hops ] || { echo "FAIL: share=$share, not hops"; exit 1; }
[ "$routes" = simgrid ] || { echo "FAIL: routes=$routes, not simgrid"; exit 1; }
[ "$detach" = 1048576 ] || { echo "FAIL: detach=$detach, not 1048576"; exit 1; }
[ "$timing" = ranks ] || { echo "FAIL: timing=$timing, not ranks"; exit 1; }
awk -v c="${ack:-0}" 'BEGIN { ok = c >= 0.045 && c <= 0.055; if (!ok) print "FAIL: ack=" c ", not 0.05"; exit !ok }'
steps=$(echo "$bwf" | tr ';' '\n' | wc -l)
f257=$(echo "$bwf" | tr ';' '\n' | awk -F: '$1 > 200 && $1 <= 257 { print $2 }')
echo "bwf: $steps steps, from ~257 B: $f257"
awk -v n="$steps" -v f="$f257" 'BEGIN { ok = n == 8 && f >= 0.3594 * 0.93 && f <= 0.3594 * 1.07
  if (!ok) print "FAIL: bwf"; exit !ok }'
# the fitted model predicts the SMPI cells of results.csv
MODEL="@$tmp/model" bash "$here/../../tests/model_accuracy_check.sh" "$2" "$here/../.." | tail -3
echo OK
