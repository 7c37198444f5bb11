"""Worker pools that stop at once on Ctrl-C.

Leaving a plain `concurrent.futures` pool waits for the work it is running, and at exit Python
waits for every worker thread: Ctrl-C during model calls would hang until each call timed out
(a minute or more), and during PDF printing until every queued page was printed. These pools
drop their queued work on an interrupt; threads still inside a call are abandoned (`main()`
exits without waiting for them) and worker processes are ended.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import contextmanager

THREAD_PREFIX = "tidings-worker"


@contextmanager
def thread_pool(workers: int) -> Iterator[ThreadPoolExecutor]:
    """Threads for I/O-bound calls (model requests); Ctrl-C abandons the running ones."""
    pool = ThreadPoolExecutor(workers, thread_name_prefix=THREAD_PREFIX)
    try:
        yield pool
    except KeyboardInterrupt:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()


def busy_threads() -> bool:
    """Whether a `thread_pool` worker is still running (a call an interrupt abandoned)."""
    return any(t.name.startswith(THREAD_PREFIX) and t.is_alive() for t in threading.enumerate())


PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def _worker_start(parent: int) -> None:
    """Every pool process's initializer: leave Ctrl-C to the parent, and die with it."""
    # Ctrl-C reaches every process in the terminal's foreground group. Only the parent acts on
    # it, ending the workers; a worker caught between jobs would print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _follow_parent(parent)


def _follow_parent(parent: int) -> None:
    """Exit when the process that started the pool dies.

    PDF workers hold ~250 MB each and, once their parent is killed (kill -9 of `tidings run`),
    would otherwise live on until their queue pipe breaks, which a worker busy in WeasyPrint
    or blocked on its queue does not notice. On Linux the kernel kills the worker as its
    parent dies (PR_SET_PDEATHSIG: it fires when the forking thread exits, and the thread
    that starts the pool is blocked in it until the pool shuts down). Everywhere, a daemon
    thread checks twice a second that the parent is still there, which also covers a parent
    that died before the signal was armed."""
    if sys.platform == "linux":
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    started_under = os.getppid()

    def watch() -> None:
        while True:
            if os.getppid() != started_under or not _alive(parent):
                os._exit(1)
            time.sleep(0.5)

    threading.Thread(target=watch, name="tidings-parent-watch", daemon=True).start()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # exists, owned by someone else (a reused number: getppid() tells)
    return True


def new_process_pool(workers: int) -> ProcessPoolExecutor:
    """A bare pool whose processes ignore Ctrl-C and exit when this process dies."""
    return ProcessPoolExecutor(
        max_workers=workers, initializer=_worker_start, initargs=(os.getpid(),)
    )


@contextmanager
def process_pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    """Processes for CPU-bound jobs (PDF printing); Ctrl-C or an error ends them at once."""
    pool = new_process_pool(workers)
    try:
        _start_held(pool)
        yield pool
    except BaseException:  # also GeneratorExit, when a generator using the pool is closed early
        _end(pool)
        raise
    pool.shutdown()


def _start_held(pool: ProcessPoolExecutor) -> None:
    """Fork every worker and start the pool's manager thread with Ctrl-C held back.

    A KeyboardInterrupt raised inside fork's bookkeeping (logging's at-fork lock handlers, the
    pool's half-started manager thread) leaves a lock held or a thread that cannot be joined:
    a hang or a traceback instead of "interrupted". Held, the interrupt arrives as soon as the
    pool is whole. The first job forks all workers at once (the fork start method)."""
    if threading.current_thread() is not threading.main_thread():
        pool.submit(os.getpid)
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        pool.submit(os.getpid)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _end(pool: ProcessPoolExecutor) -> None:
    # There is no public way to stop a running job before Python 3.14 (`terminate_workers`):
    # terminate the processes, then let the pool see them gone and clean up.
    processes = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        process.terminate()
    # A Ctrl-C can land after the pool forked its processes and created its manager thread but
    # before it started that thread: joining it then raises RuntimeError (a traceback instead
    # of "interrupted"). There is nothing to wait for in that case.
    manager = getattr(pool, "_executor_manager_thread", None)
    started = manager is None or getattr(manager, "ident", None) is not None
    # Nothing is cancelled: the pool, finding its workers gone, fails every pending future
    # itself; a future cancelled meanwhile would make it raise InvalidStateError (3.11).
    pool.shutdown(wait=started)
