"""The collector is off while any long catch-up runs, and back as it was after the last one."""

from __future__ import annotations

import gc
import threading

from projections import collector


def test_paused_blocks_nest_across_threads_and_restore_the_collector() -> None:
    assert gc.isenabled()
    inside = threading.Event()
    release = threading.Event()
    seen: list[bool] = []

    def other() -> None:
        with collector.paused():
            inside.set()
            release.wait(5)
            seen.append(gc.isenabled())

    thread = threading.Thread(target=other)
    with collector.paused():
        thread.start()
        assert inside.wait(5)
        assert not gc.isenabled()
    assert not gc.isenabled()  # the other catch-up still runs
    release.set()
    thread.join(5)
    assert seen == [False] and gc.isenabled()


def test_a_collector_that_was_off_stays_off() -> None:
    gc.disable()
    try:
        with collector.paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()
