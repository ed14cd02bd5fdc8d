"""Game review: which moves cost a player, and why (``boneyard review``).

:mod:`.analysis` values every decision of a seat from what that seat could see (the expert's
sampled deals, never the hidden tiles), marks it, and solves the open-hands position in hindsight;
:mod:`.report` turns a review into text, JSON and record annotations (RECORD.md); :mod:`.cli` is
the command.  The review sits above ``players/`` and below every front end.
"""

from boneyard.review.analysis import Decision, Review, SeatSummary, Settings, judge, review

__all__ = ["Decision", "Review", "SeatSummary", "Settings", "judge", "review"]
