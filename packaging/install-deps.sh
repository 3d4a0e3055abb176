#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian 12 packages memviz needs to build, test and run. Does nothing when
# they are all present. Runs apt-get as root, or through sudo.
set -euo pipefail

packages=(
  # build
  build-essential cmake ninja-build pkg-config git
  # libraries
  qt6-base-dev libqt6sql6-sqlite qt6-tools-dev qt6-l10n-tools qt6-tools-dev-tools qt6-svg-dev
  libqcustomplot-dev libsqlite3-dev libsimdjson-dev zlib1g-dev libzstd-dev
  # tests and benchmarks: headless GUI, fonts for rendering, stdlib oracles, benchmarks,
  # and the real native profilers the heaptrack/massif tests compare against
  libbenchmark-dev xvfb xauth fonts-dejavu-core python3 heaptrack valgrind time bc
  # live recording: the probe test trains a tiny model with Debian's PyTorch; the
  # not-permitted test runs memviz as another user (util-linux's setpriv)
  python3-torch util-linux
  # the Simplified Chinese user interface needs a CJK font
  fonts-noto-cjk
  # the Debian package and its checks: PNG icons from the SVG, file (CPack's shlibdeps and
  # dbgsym steps), the validators, the MIME database and its readers (gio, xdg-mime), man,
  # zstd (heaptrack compresses with it)
  librsvg2-bin file desktop-file-utils appstream shared-mime-info libglib2.0-bin xdg-utils
  man-db zstd
  # the sanitizer build of the tests and the fuzz targets (docs/reliability.md)
  clang libclang-rt-14-dev
  # memviz report (issue 32): tst_report renders the HTML page in a real headless browser
  # (chromium --dump-dom: the inline script ran, the peak is right) and validates it (tidy)
  chromium tidy
  # memviz record --pid PID --probe attaches the PyTorch probe through gdb (tst_live_attach)
  gdb
  # the probe's pytest plugin and its tests (ctest probe_pytest, python/memviz_probe/tests),
  # and the package check's "pytest --help lists the plugin"; setuptools builds the package
  # from its pyproject.toml in those tests (what pip install python/memviz_probe does)
  python3-pytest python3-setuptools
  # memviz ranks --slurm (issue 55): tst_ranks_slurm starts a real one-node Slurm on localhost
  slurm-wlm munge
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "memviz: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "memviz: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
