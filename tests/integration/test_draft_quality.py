"""The drafting scorer in CI: nothing invented, every value's evidence on its page, recall above a floor.

Runs :mod:`bench.draft_quality` (real crawler, sites served on 127.0.0.1,
the extractive drafter and its evidence gate) on the visible half of the
unseen-sites corpus and on the project's own fixture sites.  The floors sit a
little below the measured recall so a regression fails; the blind half is
never run here.
"""

from __future__ import annotations

import pytest

from bench.draft_quality import Report, corpus, print_report, score_half

RECALL_FLOORS = {"fixtures": 0.98, "visible": 0.95}


@pytest.mark.parametrize("half", sorted(RECALL_FLOORS))
def test_drafts_invent_nothing_and_every_value_shows_its_evidence(half: str, capsys: pytest.CaptureFixture[str]) -> None:
    if not corpus(half):
        pytest.skip(f"no {half} corpus in this checkout")
    report: Report = score_half(half)
    with capsys.disabled():
        print(f"\n[draft quality: {half}]")
        print_report(report, verbose=True)
    assert report.sites
    assert report.total("invented") == 0, [p for s in report.sites for p in s.problems if p.startswith("invented")]
    assert report.evidence_verified == 1.0, [p for s in report.sites for p in s.problems if p.startswith("unverified")]
    assert report.recall >= RECALL_FLOORS[half]
