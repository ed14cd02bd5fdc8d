"""The review for a front end that must not wait on it: one worker process, and the better moves drawn.

:func:`browser_review` is the review of one seat as JSON (:func:`~.report.review_json`) with, for every
decision marked worse than best, the better move's tile as it would have lain on the table
(``ghost``: a :class:`~boneyard.render.geometry.TileBox` as JSON, on the replay's table size), so a
viewer can draw it as a ghost tile.  :class:`Reviewer` runs it in a spawned worker process, so a
review (tens of seconds of search) holds neither a server's event loop nor its GIL, and refuses work
beyond a short queue.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from boneyard import record
from boneyard.errors import BoneyardError
from boneyard.pools import spawn_pool, stop_pool
from boneyard.render.geometry import layout_geometry, table_size
from boneyard.review.analysis import Review, Settings, positions, review
from boneyard.review.report import review_json

WEB_SAMPLES = 40  #: deals per decision for a review asked from the browser (reproducible)
MAX_SAMPLES = 400
QUEUE = 4  #: reviews waiting or running at most; more are refused
#: a review's work at most: the seat's moves times the deals searched for each (about 80 s of a worker)
MAX_WORK = 100_000


def ghost_tiles(data: dict[str, Any], result: Review) -> dict[tuple[int, int], dict[str, Any]]:
    """(hand, move number) → the better move's tile where it would have lain, for every decision marked
    worse than best (beyond the noise) whose best move is a placement."""
    wanted = {(d.hand, d.number): d.best for d in result.decisions if d.mark != "best" and d.best.is_placement}
    ghosts: dict[tuple[int, int], dict[str, Any]] = {}
    if not wanted:
        return ghosts
    for game, hand, number, _ in positions(data):
        best = wanted.get((hand, number))
        if best is None:
            continue
        width, height = table_size(len(game.rules.tile_set()))
        game.apply(best)
        try:
            tiles = layout_geometry(game.layout, width=width, height=height).tiles
            ghosts[hand, number] = tiles[-1].as_json() | {"role": "ghost"}
        finally:
            game.undo()
    return ghosts


def browser_review(data: dict[str, Any], seat: int, samples: int = WEB_SAMPLES, seed: int = 0) -> dict[str, Any]:
    """The review of ``seat`` as JSON, each decision with its ``ghost`` (or ``null``)."""
    result = review(data, [seat], Settings(samples=samples, seed=seed))
    out = review_json(result)
    ghosts = ghost_tiles(data, result)
    for decision in out["decisions"]:
        decision["ghost"] = ghosts.get((decision["hand"], decision["move_number"]))
    return out


def checked_request(data: dict[str, Any], seat: Any, samples: Any) -> tuple[int, int]:
    """The seat and sample count of a review request, checked against the record (which must replay)."""
    game = record.replay(data)
    if seat is None:
        seat = 0
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.players:
        raise BoneyardError(f"'seat' must be a seat of the game, 0-{game.players - 1}, not {seat!r}")
    if samples is None:
        samples = WEB_SAMPLES
    if isinstance(samples, bool) or not isinstance(samples, int) or not 2 <= samples <= MAX_SAMPLES:
        raise BoneyardError(f"'samples' must be a whole number from 2 to {MAX_SAMPLES}, not {samples!r}")
    moves = sum(event.seat == seat for log in game.log for event in log.events)
    if moves * samples > MAX_WORK:
        fewer = MAX_WORK // moves
        raise BoneyardError(f"seat {seat}'s {moves:,} moves at {samples} deals each is more than one review here "
                            f"searches ({MAX_WORK:,} moves times deals): ask for "
                            + (f"at most {fewer} deals" if fewer >= 2 else "a shorter game")
                            + ", or run boneyard review on your own machine")
    return seat, samples


class Reviewer:
    """Reviews in one worker process (started on first use), at most :data:`QUEUE` waiting or running.

    A review cancelled while it waits leaves the queue; one cancelled while it runs (its client left) ends
    its worker, so nobody's review waits behind one that nobody will read (a fresh worker starts for the next)."""

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers
        self.pending = 0
        self._pool: ProcessPoolExecutor | None = None
        self._running = asyncio.Semaphore(workers)  #: one review per worker in the pool at a time

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:  # spawn: a server's threads are not forked
            self._pool = spawn_pool(self.workers)
        return self._pool

    async def review(self, data: dict[str, Any], seat: Any = None, samples: Any = None) -> dict[str, Any]:
        # the record is replayed to check the request: in a thread, as a long one would hold the event loop
        seat, samples = await asyncio.to_thread(checked_request, data, seat, samples)
        if self.pending >= QUEUE:
            raise BoneyardError(f"{QUEUE} reviews are already under way; try again in a minute")
        self.pending += 1
        try:
            async with self._running:
                pool = self._executor()
                try:
                    return await asyncio.wrap_future(pool.submit(browser_review, data, seat, samples))
                except asyncio.CancelledError:  # nobody waits for it any more: end the search
                    if self._pool is pool:
                        self._pool = None
                    stop_pool(pool)
                    raise
        except BrokenProcessPool:  # the worker died (killed, out of memory): a fresh one next time
            self._pool = None
            raise BoneyardError("the review's worker stopped; try again") from None
        finally:
            self.pending -= 1

    def close(self) -> None:
        """Stop at once: a review under way is not waited for (its worker is ended)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            stop_pool(pool)


__all__ = ["MAX_SAMPLES", "WEB_SAMPLES", "Reviewer", "browser_review", "checked_request", "ghost_tiles"]
