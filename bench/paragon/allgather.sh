#!/usr/bin/env bash
# The allgather schedules of issue 15 on the SMPI Paragon platform
# (docs/allgather.md): 8x8 and 9x9 at 256 B .. 64 KiB, only the
# listed algorithm specs (SMPI is CPU-heavy), one smpirun at a time, each
# spec under the executor's two clocks: sync=rounds (a round barrier per
# rank) and sync=data (no barrier: a send goes once its bytes are in; the
# table's NAME+data rows); then one table: every spec's simulated time per
# cell, the best, and the issue's targets beside them.
# usage: bench/paragon/allgather.sh [OUTDIR]   (ALGOS8, ALGOS9 override the specs)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$here/out}
mkdir -p "$out"
base=mpi-allgather-rd,mpi-allgather-bruck,dimwise,dimwise-colored,torgos
algos8=${ALGOS8:-torus-swing,torus-swing:merge=2+product=1+skip=2,torus-swing:merge=2+product=1,torus-tiling,torus-tiling:split=1,torus-tiling:spread=1,torus-doubling,torus-quadrupling,torus-doubling:ports=4,greedy-links,multiring,$base,cubgos}
algos9=${ALGOS9:-torus-ternary,torus-ternary:split=2,torus-doubling,torus-doubling:ports=4,greedy-links,multiring,$base,cubgos,dimwise-colored:phases=2-1,dimwise-colored:phases=2-1+order=axis}
. "$here/smpi_bins.sh"
cp "$PARAGON_BIN" "$out/paragon"
cfg=(--cfg=smpi/simulate-computation:no "--cfg=smpi/os:0:0:0;1:0.00025:0" "--cfg=smpi/ois:0:0:0;1:0.00025:0"
     --cfg=smpi/send-is-detached-thresh:1048576 --log=root.thres:critical)
# the calibrated model (meshgossip-mpi calibrate, docs/models.md) as one spec
model=$(grep -v '^#' "$here/results/calibrated_9x9.model" | paste -sd, -)
run() { # shape np sizes algos sync
  smpirun -platform "$here/torus_$1.xml" -hostfile "$here/hosts_$1.txt" -np "$2" "${cfg[@]}" "$out/paragon" \
    --problem gossip --topo "torus:$1" --sizes "$3" --model "$model" --only ours --ring no --algos "$4" --sync "$5"
}
{
  echo "problem,topology,bytes,kind,algorithm,run_topology,simulated_s,predicted_s,correct"
  for sync in rounds data; do
    run 8x8 64 256,1024,4096,16384,32768,65536 "$algos8" $sync | grep -E '^gossip,'
    run 9x9 81 256,1024,4096,16384,32768,65536 "$algos9" $sync | grep -E '^gossip,'
  done
} > "$out/allgather.csv"
# The table: ms per cell (x = wrong bytes), the best per cell, the issue's targets;
# NAME@ring: a 1D schedule planned on the ring of the ranks in row-major order.
awk -F, '
  BEGIN { nc = split("torus:8x8/256 torus:8x8/1024 torus:8x8/4096 torus:8x8/16384 torus:8x8/32768 torus:8x8/65536 torus:9x9/256 torus:9x9/1024 torus:9x9/4096 torus:9x9/16384 torus:9x9/32768 torus:9x9/65536", cols, " ")
          split("1.60 1.87 3.00 5.90 8.60 11.8 - - - - 9.00 -", tgt, " ") }
  NR > 1 { c = $2 "/" $3; if ($6 != $2) $5 = $5 "@" substr($6, 1, index($6, ":") - 1); if ($4 == "ours-data") $5 = $5 "+data"; t[$5, c] = sprintf($9 == 1 ? "%.3f" : "%.3fx", $7 * 1e3)
           if (!($5 in seen)) { seen[$5] = 1; order[++n] = $5 }
           if ($9 == 1 && (!(c in best) || $7 < best[c])) { best[c] = $7; who[c] = $5 } }
  END { printf "%-44s", "ms"; for (i = 1; i <= nc; i++) printf " %15s", cols[i]; print ""
        for (k = 1; k <= n; k++) { printf "%-44s", order[k]
          for (i = 1; i <= nc; i++) printf " %15s", ((order[k], cols[i]) in t) ? t[order[k], cols[i]] : "-"; print "" }
        printf "%-44s", "best"; for (i = 1; i <= nc; i++) printf " %15.3f", best[cols[i]] * 1e3; print ""
        printf "%-44s", "target"; for (i = 1; i <= nc; i++) printf " %15s", tgt[i]; print ""
        printf "%-44s", "met"; for (i = 1; i <= nc; i++) printf " %15s", tgt[i] == "-" ? "-" : (best[cols[i]] * 1e3 <= tgt[i] ? "yes" : "no"); print "" }
' "$out/allgather.csv" | tee "$out/allgather.txt"
echo "wrote $out/allgather.csv, $out/allgather.txt"
