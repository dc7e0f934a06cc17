#!/usr/bin/env bash
# Complete exchange on the SMPI Paragon platform's torus:8x8 (docs/alltoall.md,
# docs/paragon.md): the candidates of issue 16 (ALGOS, default exchange-relay
# and exchange-relay:relay=0, i.e. exchange-allport priced on SimGrid's tie
# routes) at 256 B .. 64 KiB per block, one smpirun for all of them (only on
# torus:8x8, not on the ring of the ranks), printed beside the best of our
# earlier algorithms and of SMPI's built-ins (from results/results.csv, the
# full experiment of bench/paragon/run.sh: SimGrid is deterministic) and the
# bisection bound N k m tl/8 = 64 m tl (tl = 5.96648e-9 s/B, the calibration).
# usage: bench/paragon/alltoall_8x8.sh [CSV]   (default results/alltoall_8x8.csv)
#   PARAGON=build/paragon_smpi reuses a binary built by CMake (else smpicc here)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
csv=${1:-$here/results/alltoall_8x8.csv}
algos=${ALGOS:-exchange-relay,exchange-relay:relay=0}
sizes=${SIZES:-256,1024,4096,16384,32768,65536}
bin=${PARAGON:-}
if [ -z "$bin" ]; then
  . "$here/smpi_bins.sh"
  bin=$PARAGON_BIN
fi
smpirun -platform "$here/torus_8x8.xml" -hostfile "$here/hosts_8x8.txt" -np 64 \
  --cfg=smpi/simulate-computation:no "--cfg=smpi/os:0:0:0;1:0.00025:0" "--cfg=smpi/ois:0:0:0;1:0.00025:0" \
  --cfg=smpi/send-is-detached-thresh:1048576 --log=root.thres:critical "$bin" --problem exchange \
  --topo torus:8x8 --sizes "$sizes" --model ts=0.000266971,td=0,tl=5.96648e-09 --only ours --ring no \
  --algos "$algos" | grep -E '^exchange,torus:8x8,' >"$csv.tmp"
{
  echo "problem,topology,bytes,kind,algorithm,run_topology,simulated_s,predicted_s,correct"
  cat "$csv.tmp"
} >"$csv"
rm -f "$csv.tmp"
echo "wrote $csv"
# the table: each candidate (simulated / predicted), the best before, the bound
awk -F, -v before="$here/results/results.csv" '
  BEGIN {
    while ((getline line < before) > 0) {
      split(line, f, ",")
      if (f[1] != "exchange" || f[2] != "torus:8x8" || f[6] != "torus:8x8" || f[9] != 1) continue
      if (!(f[3] in best) || f[7] < best[f[3]]) { best[f[3]] = f[7]; who[f[3]] = f[4] ":" f[5] }
    }
  }
  NR > 1 { t[$3, $5] = $7; p[$3, $5] = $8; if (!($5 in seen)) { seen[$5] = 1; names[++na] = $5 }
           if (!($3 in sz)) { sz[$3] = 1; sizes[++ns] = $3 } }
  END {
    printf "%-7s", "bytes"
    for (i = 1; i <= na; i++) printf "  %-28s", names[i] " (sim/model)"
    printf "  %-40s  %-9s  %s\n", "best before (results.csv)", "bound", "best new / best before"
    for (k = 1; k <= ns; k++) {
      s = sizes[k]; b = 0
      printf "%-7s", s
      for (i = 1; i <= na; i++) {
        printf "  %-28s", sprintf("%.5f / %.5f", t[s, names[i]], p[s, names[i]])
        if (b == 0 || t[s, names[i]] < b) b = t[s, names[i]]
      }
      printf "  %-40s  %-9.5f  %.3f\n", who[s] " " best[s], 64 * s * 5.96648e-9, best[s] / b
    }
  }' "$csv"
