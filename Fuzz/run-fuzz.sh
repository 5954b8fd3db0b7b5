#!/usr/bin/env bash
# Builds the probe path's libFuzzer target under AddressSanitizer (LeakSanitizer included) and runs a
# FIXED number of inputs from the committed corpus: any crash, sanitizer report, leak, timeout or
# out-of-memory fails the run. Prints one summary line. See Fuzz/README.md.
#
# Usage: Fuzz/run-fuzz.sh [--runs N] [--merge] [-- libFuzzer options...]
#   --runs N   inputs to execute after the corpus (default 5000, a few minutes on 2 cores: CI's figure)
#   --merge    afterwards, minimise what this run found interesting into Fuzz/seeds/found/ (-merge=1)
# The corpus: Fuzz/seeds/ (made by Fuzz/make-seeds.sh), Fuzz/seeds/found/ (found by earlier runs) and
# Fuzz/crashers/ (inputs that once crashed: regression inputs that must now pass).
set -euo pipefail
cd "$(dirname "$0")/.."

runs=5000
merge=false
extra=()
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs="$2"; shift 2 ;;
        --merge) merge=true; shift ;;
        --) shift; extra=("$@"); break ;;
        *) echo "usage: Fuzz/run-fuzz.sh [--runs N] [--merge] [-- libFuzzer options...]" >&2; exit 64 ;;
    esac
done

scratch=.build/fuzz
started=$(date +%s)
echo "fuzz: building bufprobe-fuzz with -sanitize=fuzzer,address"
# The fuzz target is in the manifest only with BUFPROBE_FUZZ set; its own build directory keeps the
# sanitized objects apart from the normal build. lld: gold warns about every ASan helper symbol.
BUFPROBE_FUZZ=1 swift build --scratch-path "$scratch" --product bufprobe-fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld 2>&1 | grep -v '^\[' || true
binary="$scratch/debug/bufprobe-fuzz"
[ -x "$binary" ] || { echo "fuzz: FAILED: the fuzz target did not build" >&2; exit 1; }
built=$(date +%s)

work="$scratch/run"
rm -rf "$work"
mkdir -p "$work/corpus" "$work/artifacts" Fuzz/seeds/found Fuzz/crashers
log="$work/fuzz.log"

# Swift's own backtracer would race ASan for the crash report: libFuzzer's handler prints the stack.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1:${ASAN_OPTIONS:-}"
symbolizer=$(dirname "$(command -v swift)")/llvm-symbolizer
[ -x "$symbolizer" ] && export ASAN_SYMBOLIZER_PATH="$symbolizer"

echo "fuzz: running $runs inputs, the corpus first (log: $log)"
status=0
# New inputs go to the first directory, a scratch one: the committed corpus changes only with --merge.
# libFuzzer reads directories recursively: Fuzz/seeds includes Fuzz/seeds/found.
# -seed fixes the mutations, so a CI failure reproduces; 30 s per input is a hang, 2 GB an OOM.
"$binary" -runs="$runs" -seed=1 -max_len=32768 -timeout=30 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/" "${extra[@]}" \
    "$work/corpus" Fuzz/seeds Fuzz/crashers >"$log" 2>&1 || status=$?
finished=$(date +%s)

executed=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
peak=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
coverage=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
crashes=$(find "$work/artifacts" -type f | wc -l)
leaks=$(grep -c 'ERROR: LeakSanitizer' "$log" || true)
asan=$(grep -c 'ERROR: AddressSanitizer' "$log" || true)

if [ "$status" -ne 0 ] || [ "$crashes" -ne 0 ] || [ "$leaks" -ne 0 ] || [ "$asan" -ne 0 ]; then
    echo "---- the end of $log:"
    tail -60 "$log"
    echo "----"
    for artifact in "$work"/artifacts/*; do [ -e "$artifact" ] && echo "fuzz: reproducer: $artifact ($(stat -c %s "$artifact") bytes): $binary $artifact"; done
    echo "fuzz: FAILED: ${executed:-?} inputs, exit $status, $crashes crash artifact(s), $asan AddressSanitizer and $leaks LeakSanitizer report(s)"
    exit 1
fi

if $merge; then
    merged="$work/merged"
    mkdir -p "$merged"
    # The hand-made seeds go in first, so only what adds coverage beyond them (from earlier finds and
    # this run) is added; -set_cover_merge keeps a small set of small files. Added files are named by
    # their SHA-1, the seeds keep their names.
    cp Fuzz/seeds/*.* "$merged/"
    "$binary" -set_cover_merge=1 -max_len=32768 -timeout=30 "$merged" Fuzz/seeds/found "$work/corpus" \
        >"$work/merge.log" 2>&1
    rm -rf Fuzz/seeds/found && mkdir -p Fuzz/seeds/found
    for f in "$merged"/*; do
        [ -e "Fuzz/seeds/$(basename "$f")" ] || cp "$f" Fuzz/seeds/found/
    done
    echo "fuzz: Fuzz/seeds/found: $(find Fuzz/seeds/found -type f | wc -l) inputs, $(du -sb Fuzz/seeds/found | cut -f1) bytes"
fi

echo "fuzz: passed: ${executed:-?} inputs (the corpus, then mutations), 0 crashes, 0 AddressSanitizer reports," \
    "0 leaks (LeakSanitizer on); coverage $coverage, peak RSS ${peak:-?} MB;" \
    "build $((built - started)) s, run $((finished - built)) s"
