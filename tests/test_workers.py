"""Worker pools (tidings/common/workers.py) end cleanly whenever Ctrl-C lands."""

from __future__ import annotations

import multiprocessing
import os
import time
from concurrent.futures import process as cf_process

import pytest

from tidings.common.workers import process_pool


def test_ctrl_c_while_the_pool_starts_its_manager_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C between the pool forking its workers and starting its manager thread (seen under
    load in the terminal tests as `cannot join thread before it is started`, exit 70): the
    interrupt comes through as itself and the workers are ended."""

    def interrupted(_thread: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cf_process._ExecutorManagerThread, "start", interrupted)
    with pytest.raises(KeyboardInterrupt), process_pool(2) as pool:
        pool.submit(os.getpid)
    deadline = time.monotonic() + 10
    while multiprocessing.active_children():  # joins the ended ones
        assert time.monotonic() < deadline, "pool workers outlived the interrupt"
        time.sleep(0.05)
