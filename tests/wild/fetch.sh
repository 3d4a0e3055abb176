#!/bin/bash
# SPDX-License-Identifier: MIT
# Re-creates the wild corpus's files (tests/wild/MANIFEST.tsv) in a folder outside git.
#
#   tests/wild/fetch.sh [DIR]      (default: ${XDG_CACHE_HOME:-~/.cache}/memviz/wild)
#
# MEMVIZ_GIT_MIRRORS=FOLDER names a folder of local git mirrors, one per repository, named
# <owner>+<name> (a bare repository, or a clone with its .git, or either under <owner>+<name>/repo).
#
# For each manifest row (the "shared:" rows are the files of ../shared/fixtures and are skipped):
#   1. from the local git mirror of the row's repository when there is one: git show COMMIT:PATH;
#   2. else by curl from https://raw.githubusercontent.com/<owner>/<name>/<commit>/<path>
#      (a machine with internet);
# then checks the SHA-256. A file already present with the right SHA-256 is kept.
# Exit status: 0 when every row is present and verified, 1 otherwise (the missing are listed).
set -u
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/memviz/wild}
mirrors=${MEMVIZ_GIT_MIRRORS:-}
mkdir -p "$dir"
ok=0; missing=0; bad=0
while IFS=$'\t' read -r name kind repo commit path size sha licence version description; do
  [ "$name" = name ] && continue
  case "$name" in shared:*|'#'*|'') continue ;; esac
  out="$dir/$name"
  if [ -f "$out" ] && [ "$(sha256sum "$out" | cut -c1-64)" = "$sha" ]; then ok=$((ok + 1)); continue; fi
  tmp="$out.part"; rm -f "$tmp"
  mirror=""
  if [ -n "$mirrors" ]; then
    for m in "$mirrors/${repo/\//+}/repo/.git" "$mirrors/${repo/\//+}/repo" "$mirrors/${repo/\//+}/.git" "$mirrors/${repo/\//+}"; do
      [ -d "$m" ] && { mirror=$m; break; }
    done
  fi
  if [ -n "$mirror" ] && git --git-dir "$mirror" cat-file -e "$commit:$path" 2>/dev/null; then
    git --git-dir "$mirror" show "$commit:$path" > "$tmp"
  elif command -v curl >/dev/null; then
    curl -fsSL --retry 2 -o "$tmp" "https://raw.githubusercontent.com/$repo/$commit/$path" 2>/dev/null || rm -f "$tmp"
  fi
  if [ ! -s "$tmp" ]; then
    echo "missing: $name ($repo@$commit:$path)"; missing=$((missing + 1)); rm -f "$tmp"; continue
  fi
  if [ "$(sha256sum "$tmp" | cut -c1-64)" != "$sha" ]; then
    echo "SHA-256 differs: $name"; bad=$((bad + 1)); rm -f "$tmp"; continue
  fi
  mv "$tmp" "$out"; ok=$((ok + 1))
done < "$here/MANIFEST.tsv"
echo "fetch.sh: $ok present and verified, $missing missing, $bad with a wrong SHA-256 in $dir"
[ $missing -eq 0 ] && [ $bad -eq 0 ]
