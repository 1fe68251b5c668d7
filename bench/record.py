"""What a bench run leaves for the figures table: its figures, with the command, machine and data size.

A bench given `--record` writes `bench/results/<bench>.json` (one file per
bench, the latest run): every figure with its unit, the bare-framework
endpoint's figure of the same run where the figure is an HTTP one (so the
ratio is of one run, never across runs), the command line that printed it,
the machine (cores, CPU model, memory, load average at the start), the data
size and the code's commit. `python -m bench.table` turns every such file into
the one table at the top of docs/performance.md's figures.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from bench.common import ROOT

RESULTS = ROOT / "bench" / "results"


@dataclass(frozen=True)
class Figure:
    """One printed figure. `bare`: the bare endpoint's figure of the same run and kind, for the ratio."""

    name: str
    value: float
    unit: str
    bare: float | None = None
    target: str = ""  # what the figure is held to, in words ("≥ 200", "≤ 50 ms"), if anything
    met: bool | None = None


def command_line(argv: list[str]) -> str:
    """The bench's command as typed, a reused database named only as `URL` (a scratch name of one machine)."""
    args = [f"bench.{Path(argv[0]).stem}"]
    hide = False
    for arg in argv[1:]:
        args.append("URL" if hide else ("--database URL" if arg.startswith("--database=") else arg))
        hide = arg == "--database"
    return "python -m " + " ".join(args)


@dataclass
class Run:
    bench: str
    data: str  # the data size in words ("100,000 listings, 303,039 events")
    figures: list[Figure] = field(default_factory=list)
    command: str = field(default_factory=lambda: command_line(sys.argv))
    machine: dict[str, object] = field(default_factory=lambda: dict(AT_START[0]))
    at: str = field(default_factory=lambda: AT_START[1])
    commit: str = field(default_factory=lambda: commit())

    def add(self, name: str, value: float, unit: str, bare: float | None = None, target: str = "",
            met: bool | None = None) -> None:
        self.figures.append(Figure(name, value, unit, bare, target, met))

    def save(self, directory: Path = RESULTS) -> Path:
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / f"{self.bench}.json"
        path.write_text(json.dumps(asdict(self), indent=1, ensure_ascii=False) + "\n")
        print(f"  recorded: {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
        return path


def started() -> tuple[dict[str, object], str]:
    """The machine and the time as a run starts (this module is imported when its bench starts)."""
    return {**machine(), "load_when": "start"}, datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def load_runs(directory: Path = RESULTS) -> list[Run]:
    """Every recorded run, by bench name."""
    runs = []
    for path in sorted(directory.glob("*.json")):
        raw = json.loads(path.read_text())
        raw["figures"] = [Figure(**f) for f in raw["figures"]]
        runs.append(Run(**raw))
    return runs


def reference_ms() -> float:
    """Milliseconds of a fixed pure-Python loop (best of five): the machine's speed when the run was recorded.

    Machines of one kind differ by half from one day to the next (the same
    code rebuilt the projections at 0.6-0.7 times the rate of the day before);
    figures of runs recorded on different days compare after scaling by this.
    """
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        total = 0
        for i in range(1_000_000):
            total += i * i % 7
        best = min(best, time.perf_counter() - start)
    return round(best * 1000, 1)


def machine() -> dict[str, object]:
    """The machine a run measured: what makes its figures comparable or not."""
    model = ""
    try:
        model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                      if line.startswith("model name")), "")
    except OSError:
        pass
    memory = 0
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        pass
    return {"cores": os.cpu_count() or 0, "cpu": model or platform.processor(), "memory_gib": round(memory / 2**30),
            "python": platform.python_version(), "load_average": round(os.getloadavg()[0], 1),
            "reference_ms": reference_ms()}


def commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                             timeout=5)
        return out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


AT_START = started()  # the load average before the bench loads the machine, not after
