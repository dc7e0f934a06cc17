#!/bin/bash
# install_test.sh BUILD_DIR THIS_DIR CC CMAKE: installs the build into a
# temporary prefix, checks the tree (libraries with their SONAME, headers,
# meshgossip.pc, the CMake package, man pages, completion), then builds
# consumer.c against it with pkg-config (shared and --static) and with
# find_package(meshgossip) (shared and static targets) and runs each: the
# program checks a simulated cost against the closed form.
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
echo "install_consumer: ok"
