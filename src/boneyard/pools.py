"""Worker processes for the searches a server must not wait on (computer moves, hints, reviews).

:func:`spawn_pool` starts workers with ``spawn`` (a server's threads, such as the store's writer, are not
forked); :func:`stop_pool` shuts a pool down without waiting, ending a worker still busy: a search or a
review may run for minutes, and neither a server told to stop nor a client that left should wait for it.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor


def spawn_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` spawned processes (each started on first use)."""
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Shut ``pool`` down at once: queued jobs are cancelled and a worker still busy is ended."""
    workers = list((getattr(pool, "_processes", None) or {}).values())  # the executor has no public handle
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        if worker.is_alive():
            worker.terminate()


__all__ = ["spawn_pool", "stop_pool"]
