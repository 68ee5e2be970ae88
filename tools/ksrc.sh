#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ksrc.sh [SERIES]
#
# Print the path of a full kernel source tree (for checkpatch.pl,
# kernel-doc and the sanitizer kernel). KSRC= wins when set and no SERIES
# is asked for; otherwise Debian's linux-source tarball (the newest one,
# or /usr/src/linux-source-SERIES.tar.xz, e.g. SERIES 6.12) is extracted
# once into ${UET_CACHE:-~/.cache/uet},
# outside the checkout. Extraction goes to a temporary directory that is
# renamed into place only when complete, so an interrupted run leaves no
# half tree behind.

set -euo pipefail

series=${1:-}

if [ -z "$series" ] && [ -n "${KSRC:-}" ]; then
	[ -f "$KSRC/Makefile" ] || { echo "uet: KSRC=$KSRC is no kernel tree" >&2; exit 1; }
	echo "$KSRC"
	exit 0
fi

cache=${UET_CACHE:-$HOME/.cache/uet}
if [ -n "$series" ]; then
	tarball=/usr/src/linux-source-$series.tar.xz
	[ -f "$tarball" ] || tarball=
else
	tarball=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1) || true
fi
if [ -z "$tarball" ]; then
	echo "uet: no /usr/src/linux-source-${series:-*}.tar.xz; run 'make deps'" >&2
	exit 1
fi
name=$(basename "$tarball" .tar.xz)
tree=$cache/$name

# The marker records which tarball the tree came from: a Debian point
# release (new size or mtime) means a fresh tree.
stamp=$(stat -c '%s %Y' "$tarball")
fresh()
{
	[ "$(cat "$tree/.uet-extracted" 2>/dev/null)" = "$stamp" ]
}

if fresh; then
	echo "$tree"
	exit 0
fi

mkdir -p "$cache"
# One extraction at a time; a second caller waits, then finds the tree.
exec 9>"$cache/.$name.lock"
flock 9
if fresh; then
	echo "$tree"
	exit 0
fi

echo "uet: extracting $tarball into $cache" >&2
tmp=$(mktemp -d "$cache/.$name.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tar -C "$tmp" -xJf "$tarball"
echo "$stamp" >"$tmp/$name/.uet-extracted"
rm -rf "$tree"
mv "$tmp/$name" "$tree"
echo "$tree"
