"""The ``expert`` level: infer the hidden hands, sample deals consistent with them, search each.

* :mod:`.inference` — constraints on every hidden hand from the public history;
* :mod:`.sampling` — deals of the hidden tiles that satisfy them;
* :mod:`.determinize` — a full game built from the view and one such deal;
* :mod:`.search` — perfect-information Monte Carlo with greedy playouts and an exact endgame;
* :mod:`.objective` — what a finished playout or search leaf is worth to the searching side;
* :mod:`.fastsearch` — the same per deal on the fast engine, every variant (exact whole-hand
  alpha-beta once nothing can be drawn, fast playouts before);
* :mod:`.hint` — the expert's move with a reason in words (``boneyard play``'s ``h``).

Built with ``make_player("expert:time=0.5")`` or ``"expert:samples=40"`` (reproducible).
"""

from boneyard.players.base import level
from boneyard.players.expert.search import ExpertPlayer

level("expert")(ExpertPlayer)

__all__ = ["ExpertPlayer"]
