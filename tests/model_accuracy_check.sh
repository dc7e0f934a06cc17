#!/usr/bin/env bash
# The cost model against SMPI on a small subset of the Paragon experiment
# (seven gossip schedules planned for torus:9x9, at 4 KiB and 32 KiB per node:
# bench/paragon/results/results.csv): with the machine's model
# (bench/model_accuracy.sh's default: the calibrated model file, docs/models.md) and its
# clock (timing=ranks, the executor's: the links shared across rounds), the median |pred/sim - 1| must be <= 10%, the max <= 25%, and the
# predicted pick within 5% of the simulated best at both sizes.
# usage: model_accuracy_check.sh MESHGOSSIP SOURCE_DIR
set -euo pipefail
mg=$1
src=$2
sub=$(mktemp)
trap 'rm -f "$sub"' EXIT
head -1 "$src/bench/paragon/results/results.csv" >"$sub"
awk -F, '$4 == "ours" && $2 == "torus:9x9" && $6 == "torus:9x9" && ($3 == 4096 || $3 == 32768) &&
  $5 ~ /^(torgos|cubgos|dimwise|mpi-allgather-bruck|mpi-allgather-direct|mpi-allgather-ring|mpi-allgather-rd)$/' \
  "$src/bench/paragon/results/results.csv" >>"$sub"
cells=$(($(wc -l <"$sub") - 1))
[ "$cells" -eq 14 ] || { echo "expected 14 cells, found $cells"; exit 1; }
out=$(bash "$src/bench/model_accuracy.sh" "$mg" "$sub")
echo "$out"
line=$(echo "$out" | grep "^ranks, planned for the machine's topology")
med=$(echo "$line" | sed -E 's/.*median [^0-9]*1\| ([0-9.]+).*/\1/')
max=$(echo "$line" | sed -E 's/.*max [^0-9]*1\| ([0-9.]+).*/\1/')
miss=$(echo "$line" | sed -E 's/.*best: ([0-9]+) of.*/\1/')
echo "median $med (<= 0.10), max $max (<= 0.25), pick misses $miss (0)"
awk -v med="$med" -v mx="$max" -v miss="$miss" 'BEGIN { exit !(med + 0 <= 0.10 && mx + 0 <= 0.25 && miss == 0 && mx + 0 > 0) }'
