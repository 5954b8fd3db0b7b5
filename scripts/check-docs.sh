#!/usr/bin/env bash
# Builds the DocC documentation of the library targets (swift-docc-plugin's generate-documentation) and
# fails on any DocC warning: an unresolved symbol link, a topic that names nothing, a malformed doc comment.
# Usage: scripts/check-docs.sh [TARGET...]   (default: every library target that has a DocC catalog)
# The archives are left in .build/plugins/Swift-DocC/outputs/TARGET.doccarchive.
set -euo pipefail
cd "$(dirname "$0")/.."

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    for catalog in Sources/*/*.docc; do
        targets+=("$(basename "$(dirname "$catalog")")")
    done
fi
args=()
for t in "${targets[@]}"; do args+=(--target "$t"); done

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
# --warnings-as-errors makes docc itself fail. The plugin prints docc's diagnostics as lines starting with
# `warning:` or `error:` after "Building documentation for ..."; SwiftPM's own warnings about dependencies'
# files come before that and are not ours. Both the exit status and the count decide.
swift package generate-documentation "${args[@]}" --warnings-as-errors >"$log" 2>&1 || status=$?
ours=$(awk '/^Building documentation for /{docc=1} docc && /^(warning|error): /' "$log")
if [ "$status" -ne 0 ] || [ -n "$ours" ]; then
    cat "$log"
    echo "check-docs: FAILED (exit $status) for ${targets[*]}" >&2
    [ -n "$ours" ] && echo "check-docs: $(printf '%s\n' "$ours" | wc -l) DocC diagnostic(s) above" >&2
    exit 1
fi
grep -E "Generated documentation archive|Finished building documentation" "$log" || true
echo "check-docs: ${targets[*]}: no DocC warnings"
