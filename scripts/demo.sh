#!/usr/bin/env bash
# The main job: builds meshgossip (installing its Debian packages if they
# are missing) and ranks every gossip algorithm that applies on a torus,
# verified by the simulator, for a range of start-up/transfer ratios r.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! pkg-config --exists jansson cmocka 2>/dev/null; then bash scripts/install-deps.sh; fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc 2>/dev/null || echo 2)" >/dev/null
topo=${1:-torus:9x9}
for r in 2 10 50 250; do
  echo "=== r = t_s/t'_l = $r"
  build/meshgossip compare --problem gossip --topo "$topo" --r "$r"
  echo
done
