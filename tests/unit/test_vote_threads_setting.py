"""`LAUNCHDIR_VOTE_THREADS`: the threads of a process's votes' pool (api/web_votes.py, README)."""

from __future__ import annotations

import pytest

from launchdir.settings import Settings


def test_unset_or_empty_leaves_the_default() -> None:
    assert Settings.from_env({}).vote_threads is None
    assert Settings.from_env({"LAUNCHDIR_VOTE_THREADS": " "}).vote_threads is None


def test_a_count_is_read() -> None:
    assert Settings.from_env({"LAUNCHDIR_VOTE_THREADS": "4"}).vote_threads == 4
    assert Settings.from_env({"LAUNCHDIR_VOTE_THREADS": " 16 "}).vote_threads == 16


@pytest.mark.parametrize("value", ["0", "-2", "257"])
def test_a_count_out_of_bounds_stops_the_start_with_the_setting_named(value: str) -> None:
    with pytest.raises(ValueError, match="LAUNCHDIR_VOTE_THREADS must be from 1 to 256"):
        Settings.from_env({"LAUNCHDIR_VOTE_THREADS": value})


def test_not_a_number_stops_the_start() -> None:
    with pytest.raises(ValueError, match="LAUNCHDIR_VOTE_THREADS must be a whole number"):
        Settings.from_env({"LAUNCHDIR_VOTE_THREADS": "many"})
