#!/usr/bin/env python3
"""Markdown tables from the JSON output of bench_dynamics, bench_peers and bench_batch.

    summarize.py LABEL=DYNAMICS.json[,PEERS.json][,BATCH.json] [LABEL=...]

Times are medians of the repetitions (the `_median` aggregates) when present, else the single
run, in ns of real time per call. One column per LABEL (e.g. g++ and clang++). A bench_batch
file (recognised by its `iiwa_1024/` names) gives the table "Many states per call": ns per
state for the one-state loop and each batch width and thread count, with KDL's one-state call
beside it when the label has a bench_peers file."""
import json
import re
import sys
from collections import OrderedDict

ALGORITHMS = ["rnea", "crba", "aba", "forward_dynamics_crba", "nonlinear_effects",
              "gravity_torques"]
# The fixed models of bench_dynamics (name prefix, column title); they also time "jacobian".
MODELS = [("two_link", "two-link"), ("iiwa", "iiwa"), ("ur5", "UR5"), ("panda", "Panda")]
FIXED_ALGORITHMS = ALGORITHMS + ["jacobian"]


def medians(path):
    """run_name -> median real ns (and the big-O fits by family)."""
    with open(path) as f:
        report = json.load(f)
    times, fits = {}, {}
    for b in report["benchmarks"]:
        scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                times[b["run_name"]] = b["real_time"] * scale
            elif b.get("aggregate_name") == "BigO":
                fits[b["run_name"]] = (b["big_o"], b["real_coefficient"])
        elif b.get("repetitions", 1) <= 1:
            times[b["run_name"]] = b["real_time"] * scale
    return report["context"], times, fits


BATCH_ALGORITHMS = ["rnea", "crba", "aba", "rnea_derivatives", "aba_derivatives"]


def is_batch(path):
    with open(path) as f:
        return any(b["name"].startswith("iiwa_1024/") for b in json.load(f)["benchmarks"])


def batch_medians(path):
    """run_name without "iiwa_1024/" and "/real_time" -> median ns per state."""
    with open(path) as f:
        report = json.load(f)
    out = {}
    for b in report["benchmarks"]:
        if not b["run_name"].startswith("iiwa_1024/") or "ns_per_state" not in b:
            continue
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        if b.get("run_type") != "aggregate" and b.get("repetitions", 1) > 1:
            continue
        name = b["run_name"][len("iiwa_1024/"):].replace("/real_time", "")
        out[name] = b["ns_per_state"]
    return out


def print_batch(batches, runs):
    """The bench_batch table: per algorithm and label, ns per state (speed-up in brackets:
    one-state / batch for one thread, 1-thread / 2-thread time for two threads)."""
    cells = sorted({tuple(k.split("/")[1:]) for t in batches.values() for k in t
                    if not k.endswith("/one_state")},
                   key=lambda c: (int(c[0][2:]), int(c[1].split(":")[1])))
    kdl = any(len(runs.get(l, [])) > 1 for l in batches)
    print("\n### Many states per call: iiwa, 1,024 states, median ns per state\n")
    print("(W = states per pack, t = threads; in brackets: one-state / batch for t = 1, "
          "t = 1 / t = 2 for t = 2)\n")
    print("| algorithm | compiler | " + ("KDL one-state | " if kdl else "") + "one-state | "
          + " | ".join(f"{w.replace(':', ' = ')}, t = {t.split(':')[1]}" for w, t in cells)
          + " |")
    print("|---|---|" + "---:|" * (len(cells) + 1 + kdl))
    for a in BATCH_ALGORITHMS:
        for l, times in batches.items():
            one = times.get(f"{a}/one_state")
            if one is None and not any(k.startswith(a + "/") for k in times):
                continue
            row = [a, l]
            if kdl:
                peers = runs[l][1][1] if len(runs.get(l, [])) > 1 else {}
                k = [v for name, v in peers.items() if name.startswith(f"iiwa/{a}/KDL")]
                row.append(f"{k[0]:.0f}" if k else "")
            row.append("" if one is None else f"{one:.0f}")
            for w, t in cells:
                v = times.get(f"{a}/{w}/{t}")
                if v is None:
                    row.append("")
                elif t == "threads:1":
                    row.append(f"{v:.1f}" if one is None else f"{v:.1f} ({one / v:.1f}x)")
                else:
                    single = times.get(f"{a}/{w}/threads:1")
                    row.append(f"{v:.1f} ({single / v:.2f}x)" if single else f"{v:.1f}")
            print("| " + " | ".join(row) + " |")


def main(args):
    runs = OrderedDict()
    batches = OrderedDict()
    for arg in args:
        label, files = arg.split("=", 1)
        files = files.split(",")
        for f in [f for f in files if is_batch(f)]:
            batches[label] = batch_medians(f)
        files = [f for f in files if not is_batch(f)]
        if files:
            runs[label] = [medians(f) for f in files]
    if not runs:
        print_batch(batches, runs)
        return
    labels = list(runs)

    # Only the models some run has (older JSON files have two_link and iiwa only).
    models = [(m, title) for m, title in MODELS
              if any(k.startswith(m + "/") for l in labels for k in runs[l][0][1])]
    print("### Fixed models: median ns per call\n")
    print("| algorithm | " + " | ".join(f"{title} {l}" for _, title in models for l in labels)
          + " |")
    print("|---|" + "---:|" * (len(models) * len(labels)))
    for a in FIXED_ALGORITHMS:
        values = [runs[l][0][1].get(f"{m}/{a}") for m, _ in models for l in labels]
        if all(v is None for v in values):
            continue
        cells = ["" if v is None else f"{v:.1f}" for v in values]
        print(f"| {a} | " + " | ".join(cells) + " |")

    for joint in ("RevoluteZ", "Revolute"):
        for l in labels:
            times, fits = runs[l][0][1], runs[l][0][2]
            ns = sorted({int(m.group(1)) for k in times
                         for m in [re.match(rf"{joint}/\w+/n:(\d+)$", k)] if m})
            if not ns:
                continue
            print(f"\n### ChainN<double, n, {joint}>, {l}: median ns per call "
                  f"(ns per joint in brackets)\n")
            print("| algorithm | " + " | ".join(f"n={n}" for n in ns) + " | fit |")
            print("|---|" + "---:|" * (len(ns) + 1))
            for a in ALGORITHMS:
                cells = []
                for n in ns:
                    t = times.get(f"{joint}/{a}/n:{n}")
                    cells.append("" if t is None else f"{t:.0f} ({t / n:.1f})")
                fit = fits.get(f"{joint}/{a}")
                fit_text = f"{fit[1]:.3g} {fit[0]}" if fit else ""
                print(f"| {a} | " + " | ".join(cells) + f" | {fit_text} |")

    peers = [l for l in labels if len(runs[l]) > 1]
    if peers:
        print("\n### iiwa, chaindyn vs peers in one process: median ns per call and ratio\n")
        print("| algorithm | peer call | " + " | ".join(
            f"chaindyn {l} | peer {l} | peer / chaindyn {l}" for l in peers) + " |")
        print("|---|---|" + "---:|" * (3 * len(peers)))
        for a in ("rnea", "crba", "aba"):
            names = sorted({k for l in peers for k in runs[l][1][1]
                            if k.startswith(f"iiwa/{a}/") and not k.endswith("/chaindyn")})
            for name in names:
                cells = []
                for l in peers:
                    times = runs[l][1][1]
                    ours, theirs = times.get(f"iiwa/{a}/chaindyn"), times.get(name)
                    if ours is None or theirs is None:
                        cells += ["", "", ""]
                    else:
                        cells += [f"{ours:.0f}", f"{theirs:.0f}", f"{theirs / ours:.1f}x"]
                print(f"| {a} | {name.split('/')[-1]} | " + " | ".join(cells) + " |")

    if batches:
        print_batch(batches, runs)

if __name__ == "__main__":
    main(sys.argv[1:])
