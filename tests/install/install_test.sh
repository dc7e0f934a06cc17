#!/bin/bash
# install_test.sh BUILD_DIR THIS_DIR CC CMAKE: installs the build into a
# temporary prefix, checks the tree (libraries with their SONAME, headers,
# meshgossip.pc, the CMake package, man pages, completion), then builds
# consumer.c against it with pkg-config (shared and --static) and with
# find_package(meshgossip) (shared and static targets) and runs each: the
# program checks a simulated cost against the closed form. Every installed
# header compiles alone; with MPI, an MPI program built by mpicc with
# meshgossip_mpi.pc runs mg_allgather on 4 ranks and checks every int.
set -euo pipefail
build=$1 here=$2 cc=$3 cmake=$4
command -v pkg-config >/dev/null || { echo "no pkg-config: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
"$cmake" --install "$build" --prefix "$prefix" >"$tmp/install.log"
version=$("$prefix/bin/meshgossip" --version | awk '{print $2}')
echo "installed meshgossip $version"
libdir=$(dirname "$(find "$prefix" -name meshgossip.pc)")/..
libdir=$(cd "$libdir" && pwd)
fail() { echo "FAIL: $*"; exit 1; }
for f in "$libdir/libmeshgossip.a" "$libdir/libmeshgossip.so.$version" "$prefix/include/meshgossip.h" \
         "$libdir/cmake/meshgossip/meshgossipConfig.cmake" "$prefix/share/man/man1/meshgossip.1" \
         "$prefix/share/man/man1/meshgossip-mpi.1" "$prefix/share/bash-completion/completions/meshgossip"; do
  [ -e "$f" ] || fail "missing $f"
done
# the man pages name the version installed (their .TH line is written by
# hand: a release that forgets it fails here)
for m in meshgossip meshgossip-mpi; do
  head -1 "$prefix/share/man/man1/$m.1" | grep -qF "\"meshgossip $version\"" ||
    fail "$m.1 names another version than $version: $(head -1 "$prefix/share/man/man1/$m.1")"
done
for h in meshgossip.h meshgossip_draw.h meshgossip_engine.h meshgossip_shard.h; do
  printf '#include <%s>\nint main(void) { return 0; }\n' "$h" >"$tmp/h.c"
  "$cc" -std=c11 -Wall -Werror -fsyntax-only -I"$prefix/include" "$tmp/h.c" || fail "$h does not compile alone"
done
soname=$(objdump -p "$libdir/libmeshgossip.so" | awk '/SONAME/ {print $2}')
[ "$soname" = "libmeshgossip.so.${version%.*}" ] || fail "SONAME $soname, expected libmeshgossip.so.${version%.*}"
echo "SONAME $soname"
if [ -x "$prefix/bin/meshgossip-mpi" ]; then
  [ -e "$libdir/libmeshgossip-pmpi.so" ] || fail "missing libmeshgossip-pmpi.so"
  "$prefix/bin/meshgossip-mpi" --help | grep "usage: meshgossip-mpi" >/dev/null || fail "meshgossip-mpi --help"
  comp=$(bash -c 'source "$1"; COMP_WORDS=(meshgossip-mpi cal); COMP_CWORD=1; _meshgossip_mpi
    echo "${COMPREPLY[*]}"' _ "$prefix/share/bash-completion/completions/meshgossip-mpi")
  [ "$comp" = calibrate ] || fail "bash completion of meshgossip-mpi cal gave '$comp'"
  comp=$(bash -c 'source "$1"; COMP_WORDS=(meshgossip-mpi bench --coll all); COMP_CWORD=3; _meshgossip_mpi
    echo "${COMPREPLY[*]}"' _ "$prefix/share/bash-completion/completions/meshgossip-mpi")
  [ "$comp" = "allgather alltoall" ] || fail "bash completion of bench --coll all gave '$comp'"
fi
# the completion offers the installed tool's algorithms
comp=$(PATH=$prefix/bin:$PATH bash -c 'source "$1"; COMP_WORDS=(meshgossip run --algo conc); COMP_CWORD=3; _meshgossip
  echo "${COMPREPLY[*]}"' _ "$prefix/share/bash-completion/completions/meshgossip")
[ "$comp" = concentrate ] || fail "bash completion of --algo conc gave '$comp'"
comp=$(PATH=$prefix/bin:$PATH bash -c 'source "$1"; COMP_WORDS=(meshgossip pla); COMP_CWORD=1; _meshgossip
  echo "${COMPREPLY[*]}"' _ "$prefix/share/bash-completion/completions/meshgossip")
[ "$comp" = platform ] || fail "bash completion of pla gave '$comp'"
comp=$(PATH=$prefix/bin:$PATH bash -c 'source "$1"; COMP_WORDS=(meshgossip table ""); COMP_CWORD=2; _meshgossip
  echo "${COMPREPLY[*]}"' _ "$prefix/share/bash-completion/completions/meshgossip")
case " $comp " in *" juurlink-t1 "*" fujita "*) ;; *) fail "table completion gave '$comp'" ;; esac
case " $comp " in *" meshgossip "*) fail "table completion offers 'meshgossip': '$comp'" ;; esac
# the shared library exports its interface (what the installed headers
# declare) and the four helpers libmeshgossip_mpi.a calls, nothing else; the
# interposer exports only the MPI calls it takes over
command -v nm >/dev/null || fail "nm (binutils) not found"
cat "$prefix"/include/meshgossip*.h | grep -oE '\bmg_[a-z0-9_]+\(' | tr -d '(' | sort -u >"$tmp/declared"
nm -D --defined-only "$libdir/libmeshgossip.so" | awk '$2 == "T" {print $3}' | sort -u >"$tmp/exported"
extra=$(comm -13 "$tmp/declared" "$tmp/exported" | grep -vxE 'mg_(calloc|fail|grow|spec_by_size)' || true)
[ -z "$extra" ] || fail "libmeshgossip.so exports undeclared functions: $(echo $extra | head -c 200)"
grep -qx mg_run "$tmp/exported" || fail "libmeshgossip.so does not export mg_run"
if [ -e "$libdir/libmeshgossip-pmpi.so" ]; then
  other=$(nm -D --defined-only "$libdir/libmeshgossip-pmpi.so" | awk '$2 == "T" {print $3}' | grep -v '^MPI_' || true)
  [ -z "$other" ] || fail "libmeshgossip-pmpi.so exports more than MPI calls: $(echo $other | head -c 200)"
fi
export PKG_CONFIG_PATH=$libdir/pkgconfig
[ "$(pkg-config --modversion meshgossip)" = "$version" ] || fail "pkg-config --modversion"
cd "$tmp"
# pkg-config, shared (rpath to the prefix) and static
"$cc" "$here/consumer.c" -o c_pc_shared $(pkg-config --cflags --libs meshgossip) -lm -Wl,-rpath,"$libdir"
./c_pc_shared "$version"
ldd ./c_pc_shared | grep "$libdir/libmeshgossip.so" >/dev/null || fail "c_pc_shared does not load the installed .so"
"$cc" "$here/consumer.c" -o c_pc_static $(pkg-config --cflags meshgossip) "$libdir/libmeshgossip.a" \
  $(pkg-config --libs-only-l --static meshgossip | sed 's/-lmeshgossip//')
./c_pc_static "$version"
# find_package
"$cmake" -S "$here" -B cm -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" >cm.log
"$cmake" --build cm >>cm.log
./cm/consumer_shared "$version"
./cm/consumer_static "$version"
# the MPI library through its pkg-config file, built by mpicc
if [ -e "$libdir/libmeshgossip_mpi.a" ] && command -v mpicc >/dev/null && command -v mpirun >/dev/null; then
  [ -e "$libdir/pkgconfig/meshgossip_mpi.pc" ] || fail "missing meshgossip_mpi.pc"
  cat >mpic.c <<'EOC'
#include <meshgossip_mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, n, bad = 0, s[3], r[3 * 64];
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  for (int i = 0; i < 3; i++) s[i] = 100 * me + i;
  if (n > 64 || mg_allgather(s, 3, MPI_INT, r, 3, MPI_INT, MPI_COMM_WORLD) != MPI_SUCCESS) bad = 1;
  for (int i = 0; !bad && i < 3 * n; i++) bad = r[i] != 100 * (i / 3) + i % 3;
  int all = 0;
  MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0) printf("mg_allgather on %d ranks: %s\n", n, all ? "WRONG" : "ok");
  MPI_Finalize();
  return all != 0;
}
EOC
  mpicc mpic.c -o mpic $(pkg-config --cflags --libs meshgossip_mpi) -lm -Wl,-rpath,"$libdir" || fail "mpicc with meshgossip_mpi.pc"
  root=()
  [ "$(id -u)" = 0 ] && root=(--allow-run-as-root)
  out=$(mpirun "${root[@]}" --oversubscribe -np 4 ./mpic) || fail "the MPI consumer exits $?"
  grep -q "on 4 ranks: ok" <<<"$out" || fail "the MPI consumer: $out"
  for h in meshgossip_mpi.h meshgossip_mpi_shard.h; do
    printf '#include <%s>\nint main(void) { return 0; }\n' "$h" >h.c
    mpicc -std=c11 -Wall -Werror -fsyntax-only -I"$prefix/include" h.c || fail "$h does not compile alone"
  done
  echo "meshgossip_mpi: ok"
fi
# a parent project that add_subdirectory()s the source: the libraries and
# tools are its targets, the tests and benchmarks are not (MG_TESTS follows
# the parent's BUILD_TESTING, off when the parent does not say)
src=$(cd "$here/../.." && pwd)
mkdir -p "$tmp/parent"
cat >"$tmp/parent/CMakeLists.txt" <<EOC
cmake_minimum_required(VERSION 3.20)
project(mg_parent LANGUAGES C)
add_subdirectory("$src" meshgossip)
add_executable(parent "$here/consumer.c")
target_link_libraries(parent PRIVATE meshgossip)
EOC
for bt in unset ON; do
  def=()
  [ "$bt" = ON ] && def=(-DBUILD_TESTING=ON)
  rm -rf "$tmp/pb"
  "$cmake" -S "$tmp/parent" -B "$tmp/pb" -DCMAKE_C_COMPILER="$cc" -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON -DMG_SIMGRID=OFF \
    -DMG_SMPI=OFF "${def[@]}" >"$tmp/pb.log" 2>&1 ||
    { cat "$tmp/pb.log"; fail "add_subdirectory (BUILD_TESTING $bt)"; }
  targets=$("$cmake" --build "$tmp/pb" --target help)
  for t in meshgossip meshgossip-cli parent; do
    grep -qE "\.\.\. $t\$" <<<"$targets" || fail "add_subdirectory (BUILD_TESTING $bt): no target $t"
  done
  if [ "$bt" = unset ]; then
    ! grep -qE '\.\.\. (test_circgos|bench_[a-z_]+|mpi_stress)$' <<<"$targets" || fail "a parent builds our tests"
    [ ! -e "$tmp/pb/meshgossip/CTestTestfile.cmake" ] || fail "a parent runs our tests"
  else
    grep -qE '\.\.\. test_circgos$' <<<"$targets" || fail "BUILD_TESTING=ON builds no tests"
  fi
done
echo "add_subdirectory: ok"
echo "install_consumer: ok"
