#!/usr/bin/env bash
# Model cost of the complete-exchange algorithms against the bisection bound
# (issue 16; docs/alltoall.md). For each topology and model prints
#   topology,model,algorithm,cost,lower_bound,ratio
# usage: bench/alltoall_bisection.sh [path/to/meshgossip]   (default build/meshgossip)
set -eu
mg=${1:-build/meshgossip}
topos=${TOPOS:-torus:8x8 torus:9x9 torus:4x4x4 torus:16x16 torus:8x8x8 mesh:8x8 mesh:5x7}
algos=${ALGOS:-exchange-allport exchange-lines mpi-alltoall-direct exchange-dimwise exchange-hops exchange-moves exchange-moves:reach=2}
# transfer only (ts small), then the calibrated Paragon platform at 32 KiB per block (docs/paragon.md)
models=("contention=shared,ts=1e-9,td=0,tl=1|1" "contention=shared,ts=0.000266971,td=0,tl=5.96648e-09|32768")
echo "topology,model,bytes,algorithm,cost,lower_bound,ratio"
for t in $topos; do
  for mb in "${models[@]}"; do
    m=${mb%|*} b=${mb#*|}
    for a in $algos; do
      out=$("$mg" run --algo "$a" --topo "$t" --model "$m" --bytes "$b" 2>&1) || { echo "$t,\"$m\",$b,$a,refused,,"; continue; }
      cost=$(sed -n 's/^cost *\([^ ]*\).*/\1/p' <<<"$out")
      lb=$(sed -n 's/^lower bound *\([^ ]*\) [^ ]* (ratio \([^)]*\)).*/\1/p' <<<"$out")
      ratio=$(sed -n 's/^lower bound *\([^ ]*\) [^ ]* (ratio \([^)]*\)).*/\2/p' <<<"$out")
      echo "$t,\"$m\",$b,$a,$cost,$lb,$ratio"
    done
  done
done
