#!/usr/bin/env python3
"""`bufprobe simulate --abr` beside Sabre (UMass-LIDS/sabre, src/sabre.py) on the same ladders and
traces, segment by segment. Driven by Benchmarks/sabre-compare.sh; commits and copies no Sabre file.

Ladders: real H.264 segments made here by ffmpeg (HLS, MPEG-TS, keyframes every segment), 4 variants of 3 s
and 3 variants of 2 s segments, 4 minutes each. Sabre reads a manifest of their sizes in bits; bufprobe reads
the HLS master. Traces (19): Sabre's example/network.json, 7 of its mmsys18 3G logs and 7 of its 4G logs,
bufprobe's samples/traces (sabre-4g.json, 3g-hsdpa.txt as Sabre JSON with 0 ms latency), and two constant
links (2 Mbit/s 50 ms, 1 Mbit/s 150 ms). Both tools read the same Sabre JSON trace, looped.

Buffers aligned: Sabre with `-b B` requests a segment once the buffer is at most B - d; bufprobe requests
below --max-buffer, so --max-buffer is B - d, and BOLA's buffer size --bola-target is B. Sabre starts and
resumes playing when a segment arrives; bufprobe's start (1 s) and resume (2 s) thresholds are under a
segment. Abandonment off on both sides (Sabre -noa, no --abandon).

A run agrees when at least 95 % of its segments got Sabre's variant.
"""
import json, math, os, re, subprocess, sys

SEGMENT_RE = re.compile(r"^\[\d+-\d+\]\s+(\d+): q=(\d+)")

LADDERS = {
    # name: (segment seconds, kbit/s ascending, width x height)
    "l4x3s": (3, [300, 750, 1500, 3000], "640x360"),
    "l3x2s": (2, [400, 1000, 2500], "640x360"),
}
DURATION = 240
BUFFER = 25  # Sabre's default -b

RULES = [
    # name, Sabre arguments, bufprobe arguments
    ("throughput", ["-a", "throughput", "-ma", "sliding", "-noibr"], ["--abr", "throughput"]),
    ("throughput ewma+ibr", ["-a", "throughput"],
     ["--abr", "throughput", "--abr-estimator", "ewma", "--abr-insufficient-buffer"]),
    ("bola", ["-a", "bola", "-ma", "sliding"], ["--abr", "bola"]),
    ("bola ewma", ["-a", "bola"], ["--abr", "bola", "--abr-estimator", "ewma"]),
    # Not the same rule on purpose: Sabre's --abr-basic drops only the start/end buffer sizing and keeps the
    # up-switch cap (Bola.get_quality_delay applies it in both modes); --bola-variant basic is the paper's
    # BOLA-BASIC, the formula alone. Shown to measure what the cap changes, not counted as agreement.
    # Sabre's `Dynamic` (sabre.py, class Dynamic): its `Bola` and `ThroughputRule` both asked at every choice,
    # BOLA's taken above 10 s buffered when it picks at least throughput's, throughput's below 10 s when it
    # picks more. Not `dynamicdash` (BolaEnh, thresholds 10 s / 5 s).
    ("dynamic", ["-a", "dynamic", "-ma", "sliding", "-noibr"], ["--abr", "dynamic"]),
    ("dynamic ewma+ibr", ["-a", "dynamic"],
     ["--abr", "dynamic", "--abr-estimator", "ewma", "--abr-insufficient-buffer"]),
    ("bola basic (differs)", ["-a", "bola", "-ab", "-ma", "sliding"], ["--abr", "bola", "--bola-variant", "basic"]),
]


def run(command, **kwargs):
    return subprocess.run(command, check=True, capture_output=True, text=True, **kwargs).stdout


def make_ladder(out, name):
    seconds, rates, size = LADDERS[name]
    directory = os.path.join(out, name)
    master = os.path.join(directory, "master.m3u8")
    manifest = os.path.join(directory, "sabre-movie.json")
    if os.path.exists(manifest):
        return master, manifest
    os.makedirs(directory, exist_ok=True)
    fps = 30
    sizes = []
    for index, rate in enumerate(rates):
        # Noise over the test pattern, changing strength over time, so the segments' sizes vary as real
        # content's do around the declared rate.
        source = (f"testsrc2=size={size}:rate={fps}:duration={DURATION},"
                  f"noise=alls=12:allf=t,hue=s='1+0.5*sin(t/7)'")
        run(["ffmpeg", "-hide_banner", "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", source,
             "-c:v", "libx264", "-preset", "ultrafast", "-b:v", f"{rate}k", "-maxrate", f"{int(rate * 1.5)}k",
             "-bufsize", f"{rate * 2}k", "-g", str(seconds * fps), "-keyint_min", str(seconds * fps),
             "-sc_threshold", "0", "-pix_fmt", "yuv420p", "-f", "hls", "-hls_time", str(seconds),
             "-hls_playlist_type", "vod", "-hls_segment_filename", os.path.join(directory, f"v{index}_%03d.ts"),
             os.path.join(directory, f"v{index}.m3u8")])
        playlist = open(os.path.join(directory, f"v{index}.m3u8")).read().split("\n")
        files = [line for line in playlist if line.endswith(".ts")]
        sizes.append([os.path.getsize(os.path.join(directory, f)) * 8 for f in files])
    count = min(len(s) for s in sizes)
    with open(master, "w") as f:
        f.write("#EXTM3U\n")
        for index, rate in enumerate(rates):
            f.write(f"#EXT-X-STREAM-INF:BANDWIDTH={rate * 1000}\nv{index}.m3u8\n")
    with open(manifest, "w") as f:
        json.dump({"segment_duration_ms": seconds * 1000, "bitrates_kbps": rates,
                   "segment_sizes_bits": [[sizes[v][k] for v in range(len(rates))] for k in range(count)]}, f)
    return master, manifest


def make_traces(out, sabre, root):
    directory = os.path.join(out, "traces")
    os.makedirs(directory, exist_ok=True)
    traces = [os.path.join(sabre, "example", "network.json")]
    for kind in ("3Glogs", "4Glogs"):
        folder = os.path.join(sabre, "example", "mmsys18", kind)
        traces += [os.path.join(folder, name) for name in sorted(os.listdir(folder))[:7]]
    traces.append(os.path.join(root, "samples", "traces", "sabre-4g.json"))
    hsdpa = os.path.join(directory, "3g-hsdpa.json")
    steps = []
    lines = [l.split() for l in open(os.path.join(root, "samples", "traces", "3g-hsdpa.txt")) if l.strip() and not l.startswith("#")]
    for (t0, mbit), nxt in zip(lines, lines[1:] + [None]):
        duration = (float(nxt[0]) - float(t0)) if nxt else 1.0
        steps.append({"duration_ms": duration * 1000, "bandwidth_kbps": float(mbit) * 1000, "latency_ms": 0})
    json.dump(steps, open(hsdpa, "w"))
    traces.append(hsdpa)
    for kbps, latency in ((2000, 50), (1000, 150)):
        path = os.path.join(directory, f"constant-{kbps}k-{latency}ms.json")
        json.dump([{"duration_ms": 60000, "bandwidth_kbps": kbps, "latency_ms": latency}], open(path, "w"))
        traces.append(path)
    return traces


def sabre_choices(sabre, manifest, trace, arguments):
    text = run([sys.executable, os.path.join(sabre, "src", "sabre.py"), "-v", "-noa", "-b", str(BUFFER),
                "-m", manifest, "-n", trace] + arguments)
    choices = {}
    for line in text.split("\n"):
        match = SEGMENT_RE.match(line)
        if match:
            choices[int(match.group(1))] = int(match.group(2))
    return [choices[k] for k in sorted(choices)]


def bufprobe_choices(bufprobe, master, trace, segment, count, arguments):
    document = json.loads(run([bufprobe, "simulate", master, "--trace", trace, "--json",
                               "--max-buffer", f"{BUFFER - segment}s", "--bola-target", f"{BUFFER}s"] + arguments
                              if arguments[1] in ("bola", "dynamic") else
                              [bufprobe, "simulate", master, "--trace", trace, "--json",
                               "--max-buffer", f"{BUFFER - segment}s"] + arguments))
    abr = document["abr"]
    choices = [0] * count
    current = 0
    switches = sorted(abr["switches"], key=lambda s: s["segment"])
    at = 0
    for index in range(count):
        while at < len(switches) and switches[at]["segment"] <= index:
            current = switches[at]["to"]
            at += 1
        choices[index] = current
    return choices, abr["parameters"]


def one_variant(sabre, bufprobe, ladders, traces, out):
    """The top variant alone (`--abr fixed --variant N`, Sabre with a one-bitrate manifest): stall count and
    total stall time per run; a run agrees when the counts match and the times are within 10 % or 0.5 s."""
    good = runs = 0
    for ladder, (master, manifest) in ladders.items():
        segment = LADDERS[ladder][0]
        movie = json.load(open(manifest))
        top = len(movie["bitrates_kbps"]) - 1
        single = os.path.join(out, ladder, "sabre-movie-top.json")
        json.dump({"segment_duration_ms": movie["segment_duration_ms"], "bitrates_kbps": [movie["bitrates_kbps"][top]],
                   "segment_sizes_bits": [[row[top]] for row in movie["segment_sizes_bits"]]}, open(single, "w"))
        for trace in traces:
            text = run([sys.executable, os.path.join(sabre, "src", "sabre.py"), "-noa", "-b", str(BUFFER),
                        "-m", single, "-n", trace, "-a", "throughput"])
            values = dict(line.split(": ", 1) for line in text.split("\n") if ": " in line)
            sabre_time = float(values["total rebuffer"])
            sabre_count = round(float(values["total rebuffer events"]))
            document = json.loads(run([bufprobe, "simulate", master, "--abr", "fixed", "--variant", str(top),
                                       "--trace", trace, "--json", "--max-buffer", f"{BUFFER - segment}s"]))
            ours_time, ours_count = document["stall_time"], document["stall_count"]
            runs += 1
            good += ours_count == sabre_count and abs(ours_time - sabre_time) <= max(0.5, 0.1 * sabre_time)
    print(f"{'fixed, one variant':<22} {good:>5} of {runs:<2}   (same stall count, stall time within 10 % or 0.5 s)")


def main():
    sabre, root, bufprobe, out = sys.argv[1:5]
    only = sys.argv[5:] or [r[0] for r in RULES]
    only = [r[0] for r in RULES if r[0] in only or r[0].split(" (")[0] in only]
    ladders = {name: make_ladder(out, name) for name in LADDERS}
    traces = make_traces(out, sabre, root)
    print(f"{len(ladders)} ladders x {len(traces)} traces = {len(ladders) * len(traces)} runs per rule; "
          f"Sabre -b {BUFFER} -noa, bufprobe --max-buffer {BUFFER}-d, --bola-target {BUFFER}")
    print(f"{'rule':<22} {'runs >=95%':>10} {'segments agreeing':>18} {'worst run':>10}")
    details = []
    for name, sabre_args, bufprobe_args in RULES:
        if name not in only:
            continue
        good = 0
        agree = total = 0
        worst = (1.0, "")
        for ladder, (master, manifest) in ladders.items():
            segment = LADDERS[ladder][0]
            for trace in traces:
                reference = sabre_choices(sabre, manifest, trace, sabre_args)
                ours, parameters = bufprobe_choices(bufprobe, master, trace, segment, len(reference), bufprobe_args)
                same = sum(1 for a, b in zip(reference, ours) if a == b)
                fraction = same / len(reference)
                good += fraction >= 0.95
                agree += same
                total += len(reference)
                label = f"{ladder}/{os.path.basename(trace)}"
                if fraction < worst[0]:
                    worst = (fraction, label)
                details.append((name, label, fraction, "".join(map(str, reference)), "".join(map(str, ours))))
        runs = len(ladders) * len(traces)
        print(f"{name:<22} {good:>5} of {runs:<2} {100 * agree / total:>17.1f}% {100 * worst[0]:>9.1f}%")
    if "fixed" in sys.argv[5:] or not sys.argv[5:]:
        one_variant(sabre, bufprobe, ladders, traces, out)
    with open(os.path.join(out, "details.txt"), "w") as f:
        f.write("per run: rule ladder/trace agreement, then each segment's variant (Sabre, bufprobe)\n")
        for name, label, fraction, reference, ours in details:
            f.write(f"{name} {label} {100 * fraction:.1f}%\n  sabre    {reference}\n  bufprobe {ours}\n")
    print(f"per-run choices: {os.path.join(out, 'details.txt')}")


if __name__ == "__main__":
    main()
