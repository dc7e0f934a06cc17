#!/usr/bin/env bash
# The interposer's stress matrix: every case of tests/mpi/stress.c on 1 to
# 16 ranks (oversubscribed) under libmeshgossip-pmpi.so, each run bounded
# by TIMEOUT seconds (a hang counts as a failure); then the plan cache's
# resident set size over CALLS interposed calls (bench/mpi_cache_rss.c);
# then the time of a call by kind of datatype (bench/mpi_type_calls.c).
#   bench/mpi_stress.sh [BUILD_DIR] [TIMEOUT] [CALLS]   (defaults build 120 100000)
set -u
cd "$(dirname "$0")/.."
B=${1:-build}
TMO=${2:-120}
CALLS=${3:-100000}
lib=$B/libmeshgossip-pmpi.so
for f in "$lib" "$B/mpi_stress" "$B/mpi_cache_rss" "$B/mpi_type_calls"; do
  [ -e "$f" ] || { echo "mpi_stress.sh: $f not built (MPI not found?)"; exit 0; }
done
cases="mismatch topo types inter comms threads"
printf '%-9s' case
for np in $(seq 1 16); do printf '%4s' "$np"; done
echo
fails=0
for c in $cases; do
  printf '%-9s' "$c"
  for np in $(seq 1 16); do
    if timeout -k 5 "$TMO" bash tests/mpi/stress.sh mpirun "$lib" "$B/mpi_stress" "$c" "$np" >/tmp/mg_stress.$$ 2>&1; then
      printf '%4s' ok
    elif [ $? = 124 ]; then
      printf '%4s' HANG
      fails=$((fails + 1))
    else
      printf '%4s' FAIL
      fails=$((fails + 1))
      cp /tmp/mg_stress.$$ "/tmp/mg_stress_${c}_$np.log"
    fi
  done
  echo
done
rm -f /tmp/mg_stress.$$
echo "matrix: $fails failing runs (logs of failures in /tmp/mg_stress_CASE_NP.log)"
echo "plan cache, $CALLS calls on 4 ranks, 16 communicators, 12 counts each:"
mpirun --allow-run-as-root --oversubscribe -x LD_PRELOAD="$PWD/$lib" -x MESHGOSSIP_ALLGATHER=mpi-allgather-ring \
  -x MESHGOSSIP_ALLTOALL=mpi-alltoall-pairwise -np 4 "$B/mpi_cache_rss" "$CALLS"
echo "time per call by datatype, 16 ranks on torus:4x4 (bench/mpi_type_calls.c), MPI's own, then interposed:"
mpirun --allow-run-as-root --oversubscribe -np 16 "$B/mpi_type_calls" 20
mpirun --allow-run-as-root --oversubscribe -x LD_PRELOAD="$PWD/$lib" -x MESHGOSSIP_TOPO=torus:4x4 -np 16 \
  "$B/mpi_type_calls" 20
