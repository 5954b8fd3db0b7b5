#!/usr/bin/env bash
# The test command: builds the package and its tests once, then runs `swift test` in SHARDS processes at
# once, each on its share of the suites, and prints every shard's output followed by one closing line,
# "tests: N passed, M failed". Exit status 0 only when every shard passed.
#
#   scripts/test.sh                 # SHARDS defaults to twice the number of cores
#   SHARDS=1 scripts/test.sh        # one `swift test` over everything, as plain `swift test` runs it
#   scripts/test.sh --measure       # time each suite alone and rewrite Tests/suite-seconds.tsv
#   SKIP_SUITES=WebPlayer scripts/test.sh   # leave out the suites whose names match (what do they add?)
#
# Why shards: most of the suite waits in real time (servers throttled to a rate, live playlists that grow
# every 2 s, players run for their clip's length), and Swift Testing runs test functions on the cooperative
# thread pool, which is as wide as the machine has cores; a test blocked on a process or a socket holds
# one of those threads. So one process runs two tests at a time on a 2-core machine while the CPU is mostly
# idle (one `swift test` used 147 CPU-s over 323 s). Separate processes each get their own pool. The tests
# share nothing across processes: every server binds a free port, every tmux server has its own socket,
# every temporary directory has a UUID, and FFmpeg's log sink, the one process-wide state, is per process.
#
# Suites are dealt to the shards longest first (by Tests/suite-seconds.tsv; a suite not listed there
# counts as the default below), each to the shard with the least work so far.
set -euo pipefail
cd "$(dirname "$0")/.."

weights=Tests/suite-seconds.tsv
default_weight=5

swift build --build-tests 2>&1

# Top-level suites, from the test identifiers `Module.Suite/test()` (nested suites go with their parent).
list=$(swift test list --skip-build)
suites=$(printf '%s\n' "$list" | awk -F/ 'NF > 1 { print $1 }' | sort -u)
# SKIP_SUITES: an extended regular expression; the suites it matches are left out (to measure what they
# add to the shards' time: run once with and once without). The closing line counts only what ran.
if [[ -n "${SKIP_SUITES:-}" ]]; then
    suites=$(printf '%s\n' "$suites" | grep -v -E -- "$SKIP_SUITES" || true)
    total_tests=$(printf '%s\n' "$list" | awk -F/ 'NF > 1 { print $1 }' | grep -c -v -E -- "$SKIP_SUITES" || true)
    echo "== leaving out the suites matching $SKIP_SUITES"
fi
total_tests=$(printf '%s\n' "$list" | grep -c /)

if [[ "${1:-}" == "--measure" ]]; then
    # .build/debug is a link to the triple's folder: the slash makes find look inside it.
    bundle=$(find .build/debug/ -maxdepth 1 -name '*PackageTests.xctest' | head -1)
    [[ -x "$bundle" ]] || { echo "test.sh: no test bundle under .build/debug/" >&2; exit 1; }
    measure_one() {
        local start end
        start=$(date +%s.%N)
        "$1" --testing-library swift-testing --filter "${2//./\\.}/" > /dev/null 2>&1 || echo "measure: $2 failed" >&2
        end=$(date +%s.%N)
        python3 -c "print(f'{$end - $start:.1f}\t$2')"
    }
    export -f measure_one
    {
        echo "# seconds	suite (each suite alone, three at a time: scripts/test.sh --measure)"
        printf '%s\n' "$suites" | xargs -P 3 -I{} bash -c 'measure_one "$0" "$1"' "$bundle" {} | sort -rn
    } > "$weights.new"
    mv "$weights.new" "$weights"
    echo "wrote $weights"
    exit 0
fi

shards=${SHARDS:-$(( 2 * $(nproc) ))}
(( shards >= 1 )) || shards=1
logs=$(mktemp -d "${TMPDIR:-/tmp}/bufprobe-tests-XXXXXX")
trap 'rm -rf "$logs"' EXIT

# Longest processing time first: each suite to the least loaded shard.
printf '%s\n' "$suites" | python3 -c '
import sys
weights_path, default, shards, out = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
weights = {}
for line in open(weights_path):
    if line.startswith("#") or not line.strip():
        continue
    seconds, suite = line.rstrip("\n").split("\t")
    weights[suite] = float(seconds)
suites = [s for s in sys.stdin.read().split() if s]
load = [0.0] * shards
chosen = [[] for _ in range(shards)]
for suite in sorted(suites, key=lambda s: (-weights.get(s, default), s)):
    k = load.index(min(load))
    load[k] += weights.get(suite, default)
    chosen[k].append(suite)
for k in range(shards):
    with open(f"{out}/shard-{k}.suites", "w") as f:
        f.write("".join(s + "\n" for s in chosen[k]))
' "$weights" "$default_weight" "$shards" "$logs"

started=$SECONDS
pids=()
for ((k = 0; k < shards; k++)); do
    filters=()
    while IFS= read -r suite; do
        [[ -n "$suite" ]] && filters+=(--filter "${suite//./\\.}/")
    done < "$logs/shard-$k.suites"
    if (( ${#filters[@]} == 0 )); then
        echo 0 > "$logs/shard-$k.status"
        continue
    fi
    # --ignore-lock: SwiftPM holds .build's lock for a whole command, so the shards would run one after
    # another; with --skip-build nothing is written there, so the lock protects nothing.
    ( set +e; swift test --skip-build --ignore-lock --disable-xctest "${filters[@]}" > "$logs/shard-$k.log" 2>&1; echo $? > "$logs/shard-$k.status"
      echo $(( SECONDS - started )) > "$logs/shard-$k.seconds" ) &
    pids+=($!)
done
wait "${pids[@]}" 2>/dev/null || true
# SwiftPM opens .build/build.db even with --skip-build; shards that start in the same instant on a loaded
# machine may find it locked and run nothing ("unable to attach DB"). Such a shard ran no test: run it again.
for ((k = 0; k < shards; k++)); do
    [[ -f "$logs/shard-$k.log" ]] || continue
    if grep -q "unable to attach DB" "$logs/shard-$k.log" && ! grep -q -E "Test run with [0-9]+ tests?" "$logs/shard-$k.log"; then
        filters=()
        while IFS= read -r suite; do
            [[ -n "$suite" ]] && filters+=(--filter "${suite//./\\.}/")
        done < "$logs/shard-$k.suites"
        echo "== shard $((k + 1)) could not open SwiftPM's build database and ran no test: running it again"
        ( set +e; swift test --skip-build --ignore-lock --disable-xctest "${filters[@]}" > "$logs/shard-$k.log" 2>&1; echo $? > "$logs/shard-$k.status"
          echo $(( SECONDS - started )) > "$logs/shard-$k.seconds" )
    fi
done

passed=0
failed=0
skipped=0
failed_shards=0
for ((k = 0; k < shards; k++)); do
    [[ -f "$logs/shard-$k.log" ]] || continue
    echo "== shard $((k + 1)) of $shards: $(wc -l < "$logs/shard-$k.suites") suites, exit $(cat "$logs/shard-$k.status") after $(cat "$logs/shard-$k.seconds") s"
    cat "$logs/shard-$k.log"
    ran=$(sed -n -E 's/.*Test run with ([0-9]+) tests? in .*/\1/p' "$logs/shard-$k.log" | tail -1)
    # Each failed test once, by name: its "failed after" line, or any issue it recorded (a parallel test's
    # output may share the line, so neither is anchored to the line's start).
    broken=$(grep -E '✘ Test ".*" .*(failed after|recorded an issue)' "$logs/shard-$k.log" | grep -o -E '✘ Test "[^"]*"' | sort -u | wc -l || true)
    if [[ -z "$ran" ]]; then
        # No closing line: the process died (a crash, a signal); none of its tests counts as passed.
        echo "== shard $((k + 1)) ended without a closing line (exit $(cat "$logs/shard-$k.status"))"
        ran=$(grep -c -E "^($(sed 's/\./\\./g' "$logs/shard-$k.suites" | paste -sd'|'))/" <<< "$list" || true)
        broken=$ran
    fi
    # A test skipped by its condition (`.enabled(if:)`) is in the count but did not pass.
    missed=$(grep -c -E '^[^ ]+ Test ".*" skipped' "$logs/shard-$k.log" || true)
    (( broken < ran )) || missed=0
    skipped=$(( skipped + missed ))
    passed=$(( passed + ran - broken - missed ))
    failed=$(( failed + broken ))
    [[ "$(cat "$logs/shard-$k.status")" == 0 ]] || failed_shards=$(( failed_shards + 1 ))
done
# CI may keep only the end of this output: name each failed test again here, with the issues it recorded
# (the first lines of each), so the closing lines say what broke without the shard's whole log.
for ((k = 0; k < shards; k++)); do
    [[ -f "$logs/shard-$k.log" ]] || continue
    { grep -o -E '✘ Test "[^"]*"' "$logs/shard-$k.log" || true; } | sort -u | while IFS= read -r name; do
        echo "== failed in shard $((k + 1)): ${name#✘ Test }"
        { grep -A2 -F -- "$name recorded an issue" "$logs/shard-$k.log" || true; } | head -12 | cut -c1-600 | sed 's/^/     /'
    done
    if ! grep -q -E "Test run with [0-9]+ tests?" "$logs/shard-$k.log"; then
        echo "== shard $((k + 1)) died (exit $(cat "$logs/shard-$k.status")); its last lines:"
        tail -15 "$logs/shard-$k.log" | cut -c1-600 | sed 's/^/     /'
    fi
done
echo "== $shards shards, $(( SECONDS - started )) s; $total_tests tests listed"
if (( skipped > 0 )); then
    echo "tests: $passed passed, $failed failed, $skipped skipped"
else
    echo "tests: $passed passed, $failed failed"
fi
(( failed_shards == 0 && failed == 0 && passed + skipped == total_tests ))
