"""A process pool that stops at once on Ctrl-C.

A terminal's Ctrl-C sends SIGINT to every process of the foreground group, workers included; a
worker interrupted inside a game prints a traceback, and ``ProcessPoolExecutor`` then waits for
the work in flight.  Here the workers ignore SIGINT, so only the parent sees the interrupt, and
:func:`stop` cancels what is queued and ends the workers without waiting for their games.
"""

from __future__ import annotations

import signal
from concurrent.futures import ProcessPoolExecutor


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def worker_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes that leave Ctrl-C to the parent."""
    return ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts)


def stop(pool: ProcessPoolExecutor) -> None:
    """Cancel the queued work and end the workers now (after Ctrl-C: their games are not wanted)."""
    # the pool keeps its processes and its manager thread in private attributes; there is no public way to
    # end them before Python 3.14.  The manager thread is joined too: left running, it races the interpreter's
    # exit and prints an "Exception ignored" traceback.
    workers = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in workers:
        if process.is_alive():
            process.terminate()
    for process in workers:
        process.join(timeout=5)
    if manager is not None:
        manager.join(timeout=5)
