"""What the independent referees (``referee22c``, ``referee22g``) and the product's ``boneyard replay --json``
disagree on: one comparison for every referee, so each compares the same things."""

from __future__ import annotations

from typing import Any


def differences(mine: dict[str, Any], theirs: dict[str, Any]) -> list[str]:
    """Where the referee's replay (``mine``) and the product's (``theirs``) disagree, the first few."""
    found: list[str] = []
    for key in ("variant", "players", "finished", "winner", "totals"):
        if mine[key] != theirs.get(key):
            found.append(f"game {key}: referee {mine[key]} product {theirs.get(key)}")
    if len(mine["hands"]) != len(theirs["hands"]):
        found.append(f"hands: referee {len(mine['hands'])} product {len(theirs['hands'])}")
    for h, (a, b) in enumerate(zip(mine["hands"], theirs["hands"], strict=False), start=1):
        for i, (ea, eb) in enumerate(zip(a["events"], b["events"], strict=False), start=1):
            if (ea["seat"], ea["move"], ea["points"], ea["scoring"]) != (eb["seat"], eb["move"], eb["points"],
                                                                           eb["scoring"]):
                found.append(f"hand {h} move {i}: referee {ea} product {eb}")
                break
        if len(a["events"]) != len(b["events"]):
            found.append(f"hand {h}: events referee {len(a['events'])} product {len(b['events'])}")
        for key in ("leader", "end", "winner", "hand_points", "totals"):
            if a[key] != b.get(key):
                found.append(f"hand {h} {key}: referee {a[key]} product {b.get(key)}")
        if len(found) > 6:
            break
    return found
