"""A process pool that stops at once on Ctrl-C.

A terminal's Ctrl-C sends SIGINT to every process of the foreground group, workers included; a
worker interrupted inside a game prints a traceback, and ``ProcessPoolExecutor`` then waits for
the work in flight.  Here the workers ignore SIGINT, so only the parent sees the interrupt, and
:func:`stop` cancels what is queued and ends the workers without waiting for their games.

In the parent, :func:`finished` holds Ctrl-C back while the library waits for results and raises
it between results: a ``KeyboardInterrupt`` raised inside ``concurrent.futures`` while it holds a
future's lock leaves that lock held, and the pool's manager thread, and with it the exit of the
whole program, then waits for it for ever.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from types import FrameType
from typing import TypeVar

T = TypeVar("T")
POLL = 0.25  #: seconds between looks at whether Ctrl-C was pressed


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def worker_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes that leave Ctrl-C to the parent."""
    return ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts)


def finished(futures: Iterable[Future[T]]) -> Iterator[Future[T]]:
    """The futures as they finish; Ctrl-C raises ``KeyboardInterrupt`` here, between results, within
    :data:`POLL` seconds (in the main thread; elsewhere signals do not arrive anyway)."""
    pressed = threading.Event()

    def press(signum: int, frame: FrameType | None) -> None:
        pressed.set()

    previous = signal.signal(signal.SIGINT, press) if threading.current_thread() is threading.main_thread() \
        else None
    remaining = set(futures)
    try:
        while remaining:
            try:
                for future in as_completed(remaining, timeout=POLL):
                    if pressed.is_set():
                        raise KeyboardInterrupt
                    remaining.discard(future)
                    yield future
            except TimeoutError:
                pass
            if pressed.is_set():
                raise KeyboardInterrupt
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


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
