#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The two things a developer does, each from a fresh Debian 12 machine:
#   packaging/dev.sh run    install what is missing, build, open the app on the sample trace
#   packaging/dev.sh test   install what is missing (Debian packages, and the pinned PyTorch 2.x
#                           environment: packaging/install-py-deps.sh), build, run the whole
#                           test suite headless;
#                           then build model/ and the window-less suites again with ASan + UBSan
#                           and run them with the fuzz corpora (docs/reliability.md; skipped
#                           only when MEMVIZ_SANITIZE=0)
# Also: build (install + build only), bench (build and run the benchmarks), package (build the
# Debian package in build-package/: packaging/build-package.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
action=${1:-test}
build=${MEMVIZ_BUILD_DIR:-build}
# Where the tests run here, every oracle, peer tool and fixture is installed: a test that cannot
# find one fails instead of skipping (tests/TestSupport.h; a plain ctest may still skip).
if [ "$action" = test ]; then export MEMVIZ_REQUIRE_ORACLES=1; fi

bash packaging/install-deps.sh
if [ "$action" = package ]; then
  exec bash packaging/build-package.sh
fi
# The tests run the live PyTorch tests twice: under Debian's PyTorch 1.13 and under the pinned
# PyTorch 2.x environment (packaging/python-requirements.txt, made once in the user's cache).
torch2=()
if [ "$action" = test ] || [ "$action" = bench ]; then
  torch2=(-DMEMVIZ_TORCH2_PYTHON="$(bash packaging/install-py-deps.sh | tail -n 1)")
fi
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${torch2[@]}" >/dev/null
cmake --build "$build" -j "$(nproc)"

case "$action" in
  run)
    if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
      echo "memviz: no display; running under Xvfb (use 'memviz screenshot' for a PNG)" >&2
      exec xvfb-run -a "$build/app/memviz" --sample
    fi
    exec "$build/app/memviz" --sample
    ;;
  test)
    cd "$build"
    QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j 2
    cd "$root"
    # The package stage: package this build (stripped, -dbgsym), install the .deb here with
    # apt-get, check the installed memviz, remove it (MEMVIZ_PACKAGE_CHECK=0 skips it).
    if [ "${MEMVIZ_PACKAGE_CHECK:-1}" != 0 ]; then
      bash packaging/check-package.sh "$(bash packaging/build-package.sh --from "$build")"
    fi
    if [ "${MEMVIZ_SANITIZE:-1}" != 0 ]; then
      # A second build folder: every sanitizer report aborts its test (-fno-sanitize-recover).
      # clang: it builds this in 570 CPU seconds, gcc in 740, with the same flags
      # (docs/reliability.md).
      sanitized=${MEMVIZ_SANITIZE_BUILD_DIR:-build-sanitize}
      cmake -S . -B "$sanitized" -G Ninja -DMEMVIZ_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug \
        -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" >/dev/null
      cmake --build "$sanitized" -j "$(nproc)"
      (cd "$sanitized" && ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 \
        UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j 2)
    fi
    ;;
  build)
    ;;
  bench)
    exec "$build/bench/bench_store"
    ;;
  *)
    echo "usage: $0 run|test|build|bench|package" >&2
    exit 2
    ;;
esac
