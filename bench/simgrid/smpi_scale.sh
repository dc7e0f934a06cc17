#!/usr/bin/env bash
# SMPI's cost for one schedule at N ranks, the reference for the S4U
# replay's wall time (docs/engine.md). Builds meshgossip-mpi with smpicc
# (bench/paragon/smpi_bins.sh, as bench/paragon/run.sh does) and runs
#   meshgossip-mpi bench --algo ALGO --topo torus:AxB --sizes BYTES --reps 1
# under smpirun on a TORUS cluster of the Paragon regime (175 MB/s, 50 ns
# per hop, 250 us of send overhead per message), printing the wall time and
# peak RSS (GNU time) of the whole smpirun. The run holds: every rank
# planning the schedule (simulated for free, real CPU time), one warm-up
# and one timed call of the meshgossip plan, then one warm-up and one
# timed MPI_Allgather of SMPI's default algorithm.
# usage: bench/simgrid/smpi_scale.sh ALGO AxB BYTES [TIMEOUT_S]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
algo=${1:-torgos} dims=${2:-32x32} bytes=${3:-4096} limit=${4:-600}
out=${OUT:-/tmp/meshgossip-smpi-scale}
mkdir -p "$out"
if [ ! -x "$out/meshgossip-mpi" ]; then
  . "$root/bench/paragon/smpi_bins.sh"
  cp "$MGMPI_SMPI_BIN" "$out/meshgossip-mpi"
fi
IFS=x read -r -a ext <<< "$dims"
n=1
for e in "${ext[@]}"; do n=$((n * e)); done
params=$(IFS=,; echo "${ext[*]}")
cat > "$out/torus_$dims.xml" <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="n" suffix="" radical="0-$((n - 1))" speed="1Gf" bw="175MBps" lat="50ns"
           topology="TORUS" topo_parameters="$params" sharing_policy="SPLITDUPLEX" loopback_bw="1GBps" loopback_lat="0"/>
</platform>
XML
seq 0 $((n - 1)) | sed 's/^/n/' > "$out/hosts_$dims.txt"
cfg=(--cfg=smpi/simulate-computation:no "--cfg=smpi/os:0:0:0;1:0.00025:0" "--cfg=smpi/ois:0:0:0;1:0.00025:0"
     --cfg=smpi/send-is-detached-thresh:1048576 --log=root.thres:critical)
/usr/bin/time -f "smpirun wall %e s, peak RSS %M KB" timeout "$limit" \
  smpirun -platform "$out/torus_$dims.xml" -hostfile "$out/hosts_$dims.txt" -np "$n" "${cfg[@]}" \
  "$out/meshgossip-mpi" bench --algo "$algo" --topo "torus:$dims" --sizes "$bytes" --reps 1 ||
  echo "smpirun did not finish within $limit s (or failed)"
