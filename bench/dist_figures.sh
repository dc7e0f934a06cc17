#!/usr/bin/env bash
# Figures of the sharded simulator (docs/distributed.md): per-rank peak RSS
# and wall time of `mpirun -n K meshgossip-mpi run` for K = 1..KMAX on one
# instance, beside the model RSS(K) = F + S/K. F, the fixed overhead every
# rank pays whatever K, and S, the item state that is split, are fitted
# to the two ends (K = 1 and K = KMAX); the middle K test the model, and
# "ratio" is the worst rank's RSS over F + S/K (the target is <= 1.2). F
# is also shown in parts: a rank running a 4-node ring (the MPI runtime
# and the binary, measured), the per-node and per-arc bookkeeping every
# rank keeps (computed: 48 B a node, 24 B an arc slot), and the rest of F,
# which is the round every rank generates and checks (its transfers, their
# routes and arcs). Every rank's peak comes from /usr/bin/time -f %M
# around the rank; the wall time is mpirun's, start to end. The run's cost
# is printed to show it does not change with K.
#   bench/dist_figures.sh BUILD_DIR [KMAX] [-- run options]
# default instance: exchange-partitioned (Tseng, Ni, Sheu's C64) on
# torus:16x16x16 with r = 10 (335 MB of block state at 20 B a block).
set -u
B=${1:?usage: dist_figures.sh BUILD_DIR [KMAX] [-- run options]}
shift
KMAX=4
if [ $# -gt 0 ] && [ "$1" != "--" ]; then KMAX=$1; shift; fi
[ "${1:-}" = "--" ] && shift
ARGS=("$@")
[ ${#ARGS[@]} -gt 0 ] || ARGS=(--algo exchange-partitioned --topo torus:16x16x16 --r 10)
MPIRUN=${MPIRUN:-mpiexec --allow-run-as-root --oversubscribe}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }

# the instance's nodes and arc slots, from its topology spec
topo=
for ((i = 0; i < ${#ARGS[@]}; i++)); do [ "${ARGS[$i]}" = --topo ] && topo=${ARGS[$((i + 1))]}; done
read -r nodes dims <<<"$(python3 -c '
import sys, re
t = sys.argv[1].split(":")[1]
ext = [int(x) for x in t.split("x")]
n = 1
for e in ext: n *= e
print(n, len(ext) if not sys.argv[1].startswith("meshbus") else 2)' "$topo")"
book=$(((nodes * 48 + nodes * dims * 2 * 24) / 1024))

peak() { # file -> the worst rank's peak RSS (KiB)
  grep '^rank-rss' "$1" | awk '{print $2}' | sort -n | tail -1
}

$MPIRUN -n 1 /usr/bin/time -f "rank-rss %M" "$B/meshgossip-mpi" run --algo ring --topo ring:4 --r 1 >/dev/null \
  2>"$tmp/base"
base=$(peak "$tmp/base")
echo "instance: meshgossip-mpi run ${ARGS[*]}"
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(free -g | awk '/Mem:/{print $7}') GiB available"
declare -a P W C X
for ((K = 1; K <= KMAX; K++)); do
  t0=$(now)
  $MPIRUN -n $K /usr/bin/time -f "rank-rss %M" "$B/meshgossip-mpi" run "${ARGS[@]}" >"$tmp/out" 2>"$tmp/err"
  X[$K]=$?
  t1=$(now)
  P[$K]=$(peak "$tmp/err")
  W[$K]=$(echo "$t1 - $t0" | bc -l)
  C[$K]=$(grep -E '^(cost|verified)' "$tmp/out" | tail -1 | cut -c16-)
done
# RSS(1) = F + S, RSS(KMAX) = F + S/KMAX
if [ "$KMAX" -gt 1 ]; then
  F=$(((KMAX * P[KMAX] - P[1]) / (KMAX - 1)))
else
  F=$((base + book))
fi
S=$((P[1] - F))
echo "fixed overhead F = $((F / 1024)) MiB (fitted): MPI runtime and binary $((base / 1024)) MiB, bookkeeping" \
  "$((book / 1024)) MiB ($nodes nodes), the replicated round $(((F - base - book) / 1024)) MiB"
echo "item state S = $((S / 1024)) MiB (split over the ranks)"
printf "%3s %14s %14s %8s %10s  %s\n" K "worst-rank MiB" "F+S/K MiB" ratio "wall s" "cost"
for ((K = 1; K <= KMAX; K++)); do
  model=$((F + S / K))
  printf "%3d %14.1f %14.1f %8.3f %10.2f  %s (exit %d)\n" $K "$(echo "${P[$K]} / 1024" | bc -l)" \
    "$(echo "$model / 1024" | bc -l)" "$(echo "${P[$K]} / $model" | bc -l)" "${W[$K]}" "${C[$K]}" "${X[$K]}"
done
