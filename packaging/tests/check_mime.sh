#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks packaging/memviz-mime.xml and memviz.desktop on real files: a store written by memviz,
# recordings written by the real heaptrack and valgrind --tool=massif, profiler trace names,
# and a plain SQLite database that must NOT be taken for a store. Each file's type is asked
# of both readers of the shared-mime-info database: GLib (gio, as GNOME's file manager) and
# Qt (QMimeDatabase, as KDE and memviz's own dialogs), from a scratch XDG data folder that
# holds the system's MIME types, ours and our desktop file. Then xdg-mime must name memviz.desktop as the default
# application for every type.
# usage: check_mime.sh MEMVIZ MIME_TYPE_OF PACKAGING_DIR SAMPLE_TRACE
set -euo pipefail
memviz=$(readlink -f "$1") qt_mime=$(readlink -f "$2") packaging=$(readlink -f "$3") sample=$(readlink -f "$4")
for tool in gio update-mime-database update-desktop-database xdg-mime heaptrack valgrind zstd gzip python3; do
  command -v "$tool" >/dev/null || { echo "FAIL: $tool is not installed (packaging/install-deps.sh)"; exit 1; }
done

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
data=$scratch/data files=$scratch/files
mkdir -p "$data/mime/packages" "$data/applications" "$files"
# One database with the system's types and ours, as on a machine with the package installed
# (Qt takes the magic of the last database that matches, so a second one would not do).
cp /usr/share/mime/packages/*.xml "$data/mime/packages/"
cp "$packaging/memviz-mime.xml" "$data/mime/packages/memviz.xml"
cp "$packaging/memviz.desktop" "$data/applications/"
update-mime-database "$data/mime" >/dev/null 2>&1
update-desktop-database "$data/applications"
export XDG_DATA_HOME=$data XDG_DATA_DIRS=$data XDG_CONFIG_HOME=$scratch/config
export XDG_RUNTIME_DIR=$scratch/runtime XDG_CACHE_HOME=$scratch/cache
export XDG_CURRENT_DESKTOP=X-Generic  # xdg-mime reads the XDG files, not a desktop's own settings
mkdir -m 700 "$XDG_RUNTIME_DIR"
cd "$files"

# The files.
"$memviz" import "$sample" --db run.memviz >/dev/null
cp run.memviz store-without-extension
python3 - <<'EOF'
import sqlite3
db = sqlite3.connect("other-sqlite-database")
db.execute("CREATE TABLE traces (id INTEGER)")  # even a table of the same name
db.execute("PRAGMA user_version = 5")
db.commit()
EOF
printf '{"schemaVersion": 1, "traceEvents": []}\n' > worker0.1623143089861.pt.trace.json
gzip -9 -n -c worker0.1623143089861.pt.trace.json > worker0.1623143089861.pt.trace.json.gz
heaptrack -o "$files/heaptrack.true.1" /bin/true >/dev/null 2>&1
[ -f heaptrack.true.1.zst ] || { echo "FAIL: heaptrack wrote no .zst (is zstd installed?): $(ls)"; exit 1; }
zstd -q -d -c heaptrack.true.1.zst | gzip -n > heaptrack.true.2.gz
valgrind --tool=massif --massif-out-file="$files/massif.out.4242" /bin/true >/dev/null 2>&1
cp massif.out.4242 massif-without-its-name

status=0
# expect FILE GLIB_TYPE QT_TYPE
expect() {
  local file=$1 want_glib=$2 want_qt=$3 glib qt
  glib=$(gio info -a standard::content-type "$file" | sed -n 's/^ *standard::content-type: //p')
  qt=$("$qt_mime" "$file")
  if [[ "$glib" =~ ^($want_glib)$ ]] && [ "$qt" = "$want_qt" ]; then
    printf 'ok    %-42s glib %-44s qt %s\n' "$file" "$glib" "$qt"
  else
    printf 'FAIL  %-42s glib %-44s qt %s (expected glib %s, qt %s)\n' "$file" "$glib" "$qt" "$want_glib" "$want_qt"
    status=1
  fi
}
expect run.memviz application/x-memviz application/x-memviz
# By content alone: the SQLite header and PRAGMA application_id "mviz" at byte 68.
expect store-without-extension application/x-memviz application/x-memviz
expect other-sqlite-database application/vnd.sqlite3 application/vnd.sqlite3
expect worker0.1623143089861.pt.trace.json application/x-pytorch-profiler-trace application/x-pytorch-profiler-trace
expect worker0.1623143089861.pt.trace.json.gz application/x-pytorch-profiler-trace-gzip application/x-pytorch-profiler-trace-gzip
# heaptrack's files are compressed from the first byte, so only their names tell; but GLib,
# Qt (and Perl's File::MimeInfo) try a glob with a wildcard inside (heaptrack.*.zst) only when
# no plain suffix glob (*.zst) matched, whatever its weight: all of them see the compression
# format. This checks that the files are at least that, and nothing worse.
expect heaptrack.true.1.zst 'application/x-heaptrack-zstd|application/zstd' application/zstd
expect heaptrack.true.2.gz 'application/x-heaptrack-gzip|application/gzip' application/gzip
expect massif.out.4242 application/x-valgrind-massif application/x-valgrind-massif
# By content alone: "desc:", then "cmd:" and "time_unit:" lines.
expect massif-without-its-name application/x-valgrind-massif application/x-valgrind-massif

for type in $(sed -n 's/^MimeType=//p' "$packaging/memviz.desktop" | tr ';' ' '); do
  default=$(xdg-mime query default "$type")
  if [ "$default" = memviz.desktop ]; then
    echo "ok    xdg-mime query default $type: $default"
  else
    echo "FAIL  xdg-mime query default $type: '$default' (expected memviz.desktop)"; status=1
  fi
  grep -q "type=\"$type\"" "$packaging/memviz-mime.xml" || { echo "FAIL  $type is not in memviz-mime.xml"; status=1; }
done
exit $status
