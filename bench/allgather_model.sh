#!/usr/bin/env bash
# Model costs of the allgather schedules of issue 15 against the bandwidth
# bound (N-1) m / (2d B) at 32 KiB, ts = 1 us, 175 MB/s (docs/allgather.md).
# usage: bench/allgather_model.sh [MESHGOSSIP_BINARY]
set -eu
mg=${1:-build/meshgossip}
model=contention=shared,ts=1e-6,td=0,tl=5.714e-9
printf '%-12s %-24s %7s %12s %12s %8s\n' topology algorithm rounds cost_us bound_us ratio
for t in torus:8x8 torus:9x9 torus:16x16 torus:27x27 torus:4x4x4 torus:8x8x8; do
  for a in multiring:mode=bi multiring:mode=uni greedy-links:chunks=1 greedy-links:chunks=2 greedy-links:chunks=3 \
           dimwise-colored; do
    "$mg" run --algo "$a" --topo "$t" --model "$model" --bytes 32768 |
      awk -v t="$t" -v a="$a" '
        /^rounds/ { r = $2 }
        /^cost/ { c = $2 }
        /^lower bound/ { b = $3 }
        END { printf "%-12s %-24s %7d %12.1f %12.1f %8.4f\n", t, a, r, c * 1e6, b * 1e6, c / b }'
  done
done
