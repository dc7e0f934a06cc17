#!/usr/bin/env bash
# The complete-exchange schedules of issue 16 on the SMPI Paragon platform
# (docs/alltoall.md): ours (ALGOS, default exchange-allport,
# exchange-lines, exchange-swing unmerged and merged, exchange-ternary,
# exchange-digits (radix 3 on 9x9, 4 on 8x8 and 4x4x4), with
# mpi-alltoall-direct and mpi-alltoall-bruck for reference; and HOPS
# (default exchange-hops, exchange-slots, exchange-moves by default and
# exchange-moves' per-shape settings of docs/alltoall.md: reach=2,rounds=2
# on 8x8 and 9x9, refused on 4x4x4) under the executor's sync=data
# with their plans fitted to the calibrated model, rows of kind ours-data; an algorithm a
# shape refuses gives no row) and SMPI's basic_linear MPI_Alltoall (the
# best built-in from 16 KiB on, results.csv) on torus:8x8 at 256 B .. 64
# KiB, and on torus:9x9 and torus:4x4x4 at SIZES_OTHER (default the same);
# one smpirun at a time (SMPI is CPU-heavy).
# usage: bench/paragon/alltoall.sh [OUTDIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$here/out}
mkdir -p "$out"
algos=${ALGOS:-exchange-allport,exchange-lines,exchange-swing,exchange-swing:merge=2+product=1,exchange-ternary,exchange-digits,mpi-alltoall-direct,mpi-alltoall-bruck}
sizes8=${SIZES8:-256,1024,4096,16384,32768,65536}
sizes_other=${SIZES_OTHER:-$sizes8}
. "$here/smpi_bins.sh"
cp "$PARAGON_BIN" "$out/paragon"
cfg=(--cfg=smpi/simulate-computation:no "--cfg=smpi/os:0:0:0;1:0.00025:0" "--cfg=smpi/ois:0:0:0;1:0.00025:0"
     --cfg=smpi/send-is-detached-thresh:1048576 --log=root.thres:critical)
model=ts=0.000266971,td=0,tl=5.96648e-09 # the calibration of docs/paragon.md
ours() { # shape np sizes
  smpirun -platform "$here/torus_$1.xml" -hostfile "$here/hosts_$1.txt" -np "$2" "${cfg[@]}" "$out/paragon" \
    --problem exchange --topo "torus:$1" --sizes "$3" --model "$model" --only ours --algos "$algos"
}
cal=$(grep -v '^#' "$here/results/calibrated_9x9.model" | paste -sd, -)
hops() { # shape np sizes: exchange-hops, -slots and -moves under the executor's sync=data, their plans
  # fitted to the calibrated model (the executor plans under MESHGOSSIP_MODEL), priced by the same model;
  # globals shared by the ranks, so that one search of a plan serves them all (smpi_exchange_moves.sh)
  MESHGOSSIP_MODEL="$cal" smpirun -platform "$here/torus_$1.xml" -hostfile "$here/hosts_$1.txt" -np "$2" "${cfg[@]}" \
    --cfg=smpi/privatization:no \
    "$out/paragon" --problem exchange --topo "torus:$1" --sizes "$3" --model "$cal" --only ours --ring no --sync data \
    --algos "${HOPS:-exchange-hops,exchange-slots,exchange-moves,exchange-moves:reach=2+rounds=2}"
}
theirs() { # shape np sizes
  smpirun -platform "$here/torus_$1.xml" -hostfile "$here/hosts_$1.txt" -np "$2" "${cfg[@]}" \
    --cfg=smpi/alltoall:basic_linear "$out/paragon" --problem exchange --topo "torus:$1" --sizes "$3" \
    --label basic_linear --only mpi
}
{
  echo "problem,topology,bytes,kind,algorithm,run_topology,simulated_s,predicted_s,correct"
  ours 8x8 64 "$sizes8" | grep -E '^exchange,torus:8x8,[0-9]+,ours,[^,]*,torus:'
  hops 8x8 64 "$sizes8" | grep -E '^exchange,torus:8x8,[0-9]+,ours-data,[^,]*,torus:'
  for s in 9x9:81 4x4x4:64; do
    ours "${s%:*}" "${s#*:}" "$sizes_other" | grep -E '^exchange,[^,]*,[0-9]+,ours,[^,]*,torus:'
    hops "${s%:*}" "${s#*:}" "$sizes_other" | grep -E '^exchange,[^,]*,[0-9]+,ours-data,[^,]*,torus:'
    theirs "${s%:*}" "${s#*:}" "$sizes_other" | grep -E '^exchange,'
  done
} > "$out/alltoall.csv"
echo "wrote $out/alltoall.csv"
