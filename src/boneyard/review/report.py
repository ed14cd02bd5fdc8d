"""A review as text for people, as JSON, and as per-move annotations of the record (RECORD.md)."""

from __future__ import annotations

import copy
from typing import Any

from boneyard import record
from boneyard.review.analysis import MARKS, Decision, Review, span

HINDSIGHT = "open hands (hindsight: every hand and the stock order known)"
#: what the text review's ``wins game`` says (it is shown only where some sampled deal ends the game this hand)
WINS_GAME = ("the share of the deals in which the move played wins the game during this hand (shown where some "
             "deal ends the game in it)")


def annotate(data: dict[str, Any], result: Review) -> dict[str, Any]:
    """A copy of the record ``data`` with the review's decisions as ``annotations``.

    Existing annotations of moves the review did not look at are kept; reviewed moves get the new one."""
    annotated = copy.deepcopy(data)
    notes = result.annotations()
    for number, hand in enumerate(annotated["hands"], 1):
        moves = hand.get("moves", [])
        old = hand.get("annotations")
        current: list[Any] = list(old) if isinstance(old, list) else []
        current += [None] * (len(moves) - len(current))
        for index in range(len(moves)):
            note = notes.get((number, index + 1))
            if note is not None:
                current[index] = note
        current = record.trimmed(current)
        if current:
            hand["annotations"] = current
        else:
            hand.pop("annotations", None)
    return annotated


def _decision_json(decision: Decision, by: str) -> dict[str, Any]:
    return {
        "hand": decision.hand, "move_number": decision.number, "seat": decision.seat,
        "played": str(decision.played), "best": str(decision.best), "mark": decision.mark,
        "value": decision.value, "best_value": decision.best_value, "loss": decision.loss,
        "interval": list(decision.interval), "win": decision.win, "best_win": decision.best_win,
        "samples": decision.samples, "exact": decision.exact, "open_hands": decision.open_hands,
        "comment": decision.comment,
        "moves": [{"move": str(item.move), "value": item.value, "win": item.win} for item in decision.values],
        "annotation": decision.annotation(by),
    }


def review_json(result: Review) -> dict[str, Any]:
    """The review as one JSON-ready object (``boneyard review --json``)."""
    return {
        "variant": result.variant,
        "players": result.names,
        "seats": result.seats,
        "by": result.by,
        "seconds": result.seconds,
        "open_hands_note": result.open_hands_note,
        "summaries": [{
            "seat": s.seat, "name": s.name, "decisions": s.decisions, "forced": s.forced,
            "accuracy": s.accuracy, "points_lost": s.points_lost, "marks": s.marks,
            "costliest": [{"hand": d.hand, "move_number": d.number, "played": str(d.played),
                           "best": str(d.best), "mark": d.mark, "loss": d.loss, "comment": d.comment}
                          for d in s.costliest],
        } for s in result.summaries],
        "decisions": [_decision_json(d, result.by) for d in result.decisions],
    }


def marked(count: int, mark: str) -> str:
    """``1 mistake``, ``2 mistakes``, ``3 inaccuracies``, ``4 best``."""
    if count == 1 or mark == "best":
        return f"{count} {mark}"
    return f"{count} {'inaccuracies' if mark == 'inaccuracy' else mark + 's'}"


def review_text(result: Review) -> str:
    """The review for a person to read: one line per decision, then a summary per seat."""
    lines = [f"Review — {result.variant}, {result.by}",
             "values: expected net points of the hand for the seat (its side), judged from what it could see",
             f"oh: {HINDSIGHT}"]
    if any(d.win is not None for d in result.decisions):
        lines.append(f"wins game: {WINS_GAME}")
    lines.append("")
    for summary in result.summaries:
        lines.append(f"{summary.name} (seat {summary.seat})")
        for d in (d for d in result.decisions if d.seat == summary.seat):
            text = (f"  hand {d.hand} move {d.number:>2}  {d.played!s:<9} {d.value:+7.1f}  {d.mark:<10}")
            if d.best != d.played:
                text += f" best {d.best!s:<9} {d.best_value:+7.1f}  loss {d.loss:+.1f} {span(d.interval)}"
                if d.by_game:  # marked by the game's result, not by these points
                    text += " (marked by the game)"
            if d.win is not None:
                text += f"  wins game {d.win:.0%}"
            if d.open_hands is not None:
                text += f"  oh {d.open_hands:+.0f}"
            lines.append(text)
        lines.append("")
        marks = ", ".join(marked(summary.marks[mark], mark) for mark in MARKS)
        decisions = f"{summary.decisions} decision{'' if summary.decisions == 1 else 's'}"
        forced = f"{summary.forced} forced move{'' if summary.forced == 1 else 's'} skipped"
        lines.append(f"  {decisions} ({forced}): {marks}")
        if summary.decisions:
            lines.append(f"  accuracy {summary.accuracy:.0%}; expected points lost {summary.points_lost:.1f}")
        else:  # (the JSON's accuracy is 1.0 by convention: nothing was missed)
            lines.append("  no decision with a choice to judge, so no accuracy")
        for rank, d in enumerate(summary.costliest, 1):
            lines.append(f"  {rank}. hand {d.hand} move {d.number} ({d.mark}): {d.comment}")
        lines.append("")
    if result.open_hands_note:
        lines.append(f"Note: {result.open_hands_note}.")
    lines.append(f"Reviewed in {result.seconds:.1f} s.")
    return "\n".join(lines)


__all__ = ["HINDSIGHT", "annotate", "review_json", "review_text"]
