#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Validates the desktop entry, the AppStream metainfo and the shared-mime-info XML with the
# tools distributions use: desktop-file-validate, appstreamcli validate (--no-net: CI has no
# internet, so the screenshot URLs are not fetched) and update-mime-database (into a scratch
# folder, failing on any message it prints about the file).
# usage: validate_desktop_files.sh DESKTOP_FILE METAINFO_FILE MIME_XML
set -euo pipefail
desktop=$1 metainfo=$2 mime=$3
status=0

echo "== desktop-file-validate $desktop"
if ! out=$(desktop-file-validate "$desktop" 2>&1) || [ -n "$out" ]; then
  echo "$out"; echo "FAIL: desktop-file-validate"; status=1
else
  echo "ok"
fi

echo "== appstreamcli validate --pedantic --no-net $metainfo"
if ! appstreamcli validate --pedantic --no-net "$metainfo"; then
  echo "FAIL: appstreamcli validate"; status=1
fi

echo "== update-mime-database with $mime"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/mime/packages"
cp "$mime" "$scratch/mime/packages/memviz.xml"
# It prints a note that the scratch folder is not on XDG_DATA_DIRS; anything else is a problem.
out=$(update-mime-database "$scratch/mime" 2>&1 | grep -v -e "^$" -e "is not in the search path" \
      -e "XDG_DATA_HOME and XDG_DATA_DIRS" -e "environment variables, so" -e "be able to find it" \
      -e "directories currently searched" -e "^- /" -e "^Updating MIME database" -e "^Note that" || true)
types=$(grep -c "^application/x-" "$scratch/mime/types" || true)
if [ -n "$out" ] || [ "$types" -lt 1 ]; then
  echo "$out"; echo "FAIL: update-mime-database (types registered: $types)"; status=1
else
  echo "ok: $types types ($(grep "^application/x-" "$scratch/mime/types" | tr '\n' ' '))"
fi
exit $status
