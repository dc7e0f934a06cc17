#!/usr/bin/env bash
# Runs the unmodified MPI program under libmeshgossip-pmpi.so and checks
# both its results (exit status) and the path each call took.
# usage: interposed.sh MPIEXEC LIB PROGRAM NP [ENV=VALUE...]; EXPECT (a
# regular expression) must match the verbose output. RANK0 (ENV=VALUE
# words): settings of rank 0 alone, the others without them.
set -u
mpiexec=$1 lib=$2 prog=$3 np=$4
shift 4
expect=${EXPECT:-meshgossip: MPI_Allgather}
xs=(-x LD_PRELOAD="$lib" -x MESHGOSSIP_VERBOSE=1)
for kv in "$@"; do xs+=(-x "$kv"); done
if [ -n "${RANK0:-}" ]; then
  x0=("${xs[@]}")
  for kv in $RANK0; do x0+=(-x "$kv"); done
  out=$(timeout 120 "$mpiexec" --allow-run-as-root --oversubscribe "${x0[@]}" -np 1 "$prog" : "${xs[@]}" \
    -np $((np - 1)) "$prog" 2>&1)
else
  out=$("$mpiexec" --allow-run-as-root --oversubscribe "${xs[@]}" -np "$np" "$prog" 2>&1)
fi
rc=$?
printf '%s\n' "$out"
[ $rc -eq 0 ] || { echo "FAIL: program exited $rc"; exit 1; }
printf '%s\n' "$out" | grep -Eq "$expect" || { echo "FAIL: no line matches /$expect/"; exit 1; }
echo "OK"
