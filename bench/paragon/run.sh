#!/usr/bin/env bash
# The Paragon experiment on SimGrid's SMPI (docs/paragon.md).
# usage: bench/paragon/run.sh [OUTDIR]   (default: bench/paragon/out)
# Builds paragon and meshgossip-mpi with smpicc (smpi_bins.sh), calibrates a + b*m on the
# 9x9 platform, then times our algorithms and every MPI_Allgather
# algorithm SMPI ships (and MPI_Alltoall ones on 8x8) at 256 B .. 64 KiB,
# writes results.csv and plots it (plot.sh: meshgossip plot, paragon.svg).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$here/out}
mkdir -p "$out"
jobs=${JOBS:-2}
sizes=${SIZES:-256,1024,4096,16384,32768,65536}
. "$here/smpi_bins.sh"
cp "$PARAGON_BIN" "$out/paragon"
cp "$MGMPI_SMPI_BIN" "$out/meshgossip-mpi"
# Paragon-like start-up: 250 us of send overhead per message (smpi/os for
# MPI_Send, smpi/ois for MPI_Isend), applied to every message because every
# message up to 1 MB is sent detached (the overhead is only charged on
# detached sends); computation is not simulated, so results are exact and
# deterministic.
# Zero-byte messages (barriers) carry no overhead, so that ranks leave a
# barrier together and timings start from a common instant.
cfg=(--cfg=smpi/simulate-computation:no "--cfg=smpi/os:0:0:0;1:0.00025:0" "--cfg=smpi/ois:0:0:0;1:0.00025:0"
     --cfg=smpi/send-is-detached-thresh:1048576 --log=root.thres:critical)
smpi() { # platform np args...
  local s=$1 np=$2
  shift 2
  smpirun -platform "$here/torus_$s.xml" -hostfile "$here/hosts_$s.txt" -np "$np" "${cfg[@]}" "$@"
}
smpi 9x9 81 "$out/meshgossip-mpi" calibrate --sizes 256,4096,16384,65536 --reps 2 > "$out/calibrate_9x9.txt"
model=$(sed -n 's/^--model //p' "$out/calibrate_9x9.txt")
echo "calibrated model: $model"
echo "problem,topology,bytes,kind,algorithm,run_topology,simulated_s,predicted_s,correct" > "$out/results.csv"
tasks=()
tasks+=("9x9 81 --cfg=smpi/allgather:default $out/paragon --problem gossip --topo torus:9x9 --sizes $sizes --model $model --only ours")
for alg in default ring bruck GB loosely_lr NTSLR NTSLR_NB 2dmesh 3dmesh pair rdb rhv spreading_simple \
           ompi_neighborexchange ompi mpich mvapich2 impi; do
  tasks+=("9x9 81 --cfg=smpi/allgather:$alg $out/paragon --problem gossip --topo torus:9x9 --sizes $sizes --label $alg --only mpi")
done
tasks+=("8x8 64 --cfg=smpi/alltoall:default $out/paragon --problem exchange --topo torus:8x8 --sizes $sizes --model $model --only ours")
for alg in default 2dmesh 3dmesh basic_linear bruck pair pair_rma pair_light_barrier pair_mpi_barrier \
           pair_one_barrier rdb ring ring_light_barrier ring_mpi_barrier ring_one_barrier ompi mpich mvapich2 impi; do
  tasks+=("8x8 64 --cfg=smpi/alltoall:$alg $out/paragon --problem exchange --topo torus:8x8 --sizes $sizes --label $alg --only mpi")
done
i=0
for t in "${tasks[@]}"; do
  i=$((i + 1))
  # an algorithm SMPI cannot run on this size (e.g. power-of-two only) fails: its rows are just absent
  ( smpi $t > "$out/part_$i.csv" 2> "$out/part_$i.err" || true ) &
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do sleep 1; done
done
wait
cat "$out"/part_*.csv | grep -E '^(gossip|exchange),' >> "$out/results.csv" || true
"$here/plot.sh" "$out"
echo "wrote $out/results.csv"
