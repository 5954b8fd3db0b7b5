#!/usr/bin/env python3
"""Prints compare.py's results (JSON lines on stdin) as a Markdown table, one row per player x case, and a
per-player agreement count. With --one DIR: one progress line for a single result."""
import json
import sys


PLAYERS = ["hlsjs", "dashjs", "shaka", "gstreamer", "vlc"]
CASES = ["c5000k", "c2500k", "c1500k", "c1000k", "c700k", "c400k", "c200k", "step", "stepup", "dip", "3g", "4g"]


def rank(order, name):
    return order.index(name) if name in order else len(order)


def fmt_s(x):
    return "-" if x is None else f"{x:.2f}"


def variants(vs):
    return "".join("." if v is None else str(v) for v in vs)


def stalls(side, note=""):
    """`n / total s`, and the frozen picture when it differs from the stalls (a DASH player's audio played
    on alone past the video's end)."""
    text = f"{side['stall_count']} / {side['stall_time']:.2f} s"
    frozen = side.get("frozen_picture_time")
    if frozen is not None and abs(frozen - side["stall_time"]) >= 0.01:
        text += f", frozen {frozen:.2f} s"
    return text + note


def row(r):
    real, sim, v = r["real"], r["simulate"], r["verdict"]
    if "error" in real:
        real_cells = [real["error"], "", ""]
    else:
        note = "" if real.get("ended") else f" (not ended: {real.get('reason')})"
        real_cells = [fmt_s(real["startup"]), stalls(real, note), variants(real["variants"])]
    sim_cells = ([sim["error"], "", ""] if "error" in sim else
                 [fmt_s(sim["startup"]), stalls(sim), variants(sim["variants"])])
    agree = "yes" if v["agree"] else "no: " + ", ".join(v["failed"])
    case = r["case"] if r.get("run", 1) == 1 else f"{r['case']} #{r['run']}"
    return (f"| {r['player']} | {case} | {real_cells[0]} | {sim_cells[0]} | {real_cells[1]} | {sim_cells[1]} | "
            f"`{real_cells[2]}` | `{sim_cells[2]}` | {v.get('same_variant_share', '-')} | {agree} |")


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--one":
        r = json.loads(sys.stdin.read())
        print(row(r), flush=True)
        return
    results = [json.loads(l) for l in sys.stdin if l.strip()]
    # Rows in a fixed order whatever order the cases were (re)run in (KEEP=1 appends).
    results.sort(key=lambda r: (rank(PLAYERS, r["player"]), rank(CASES, r["case"]), r.get("run", 1)))
    print("| player | case | startup real | startup sim | stalls real (n / total) | stalls sim | "
          "variants real (per segment) | variants sim | same variant | agree |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        print(row(r))
    print()
    players = []
    for r in results:
        if r["player"] not in players:
            players.append(r["player"])
    for p in players:
        rs = [r for r in results if r["player"] == p]
        runs = sorted({r.get("run", 1) for r in rs})
        cases = sorted({r["case"] for r in rs}, key=lambda c: rank(CASES, c))
        per_run = ", ".join(
            f"run {k}: {sum(r['verdict']['agree'] for r in rs if r.get('run', 1) == k)} of "
            f"{sum(1 for r in rs if r.get('run', 1) == k)}" for k in runs)
        always = [c for c in cases if all(r["verdict"]["agree"] for r in rs if r["case"] == c)
                  and len([r for r in rs if r["case"] == c]) == len(runs)]
        print(f"- {p}: {per_run}; agree in every one of {len(runs)} run(s): {len(always)} of {len(cases)} cases "
              f"({' '.join(always) or 'none'}) (simulate {rs[0]['simulate_args']})")
    failures = [(r["player"], r["case"], r["real"].get("errors")) for r in results if r["real"].get("errors")]
    if failures:
        print("\nPlayer errors seen (time from the first media request, s):")
        for p, c, errs in failures:
            fatal = [e for e in errs if isinstance(e[2], dict) and e[2].get("fatal")]
            shown = [errs[0]] + [e for e in fatal if e is not errs[0]]
            print(f"- {p} {c}: {len(errs)} error events, {len(fatal)} fatal; first and fatal:")
            for e in shown:
                print(f"  - {json.dumps(e)[:300]}")


if __name__ == "__main__":
    main()
