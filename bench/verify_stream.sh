#!/usr/bin/env bash
# Memory of `meshgossip verify` against the size of the schedule file: the
# reader streams the rounds (src/schedule/import.c, json_stream.c), so the
# peak RSS should stay flat while the file grows. Exports `ring` on each
# ring:N given (ring:1200 is a 93 MB file), then verifies it and prints the
# file size, the peak RSS (getrusage of the child), the wall time and the
# memory per byte of file; "growth" is the peak RSS above that of the same
# binary verifying an 8-node file (the CLI's shared libraries, SimGrid's
# among them, take some 30 MiB before it reads a byte). With OLD=path/to/an/older/meshgossip the same
# files are verified by that binary too (the whole-document reader took
# about 18 bytes per byte; give it --mem-limit room).
#   bench/verify_stream.sh PATH_TO_MESHGOSSIP [ring:N ...]   (default ring:300 ring:600 ring:1200)
set -u
MG=${1:?usage: verify_stream.sh PATH_TO_MESHGOSSIP [ring:N ...]}
shift
TOPOS=${*:-ring:300 ring:600 ring:1200}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
measure() { # BINARY FILE -> "exit rss_kib seconds"
  python3 - "$@" <<'PY'
import resource, subprocess, sys, time
t = time.time()
rc = subprocess.call([sys.argv[1], "verify", sys.argv[2], "--mem-limit", str(8 << 30)],
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, "%.2f" % (time.time() - t))
PY
}
"$MG" run --algo ring --topo ring:8 --r 1 --export "$tmp/base.json" >/dev/null || { echo "export failed"; exit 1; }
read -r _ base_new _ < <(measure "$MG" "$tmp/base.json")
base_old=0
[ -n "${OLD:-}" ] && read -r _ base_old _ < <(measure "$OLD" "$tmp/base.json")
printf '%-10s %-6s %9s %5s %13s %11s %8s %13s\n' topology reader file_MiB exit peak_RSS_MiB growth_MiB seconds growth/byte
for topo in $TOPOS; do
  f="$tmp/${topo/:/_}.json"
  "$MG" run --algo ring --topo "$topo" --r 1 --export "$f" >/dev/null || { echo "export of $topo failed"; exit 1; }
  size=$(stat -c %s "$f")
  for which in new ${OLD:+old}; do
    bin=$MG base=$base_new
    [ "$which" = old ] && bin=$OLD base=$base_old
    read -r rc rss secs < <(measure "$bin" "$f")
    awk -v t="$topo" -v w="$which" -v s="$size" -v rc="$rc" -v r="$rss" -v b="$base" -v sec="$secs" \
      'BEGIN { printf "%-10s %-6s %9.1f %5d %13.1f %11.1f %8s %13.3f\n", t, w, s / 1048576, rc, r / 1024, (r - b) / 1024, sec, (r - b) * 1024 / s }'
  done
  rm -f "$f"
done
