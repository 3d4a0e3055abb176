#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The package stage of CI (packaging/dev.sh test): installs the built .deb on this machine with
# apt-get, as a user would, checks what got installed, then removes it again.
#   - the files are where Debian expects them, the binary is stripped and its symbols are in
#     the -dbgsym file (same build id);
#   - the installed desktop entry, metainfo and MIME XML pass desktop-file-validate,
#     appstreamcli validate and update-mime-database;
#   - the installed memviz runs: --version, summary of the installed sample (its peak must
#     equal the standard-library oracle's), an offscreen screenshot;
#   - man -w memviz, xdg-mime query default application/x-memviz, gio on a store,
#     the probe package for /usr/bin/python3: python3 -m memviz_probe --help, and pytest --help
#     lists the pytest plugin's options (found through the .dist-info's entry points);
#   - after removal nothing of it is left behind.
# Runs as root or through sudo. Refuses to touch a memviz that is already installed.
# usage: check-package.sh PATH/memviz_VERSION_ARCH.deb
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
deb=$(readlink -f "${1:?usage: check-package.sh memviz_VERSION_ARCH.deb}")
debdir=$(dirname "$deb")
dbgsym=$(ls "$debdir"/memviz-dbgsym_*.ddeb 2>/dev/null | head -1 || true)
started=$(date +%s)

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "memviz: the package check needs root or sudo (MEMVIZ_PACKAGE_CHECK=0 skips it)" >&2; exit 1; }
  sudo="sudo"
fi
if dpkg-query -W -f='${Status}' memviz 2>/dev/null | grep -q "install ok installed"; then
  echo "memviz: a memviz package is already installed here; the check would replace and then remove it." >&2
  echo "        Remove it first, or skip the check with MEMVIZ_PACKAGE_CHECK=0." >&2
  exit 1
fi

apt_get() { $sudo env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 -y -q "$@"; }
installed=0
cleanup() { if [ "$installed" = 1 ]; then apt_get purge memviz >/dev/null || true; fi; rm -rf "$scratch"; }
scratch=$(mktemp -d)
trap cleanup EXIT
failures=0
check() { # check DESCRIPTION COMMAND...: runs it, prints ok or FAIL with its output
  local what=$1 out; shift
  if out=$("$@" 2>&1); then echo "ok    $what"; else echo "FAIL  $what"; echo "$out" | sed 's/^/      /'; failures=$((failures + 1)); fi
}

echo "== $(basename "$deb"): $(du -h "$deb" | cut -f1)${dbgsym:+, $(basename "$dbgsym"): $(du -h "$dbgsym" | cut -f1)}"
echo "Depends: $(dpkg-deb --field "$deb" Depends)"

echo "== apt-get install ./$(basename "$deb")"
(cd "$debdir" && apt_get install --no-install-recommends "./$(basename "$deb")" >"$scratch/apt.log" 2>&1) \
  || { cat "$scratch/apt.log"; echo "FAIL  apt-get install"; exit 1; }
installed=1
grep -E "^(Setting up|Processing triggers)" "$scratch/apt.log" | sed 's/^/      /'

echo "== the installed files"
for f in /usr/bin/memviz /usr/bin/memviz-gui /usr/share/applications/memviz.desktop /usr/share/metainfo/io.github.memviz.metainfo.xml \
         /usr/share/mime/packages/memviz.xml /usr/share/icons/hicolor/scalable/apps/memviz.svg \
         /usr/share/man/man1/memviz.1.gz /usr/lib/python3/dist-packages/memviz_probe/__init__.py \
         /usr/lib/python3/dist-packages/memviz_probe/pytest.py \
         /usr/lib/python3/dist-packages/memviz_probe-*.dist-info/entry_points.txt \
         /usr/share/memviz/python/memviz_probe/__init__.py /usr/share/memviz/sample/sample_training_step.csv.gz \
         /usr/share/doc/memviz/copyright /usr/share/doc/memviz/LICENSE /usr/share/doc/memviz/README.md \
         /usr/share/doc/memviz/docs/cli.md; do
  check "$f" bash -c "test -s $f"
done
for size in 16 22 24 32 48 64 128 256; do
  check "icon ${size}x${size}" bash -c "file /usr/share/icons/hicolor/${size}x${size}/apps/memviz.png | grep -q 'PNG image data, $size x $size'"
done
check "/usr/bin/memviz is stripped" bash -c "file -L /usr/bin/memviz | grep -q ', stripped'"
check "/usr/bin/memviz-gui is stripped" bash -c "file -L /usr/bin/memviz-gui | grep -q ', stripped'"
check "/usr/bin/memviz loads no Qt GUI library" bash -c "! ldd /usr/bin/memviz | grep -q -E 'Qt6(Gui|Widgets)'"
build_id=$(file -L /usr/bin/memviz | sed -n 's/.*BuildID\[sha1\]=\([0-9a-f]*\).*/\1/p')
check "the -dbgsym file has the symbols of build id $build_id" \
  bash -c "[ -n '$dbgsym' ] && dpkg-deb -c '$dbgsym' | grep -q '/usr/lib/debug/.build-id/${build_id:0:2}/${build_id:2}.debug'"
gui_build_id=$(file -L /usr/bin/memviz-gui | sed -n 's/.*BuildID\[sha1\]=\([0-9a-f]*\).*/\1/p')
check "the -dbgsym file has the symbols of memviz-gui (build id $gui_build_id)" \
  bash -c "[ -n '$dbgsym' ] && dpkg-deb -c '$dbgsym' | grep -q '/usr/lib/debug/.build-id/${gui_build_id:0:2}/${gui_build_id:2}.debug'"

echo "== validators on the installed files"
check "desktop entry, metainfo, MIME XML" bash "$root/packaging/tests/validate_desktop_files.sh" \
  /usr/share/applications/memviz.desktop /usr/share/metainfo/io.github.memviz.metainfo.xml /usr/share/mime/packages/memviz.xml

echo "== the installed memviz"
export QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR=$scratch/runtime XDG_CONFIG_HOME=$scratch/config XDG_CACHE_HOME=$scratch/cache XDG_DATA_HOME=$scratch/data
export XDG_CURRENT_DESKTOP=X-Generic  # xdg-mime reads the XDG files, not a desktop's own settings
mkdir -m 700 "$XDG_RUNTIME_DIR"
cd "$scratch"
version=$(dpkg-deb --field "$deb" Version)
check "memviz --version says $version" bash -c "[ \"\$(/usr/bin/memviz --version)\" = 'memviz $version' ]"
sample=/usr/share/memviz/sample/sample_training_step.csv.gz
/usr/bin/memviz summary "$sample" | sed 's/^/      /' || true
check "memviz summary of the installed sample: the oracle's peak" python3 - "$sample" "$root/tests/oracles/alloclog_summary.py" <<'EOF'
import json, subprocess, sys
sample, oracle = sys.argv[1:]
ours = json.loads(subprocess.run(["/usr/bin/memviz", "summary", sample, "--json"], check=True, capture_output=True, text=True).stdout)
want = json.loads(subprocess.run([sys.executable, oracle, sample], check=True, capture_output=True, text=True).stdout)
got = {d["device"]: (d["peak_bytes"], d["events"], d["final_bytes"]) for d in ours["devices"]}
exp = {d["device"]: (d["peak_bytes"], d["events"], d["final_bytes"]) for d in want["devices"]}
print("memviz:", got, "oracle:", exp)
sys.exit(0 if got == exp else 1)
EOF
check "memviz screenshot (offscreen) writes a 1400x900 PNG" bash -c \
  "/usr/bin/memviz screenshot $sample --out shot.png >/dev/null 2>&1 && file shot.png | grep -q 'PNG image data, 1400 x 900'"
check "memviz screenshot --lang zh_CN (translations in the binary)" bash -c \
  "/usr/bin/memviz screenshot $sample --lang zh_CN --out shot-zh.png >/dev/null 2>&1 && test -s shot-zh.png"
check "man -w memviz" bash -c "[ \"\$(man -w memviz)\" = /usr/share/man/man1/memviz.1.gz ]"
check "xdg-mime query default application/x-memviz" bash -c "[ \"\$(xdg-mime query default application/x-memviz)\" = memviz.desktop ]"
/usr/bin/memviz import "$sample" --db run.memviz >/dev/null
cp run.memviz store-without-extension
check "gio: a store, even without its extension, is application/x-memviz" bash -c \
  "for f in run.memviz store-without-extension; do gio info -a standard::content-type \$f | grep -q 'content-type: application/x-memviz' || exit 1; done"
check "/usr/bin/python3 -c 'import memviz_probe' (from dist-packages)" bash -c \
  "[ \"\$(cd / && /usr/bin/python3 -c 'import memviz_probe; print(memviz_probe.__file__)')\" = /usr/lib/python3/dist-packages/memviz_probe/__init__.py ]"
check "/usr/bin/python3 -m memviz_probe --help" bash -c \
  "cd / && /usr/bin/python3 -m memviz_probe --help | grep -q 'usage: python3 -m memviz_probe'"
check "the probe's metadata: version $version, the pytest11 entry point" bash -c \
  "cd / && /usr/bin/python3 -c \"import importlib.metadata as m, sys; d = m.distribution('memviz-probe'); eps = [e.value for e in d.entry_points if e.group == 'pytest11']; sys.exit(0 if d.version == '$version' and eps == ['memviz_probe.pytest'] else 1)\""
if /usr/bin/python3 -c 'import pytest' 2>/dev/null; then
  check "pytest --help lists the plugin's options (found through its entry point)" bash -c \
    "cd '$scratch' && /usr/bin/python3 -m pytest --help | grep -q -- '--memviz-record=DIR' && /usr/bin/python3 -m pytest --markers | grep -q '@pytest.mark.memory_budget'"
else
  echo "FAIL  pytest is not installed (python3-pytest, packaging/install-deps.sh): the plugin was not checked"
  failures=$((failures + 1))
fi

echo "== apt-get purge memviz"
apt_get purge memviz >"$scratch/apt.log" 2>&1 || { cat "$scratch/apt.log"; echo "FAIL  apt-get purge"; exit 1; }
installed=0
check "nothing of memviz is left" bash -c "! dpkg-query -W memviz 2>/dev/null | grep -q . ; ! ls /usr/bin/memviz /usr/bin/memviz-gui /usr/share/memviz /usr/share/doc/memviz /usr/share/mime/packages/memviz.xml /usr/lib/python3/dist-packages/memviz_probe /usr/lib/python3/dist-packages/memviz_probe-*.dist-info 2>/dev/null | grep -q ."
check "xdg-mime no longer names memviz.desktop" bash -c "[ \"\$(xdg-mime query default application/x-memviz)\" != memviz.desktop ]"

echo "== package stage: $((failures)) failure(s), $(( $(date +%s) - started )) s"
[ "$failures" -eq 0 ]
