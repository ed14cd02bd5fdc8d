"""Game review: which moves cost a player, and why (``boneyard review``, docs/review.md).

:mod:`.analysis` values every decision of a seat from what that seat could see (the expert's
sampled deals, never the hidden tiles), marks it, and solves the open-hands position in hindsight;
:mod:`.report` turns a review into text, JSON and record annotations (RECORD.md); :mod:`.worker`
runs it off a server's event loop; :mod:`.cli` is the command.  The review sits above ``players/``
and below every front end.  Nothing is imported here, so registering the command costs nothing.
"""
