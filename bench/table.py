"""The figures table of docs/performance.md, made from the benches' recorded runs.

    python -m bench.table            # rewrite the table between its markers in docs/performance.md
    python -m bench.table --print    # print it instead

Each row is one figure of one recorded run (`bench/record.py`): the figure,
its ratio to the bare-framework endpoint measured in the same run (HTTP
figures), the target it is held to and whether this run met it, the data
size, the machine and the command that printed it. A bench run with
`--record` replaces its own rows; the rest of the document is left as it is.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bench.common import ROOT
from bench.record import RESULTS, Figure, Run, load_runs

DOC = ROOT / "docs" / "performance.md"
START = "<!-- bench-table:start (python -m bench.table rewrites what is between these markers) -->"
END = "<!-- bench-table:end -->"


def number(value: float, unit: str) -> str:
    if unit == "bool":
        return "yes" if value else "no"
    digits = 0 if abs(value) >= 1000 or value == int(value) else 1 if abs(value) >= 10 else 2
    text = f"{value:,.{digits}f}"
    return f"{text} {unit}".strip()


def ratio(f: Figure) -> str:
    if f.bare is None or not f.bare or not f.value:
        return ""
    if f.unit.endswith("/s"):  # a rate: the share of the bare endpoint's rate
        return f"{f.value / f.bare:.3f}"
    return f"{f.value / f.bare:.1f}×"  # a latency: how many times the bare endpoint's


def machine(run: Run) -> str:
    m = run.machine
    when = "at start" if m.get("load_when") == "start" else "at the end"  # runs recorded before the start was kept
    speed = f", reference loop {m['reference_ms']} ms" if m.get("reference_ms") else ""  # kept since 2026-12-02
    return f"{m.get('cores')} cores, {m.get('memory_gib')} GiB, load {m.get('load_average')} {when}{speed}"


def render(runs: list[Run]) -> str:
    """The table: one row per figure, the runs in bench order, their figures in the order recorded."""
    lines = ["| bench | figure | value | ratio to bare (same run) | target | met | data | machine | run |",
             "|---|---|---|---|---|---|---|---|---|"]
    for run in runs:
        for f in run.figures:
            met = "" if f.met is None else ("yes" if f.met else "**no**")
            lines.append(f"| `{run.bench}` | {f.name} | {number(f.value, f.unit)} | {ratio(f)} | {f.target} | {met} "
                         f"| {run.data} | {machine(run)} | {run.at}, {run.commit} |")
    commands = sorted({(run.bench, run.command) for run in runs})
    lines += ["", "Commands, one per bench: " + "; ".join(f"`{bench}`: `{command}`" for bench, command in commands)
              + ". Bare: `/api/v1/_bare`, the framework's own endpoint, loaded by the same client in the same run."]
    return "\n".join(lines)


def rewrite(document: str, table: str) -> str:
    """`document` with what stands between the markers replaced by `table` (the markers appended if absent)."""
    block = f"{START}\n\n{table}\n\n{END}"
    if START in document and END in document:
        head, rest = document.split(START, 1)
        return head + block + rest.split(END, 1)[1]
    return document.rstrip("\n") + "\n\n" + block + "\n"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--print", action="store_true", help="print the table instead of rewriting the document")
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--doc", type=Path, default=DOC)
    args = parser.parse_args()
    table = render(load_runs(args.results))
    if args.print:
        print(table)
        return
    args.doc.write_text(rewrite(args.doc.read_text(), table))
    print(f"rewrote the figures table in {args.doc}")


if __name__ == "__main__":
    main()
