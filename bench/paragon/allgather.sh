#!/usr/bin/env bash
# The allgather schedules of issue 15 on the SMPI Paragon platform
# (docs/allgather.md): torus:8x8, 9x9, 4x4x4 and ring:64 at 256 B .. 64 KiB, only the
# listed algorithm specs (SMPI is CPU-heavy), one smpirun at a time, each
# spec under the executor's two clocks: sync=rounds (a round barrier per
# rank) and sync=data (no barrier: a send goes once its bytes are in; the
# table's NAME+data rows); then one table per machine: every spec's
# simulated time per cell, the best, and the issue's targets beside them.
# usage: bench/paragon/allgather.sh [OUTDIR]   (ALGOS8, ALGOS9, ALGOS444, ALGOS64 override the specs)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$here/out}
mkdir -p "$out"
base=mpi-allgather-rd,mpi-allgather-bruck,dimwise,dimwise-colored,torgos
algos8=${ALGOS8:-torus-swing,torus-digits,torus-swing:merge=2+product=1+skip=2,torus-swing:merge=2+product=1,torus-tiling,torus-tiling:split=1,torus-tiling:spread=1,torus-doubling,torus-quadrupling,torus-doubling:ports=4,greedy-links,multiring,$base,cubgos,dimwise-colored:phases=torus-swing/ring,dimwise-colored:phases=torus-swing/ring:half=1}
algos9=${ALGOS9:-torus-ternary,torus-digits,torus-ternary:split=2,torus-doubling,torus-doubling:ports=4,greedy-links,multiring,$base,cubgos,dimwise-colored:phases=2-1,dimwise-colored:phases=2-1+order=axis,dimwise-colored:phases=torus-ternary/ring,dimwise-colored:phases=torus-ternary/ring:pipe=1}
algos444=${ALGOS444:-torus-digits,torus-swing,torus-swing:merge=2+product=1+skip=2,torus-swing:merge=2+product=1,torus-doubling,greedy-links,multiring,mpi-allgather-rd,mpi-allgather-bruck,dimwise,dimwise-colored,cubgos,dimwise-colored:phases=torus-swing/torus-swing/ring,dimwise-colored:phases=torus-swing/torus-swing/ring:half=1}
algos64=${ALGOS64:-torus-swing,torus-swing:merge=2+skip=2,torus-doubling,circgos,concentrate,ring,multiring,mpi-allgather-rd,mpi-allgather-bruck,mpi-allgather-neighbor,mpi-allgather-ring}
sizes=256,1024,4096,16384,32768,65536
. "$here/smpi_bins.sh"
cp "$PARAGON_BIN" "$out/paragon"
cfg=(--cfg=smpi/simulate-computation:no "--cfg=smpi/os:0:0:0;1:0.00025:0" "--cfg=smpi/ois:0:0:0;1:0.00025:0"
     --cfg=smpi/send-is-detached-thresh:1048576 --log=root.thres:critical)
# the calibrated model (meshgossip-mpi calibrate, docs/models.md) as one spec
model=$(grep -v '^#' "$here/results/calibrated_9x9.model" | paste -sd, -)
run() { # platform hosts topology ranks algos sync
  smpirun -platform "$here/$1.xml" -hostfile "$here/$2.txt" -np "$4" "${cfg[@]}" "$out/paragon" \
    --problem gossip --topo "$3" --sizes "$sizes" --model "$model" --only ours --ring no --algos "$5" --sync "$6"
}
{
  echo "problem,topology,bytes,kind,algorithm,run_topology,simulated_s,predicted_s,correct"
  for sync in rounds data; do
    run torus_8x8 hosts_8x8 torus:8x8 64 "$algos8" $sync | grep -E '^gossip,'
    run torus_9x9 hosts_9x9 torus:9x9 81 "$algos9" $sync | grep -E '^gossip,'
    run torus_4x4x4 hosts_4x4x4 torus:4x4x4 64 "$algos444" $sync | grep -E '^gossip,'
    run ring_64 hosts_8x8 ring:64 64 "$algos64" $sync | grep -E '^gossip,'
  done
} > "$out/allgather.csv"
# One table per machine: ms per cell (x = wrong bytes), the best per cell,
# issue 15's targets where it sets them (8x8, and 9x9 at 32 KiB).
awk -F, '
  BEGIN { nz = split("256 1024 4096 16384 32768 65536", z, " ")
          split("1.60 1.87 3.00 5.90 8.60 11.8", t8, " ")
          for (i = 1; i <= nz; i++) tgt["torus:8x8", z[i]] = t8[i]
          tgt["torus:9x9", 32768] = "9.00" }
  NR > 1 { g = $2; if (!(g in seen)) { seen[g] = 1; topo[++nt] = g }
           if ($4 == "ours-data") $5 = $5 "+data"
           if (!((g, $5) in has)) { has[g, $5] = 1; name[g, ++na[g]] = $5 }
           t[g, $5, $3] = sprintf($9 == 1 ? "%.3f" : "%.3fx", $7 * 1e3)
           if ($9 == 1 && (!((g, $3) in best) || $7 < best[g, $3])) best[g, $3] = $7 }
  END { for (q = 1; q <= nt; q++) { g = topo[q]
          printf "%-44s", "ms on " g; for (i = 1; i <= nz; i++) printf " %10s", z[i]; print ""
          for (k = 1; k <= na[g]; k++) { printf "%-44s", name[g, k]
            for (i = 1; i <= nz; i++) printf " %10s", ((g, name[g, k], z[i]) in t) ? t[g, name[g, k], z[i]] : "-"; print "" }
          printf "%-44s", "best"; for (i = 1; i <= nz; i++) printf " %10.3f", best[g, z[i]] * 1e3; print ""
          if ((g, 32768) in tgt) {
            printf "%-44s", "target"; for (i = 1; i <= nz; i++) printf " %10s", ((g, z[i]) in tgt) ? tgt[g, z[i]] : "-"; print ""
            printf "%-44s", "met"
            for (i = 1; i <= nz; i++) printf " %10s", ((g, z[i]) in tgt) ? (best[g, z[i]] * 1e3 <= tgt[g, z[i]] ? "yes" : "no") : "-"
            print "" }
          print "" } }
' "$out/allgather.csv" | tee "$out/allgather.txt"
echo "wrote $out/allgather.csv, $out/allgather.txt"
