#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the .deb on a clean Debian 12 — a minimal debootstrapped chroot that holds nothing
# but the package and what its Depends pull in — and runs the installed memviz there. This
# proves the Depends line complete, which CI (a machine with every build dependency) cannot.
# Not part of CI: the first run downloads ~300 MB from Debian's archive.
# Needs root, debootstrap and Debian's archive.
# usage: check-clean-install.sh PATH/memviz_VERSION_ARCH.deb [CHROOT_DIR [OUT_DIR]]
#   CHROOT_DIR (default /var/tmp/memviz-clean-bookworm) is made once and reused; the package
#   is purged again at the end. OUT_DIR receives the screenshots taken inside.
set -euo pipefail
deb=$(readlink -f "${1:?usage: check-clean-install.sh memviz_VERSION_ARCH.deb [CHROOT_DIR [OUT_DIR]]}")
target=${2:-/var/tmp/memviz-clean-bookworm}
out=${3:-}
mirror=http://deb.debian.org/debian

if [ ! -x "$target/usr/bin/apt-get" ]; then
  debootstrap --variant=minbase bookworm "$target" "$mirror"
  cat > "$target/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
EOF
fi
mountpoint -q "$target/proc" || mount -t proc proc "$target/proc"
trap 'umount "$target/proc" 2>/dev/null || true' EXIT
in_root() { chroot "$target" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
  DEBIAN_FRONTEND=noninteractive QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR=/tmp/runtime "$@"; }

in_root apt-get update -qq
in_root apt-get purge -y -qq memviz >/dev/null 2>&1 || true
in_root apt-get autoremove -y -qq --purge >/dev/null
before=$(in_root dpkg-query -W -f='${Package}\n' | sort)
cp "$deb" "$target/tmp/"
echo "== apt-get install --no-install-recommends ./$(basename "$deb") on a minbase Debian 12"
in_root sh -c "cd /tmp && apt-get install -y -qq --no-install-recommends ./$(basename "$deb")" >/dev/null
after=$(in_root dpkg-query -W -f='${Package}\n' | sort)
echo "packages pulled in: $(comm -13 <(echo "$before") <(echo "$after") | wc -l)"
echo "Depends: $(in_root dpkg-query -W -f='${Depends}' memviz)"

failures=0
run() { # run DESCRIPTION COMMAND (a shell line inside the chroot)
  local out
  if out=$(in_root sh -c "mkdir -p -m 700 /tmp/runtime; cd /tmp; $2" 2>&1); then
    echo "ok    $1"; echo "$out" | head -12 | sed 's/^/      /'
  else
    echo "FAIL  $1"; echo "$out" | tail -20 | sed 's/^/      /'; failures=$((failures + 1))
  fi
}
sample=/usr/share/memviz/sample/sample_training_step.csv.gz
run "no library is missing (binary and Qt plugins)" \
  "! ldd /usr/bin/memviz /usr/bin/memviz-gui /usr/lib/x86_64-linux-gnu/qt6/plugins/*/*.so | grep 'not found'"
run "memviz --version" "memviz --version"
run "memviz summary on the installed sample" "memviz summary $sample"
run "memviz ops" "memviz ops $sample --limit 3"
run "memviz import, traces" "memviz import $sample --db /tmp/s.memviz >/dev/null && memviz traces /tmp/s.memviz"
run "memviz estimate" "memviz estimate --model resnet50 --batch 8"
run "memviz record a launched program (/proc sampling)" "memviz record --out /tmp/r.memviz --interval-ms 20 -- sleep 0.5"
run "memviz screenshot (offscreen platform plugin)" "memviz screenshot $sample --out /tmp/shot.png && ls -l /tmp/shot.png"
run "memviz screenshot --lang zh_CN" "memviz screenshot $sample --lang zh_CN --out /tmp/shot-zh.png"
run "memviz screenshot --whatif (QtSvg, QCustomPlot)" "memviz screenshot --whatif --model gpt2 --batch 4 --out /tmp/whatif.png"
run "/usr/bin/python3 -c 'import memviz_probe'" "/usr/bin/python3 -c 'import memviz_probe; print(memviz_probe.__file__)'"
run "/usr/bin/python3 -m memviz_probe --help" "/usr/bin/python3 -m memviz_probe --help"
if [ -n "$out" ]; then mkdir -p "$out" && cp "$target"/tmp/*.png "$out/" && echo "screenshots copied to $out"; fi

in_root apt-get purge -y -qq memviz >/dev/null
run "nothing of memviz is left after apt-get purge" \
  "! ls /usr/bin/memviz /usr/bin/memviz-gui /usr/share/memviz /usr/lib/python3/dist-packages/memviz_probe /usr/lib/python3/dist-packages/memviz_probe-*.dist-info 2>/dev/null | grep -q ."
in_root apt-get autoremove -y -qq --purge >/dev/null
echo "== clean install: $failures failure(s)"
[ "$failures" -eq 0 ]
