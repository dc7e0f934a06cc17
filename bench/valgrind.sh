#!/usr/bin/env bash
# Valgrind (memcheck, full leak check) over the CLI test suites: every
# meshgossip invocation of tests/cli_errors.sh and tests/verify_exit.sh
# runs under valgrind; prints the invocations, the memcheck errors and the
# leaked bytes summed over all of them, and the logs of any with errors.
#   bench/valgrind.sh [BUILD_DIR]   (default build; built if missing)
set -u
cd "$(dirname "$0")/.."
B=${1:-build}
command -v valgrind >/dev/null || { echo "valgrind.sh: valgrind not found (apt-get install valgrind)"; exit 0; }
if [ ! -x "$B/meshgossip" ]; then
  cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null && cmake --build "$B" -j2 >/dev/null || exit 1
fi
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
wrap="$logs/meshgossip"
cat >"$wrap" <<WRAP
#!/usr/bin/env bash
exec valgrind -q --tool=memcheck --leak-check=full --show-leak-kinds=definite,indirect,possible \
  --errors-for-leak-kinds=definite,indirect --log-file="$logs/vg.%p.log" "$PWD/$B/meshgossip" "\$@"
WRAP
chmod +x "$wrap"
for t in tests/cli_errors.sh tests/verify_exit.sh; do
  [ -f "$t" ] || continue
  echo "== $t under valgrind"
  bash "$t" "$wrap" | tail -3
done
n=$(ls "$logs"/vg.*.log 2>/dev/null | wc -l)
# -q: a log holds only errors and leak records; sum them
errs=0 leaked=0 bad=0
for f in "$logs"/vg.*.log; do
  [ -s "$f" ] || continue
  bad=$((bad + 1))
  e=$(grep -c '^==[0-9]*== [A-Z][a-z]' "$f")
  l=$(grep -Eo '[0-9,]+ bytes in [0-9,]+ blocks are (definitely|indirectly|possibly) lost' "$f" |
    awk '{gsub(",","",$1); s+=$1} END {print s+0}')
  errs=$((errs + e))
  leaked=$((leaked + l))
  echo "--- $f"
  head -40 "$f"
done
echo "valgrind: $n meshgossip runs, $bad with reports, $errs error records, $leaked bytes leaked (definite+indirect+possible)"
