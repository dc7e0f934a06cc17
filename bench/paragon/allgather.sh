#!/usr/bin/env bash
# The allgather schedules of issue 15 on the SMPI Paragon platform
# (docs/allgather.md): 8x8 at 256 B .. 64 KiB and 9x9 at 32 KiB, only the
# listed algorithm specs (SMPI is CPU-heavy), one smpirun at a time.
# usage: bench/paragon/allgather.sh [OUTDIR]   (ALGOS8, ALGOS9 override the specs)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$here/out}
mkdir -p "$out"
algos8=${ALGOS8:-torus-doubling,torus-quadrupling,greedy-links,multiring,torus-doubling:ports=4}
algos9=${ALGOS9:-torus-doubling,greedy-links,multiring,torus-doubling:ports=4}
srcs=$(ls "$root"/src/{util,topo,schedule,model,sim,algo,algo/*,tables,analytic,draw}/*.c)
smpicc -O2 -D_GNU_SOURCE -std=c11 -I"$root/include" $srcs "$root/src/mpi/plan.c" \
  "$root/src/mpi/exec.c" "$here/paragon.c" -ljansson -lm -o "$out/paragon"
cfg=(--cfg=smpi/simulate-computation:no "--cfg=smpi/os:0:0:0;1:0.00025:0" "--cfg=smpi/ois:0:0:0;1:0.00025:0"
     --cfg=smpi/send-is-detached-thresh:1048576 --log=root.thres:critical)
model=ts=0.000266971,td=0,tl=5.96648e-09 # the calibration of docs/paragon.md
run() { # shape np sizes algos
  smpirun -platform "$here/torus_$1.xml" -hostfile "$here/hosts_$1.txt" -np "$2" "${cfg[@]}" "$out/paragon" \
    --problem gossip --topo "torus:$1" --sizes "$3" --model "$model" --only ours --algos "$4"
}
{
  echo "problem,topology,bytes,kind,algorithm,run_topology,simulated_s,predicted_s,correct"
  run 8x8 64 256,1024,4096,16384,32768,65536 "$algos8" | grep -E '^gossip,'
  run 9x9 81 32768 "$algos9" | grep -E '^gossip,'
} > "$out/allgather.csv"
echo "wrote $out/allgather.csv"
