#!/usr/bin/env bash
# SMPI cells for the model's accuracy benchmark beyond results.csv
# (bench/model_accuracy.sh, docs/models.md): our schedules (kind "ours") for
# gossip and exchange on ring:81 and torus:4x4x4, 256 B .. 64 KiB, with the
# same SMPI configuration as run.sh (250 us send overhead per message, every
# message detached, computation not simulated: deterministic).
# usage: bench/paragon/accuracy_run.sh PARAGON_SMPI [OUT_CSV]
#   (PARAGON_SMPI: build/paragon_smpi; OUT_CSV default results/accuracy.csv)
#   CELLS="ring81:gossip 4x4x4:exchange ..." picks the (platform, problem)s;
#   JOBS (default 2) SMPI runs at once, one per (platform, problem, size).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=$1
out=${2:-$here/results/accuracy.csv}
jobs=${JOBS:-2}
sizes=${SIZES:-256 1024 4096 16384 32768 65536}
cells=${CELLS:-ring81:gossip ring81:exchange 4x4x4:gossip 4x4x4:exchange}
cfg=(--cfg=smpi/simulate-computation:no "--cfg=smpi/os:0:0:0;1:0.00025:0" "--cfg=smpi/ois:0:0:0;1:0.00025:0"
     --cfg=smpi/send-is-detached-thresh:1048576 --log=root.thres:critical)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
for b in $sizes; do
  for c in $cells; do
    plat=${c%%:*} problem=${c#*:}
    case $plat in
    ring81) xml=ring_81.xml hosts=hosts_9x9.txt np=81 topo=ring:81 ;;
    9x9) xml=torus_9x9.xml hosts=hosts_9x9.txt np=81 topo=torus:9x9 ;;
    8x8) xml=torus_8x8.xml hosts=hosts_8x8.txt np=64 topo=torus:8x8 ;;
    4x4x4) xml=torus_4x4x4.xml hosts=hosts_4x4x4.txt np=64 topo=torus:4x4x4 ;;
    *) echo "unknown platform $plat" >&2; exit 2 ;;
    esac
    i=$((i + 1))
    ( smpirun -platform "$here/$xml" -hostfile "$here/$hosts" -np $np "${cfg[@]}" "$bin" --problem "$problem" \
        --topo "$topo" --sizes "$b" --only ours > "$tmp/part_$i.csv" 2> "$tmp/part_$i.err" || true
      echo "done $plat $problem $b" >&2 ) &
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do sleep 1; done
  done
done
wait
echo "problem,topology,bytes,kind,algorithm,run_topology,simulated_s,predicted_s,correct" > "$out.tmp"
cat "$tmp"/part_*.csv | grep -E '^(gossip|exchange),' >> "$out.tmp" || true
mv "$out.tmp" "$out"
echo "wrote $out ($(($(wc -l < "$out") - 1)) cells)"
