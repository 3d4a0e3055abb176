#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the Debian package memviz_VERSION_ARCH.deb (and memviz-dbgsym_VERSION_ARCH.ddeb with
# the debug symbols), into the package build folder. Called by `packaging/dev.sh package`.
#
#   build-package.sh               a Release build of its own, in build-package/
#                                  ($MEMVIZ_PACKAGE_BUILD_DIR), with Debian's own compiler
#                                  flags (dpkg-buildflags: -O2 -g, hardening), tests off
#   build-package.sh --from DIR    package an existing build folder as it is (CI packages its
#                                  RelWithDebInfo test build: -O2 -g too, no second compile)
#
# Either way the binary in the package is stripped and its symbols are in the -dbgsym file,
# and the Depends line is what dpkg-shlibdeps finds the binary linked against (plus python3
# for the probe). Prints the path of the .deb last.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

if [ "${1:-}" = --from ]; then
  dir=${2:?usage: build-package.sh [--from BUILD_DIR]}
  [ -f "$dir/CPackConfig.cmake" ] || { echo "memviz: $dir is not a configured build folder" >&2; exit 1; }
else
  dir=${MEMVIZ_PACKAGE_BUILD_DIR:-build-package}
  launcher=()
  if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache); fi
  # Debian's flags for a package build; NDEBUG as in CMake's Release.
  export DEB_BUILD_MAINT_OPTIONS=hardening=+all
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" \
    -DMEMVIZ_BUILD_TESTS=OFF -DMEMVIZ_BUILD_BENCH=OFF -DCMAKE_INSTALL_PREFIX=/usr \
    -DCMAKE_C_FLAGS="$(dpkg-buildflags --get CPPFLAGS) $(dpkg-buildflags --get CFLAGS)" \
    -DCMAKE_CXX_FLAGS="$(dpkg-buildflags --get CPPFLAGS) $(dpkg-buildflags --get CXXFLAGS)" \
    -DCMAKE_EXE_LINKER_FLAGS="$(dpkg-buildflags --get LDFLAGS)" \
    -DCMAKE_C_FLAGS_RELEASE=-DNDEBUG -DCMAKE_CXX_FLAGS_RELEASE=-DNDEBUG >/dev/null
  cmake --build "$dir" -j "$(nproc)"
fi

rm -f "$dir"/memviz_*.deb "$dir"/memviz-dbgsym_*.ddeb
(cd "$dir" && cpack -G DEB >/dev/null)
deb=$(ls "$dir"/memviz_*.deb)
dbgsym=$(ls "$dir"/memviz-dbgsym_*.ddeb 2>/dev/null || true)
[ -n "$dbgsym" ] || { echo "memviz: no -dbgsym package was made (was the build without -g?)" >&2; exit 1; }
echo "memviz: built $deb ($(du -h "$deb" | cut -f1)) and $dbgsym ($(du -h "$dbgsym" | cut -f1))" >&2
dpkg-deb --field "$deb" Depends >&2
echo "$deb"
