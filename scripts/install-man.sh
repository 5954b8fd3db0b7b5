#!/usr/bin/env bash
# Generates bufprobe(1) from the command's own help with swift-argument-parser's generate-manual plugin
# (works offline: the plugin ships with the swift-argument-parser checkout; it builds bufprobe in release
# mode and reads its --experimental-dump-help), then installs it under $PREFIX/share/man/man1.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${PREFIX:-/usr/local}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
swift package --allow-writing-to-directory "$out" generate-manual --output-directory "$out" >&2
install -d "$prefix/share/man/man1"
install -m 644 "$out/bufprobe.1" "$prefix/share/man/man1/bufprobe.1"
# Refresh the man database where there is one; man finds the page without it too.
if command -v mandb > /dev/null; then mandb -q "$prefix/share/man" 2> /dev/null || true; fi
echo "installed $prefix/share/man/man1/bufprobe.1 (man bufprobe)"
