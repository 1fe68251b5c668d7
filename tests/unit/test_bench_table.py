"""The figures table of docs/performance.md: recorded runs in, one table between the markers out."""

from __future__ import annotations

from pathlib import Path

from bench.record import Run, load_runs
from bench.table import END, START, render, rewrite


def _run(tmp_path: Path) -> Run:
    run = Run("bench_vote_burst", "1,000 people, 20 listings")
    run.add("votes per second achieved", 199.4, "votes/s", target="≥ 200", met=False)
    run.add("week's board p99 during the burst", 41.0, "ms", bare=0.5, target="≤ 50 ms", met=True)
    run.add("distinct searches", 250.0, "req/s", bare=5000.0)
    run.add("every accepted vote counted exactly once", 1.0, "bool", target="yes", met=True)
    run.save(tmp_path)
    return run


def test_a_recorded_run_reads_back_with_its_command_machine_and_figures(tmp_path: Path) -> None:
    saved = _run(tmp_path)
    (loaded,) = load_runs(tmp_path)
    assert loaded == saved
    assert loaded.command.startswith("python -m bench.")
    assert loaded.machine["cores"] and "load_average" in loaded.machine
    assert float(loaded.machine["reference_ms"]) > 0  # the machine's speed, to compare runs of different days


def test_each_figure_is_a_row_with_its_ratio_to_bare_of_the_same_run(tmp_path: Path) -> None:
    table = render(load_runs(tmp_path) or [_run(tmp_path)])
    rows = [line for line in table.splitlines() if line.startswith("| `bench_vote_burst`")]
    assert len(rows) == 4
    assert "| 199.4 votes/s |  | ≥ 200 | **no** |" in rows[0]
    assert "| 41 ms | 82.0× | ≤ 50 ms | yes |" in rows[1]  # a latency: times the bare endpoint's
    assert "| 250 req/s | 0.050 |" in rows[2]  # a rate: the share of the bare endpoint's
    assert "| yes |  | yes | yes |" in rows[3]
    assert "1,000 people, 20 listings" in rows[0] and "cores" in rows[0]
    assert f"reference loop {saved_reference(tmp_path)} ms" in rows[0]


def saved_reference(tmp_path: Path) -> object:
    (run,) = load_runs(tmp_path)
    return run.machine["reference_ms"]


def test_rewriting_replaces_only_what_stands_between_the_markers() -> None:
    doc = f"# Performance\n\nbefore\n\n{START}\n\nold table\n\n{END}\n\nafter\n"
    out = rewrite(doc, "new table")
    assert out == f"# Performance\n\nbefore\n\n{START}\n\nnew table\n\n{END}\n\nafter\n"
    assert rewrite(out, "new table") == out
    appended = rewrite("# Performance\n", "a table")
    assert appended.endswith(f"{START}\n\na table\n\n{END}\n")


def test_a_recorded_command_names_a_reused_database_only_as_url() -> None:
    from bench.record import command_line

    assert command_line(["bench/rebuild.py", "--database", "host=127.0.0.1 dbname=scratch_1", "--record"]) == \
        "python -m bench.rebuild --database URL --record"
    assert command_line(["bench/rebuild.py", "--database=dbname=scratch_1", "--only", "a"]) == \
        "python -m bench.rebuild --database URL --only a"
    assert command_line(["bench/bench_reads.py", "--record"]) == "python -m bench.bench_reads --record"
