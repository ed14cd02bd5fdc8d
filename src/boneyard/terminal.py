"""Terminal play: one human against computer players, drawn with Rich.

The human's seat is a :class:`TerminalSession`; computer seats are any registered level.
Every move is saved to the record file as it happens, so an interrupted game can be resumed
with ``boneyard play --resume FILE`` and replayed with ``boneyard replay FILE``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from boneyard import record
from boneyard.errors import BoneyardError, IllegalMoveError, NotationError
from boneyard.moves import Kind, Move
from boneyard.players.base import Player, make_player
from boneyard.render.text import describe_move, layout_lines
from boneyard.state import Event, Game
from boneyard.view import SeatView

HELP = ("Enter the number of a move (or its notation, e.g. 4-2@1).  Commands: "
        "h = hint, u = undo, s = save, q = save and quit, ? = help.")


def hint(view: SeatView) -> tuple[Move, str]:
    """The strongest available level's move for this seat, with a reason in words."""
    from boneyard.players import base

    advisor = getattr(base, "hint_move", None)
    if callable(advisor):
        result = advisor(view)
        assert isinstance(result, tuple)
        return result
    move = make_player("greedy").choose(view)
    points = view.play_points(move)[1]
    if points:
        return move, f"scores {points}"
    if move.tile is not None and move.kind in (Kind.LEAD, Kind.PLAY):
        return move, f"sheds a heavy tile ({view.tile_value(move.tile)} points)"
    return move, "the only move"


class TerminalSession:
    """Plays one game at the terminal; seat ``human`` is the person."""

    def __init__(self, game: Game, computers: dict[int, Player], human: int, save_path: Path,
                 console: Console | None = None, ask: Callable[[str], str] | None = None,
                 meta: dict[str, object] | None = None) -> None:
        self.game = game
        self.computers = computers
        self.human = human
        self.save_path = save_path
        self.console = console or Console()
        self.ask = ask or self.console.input
        self.meta = meta or {}
        self.view = SeatView(game, human)
        #: a set with directional tiles (PIP's R) can reverse the direction of play
        self.reversible = any(tile.letter is not None for tile in game.rules.tile_set())

    # ------------------------------------------------------------ drawing
    def table(self) -> Panel:
        game = self.game
        names = game.names
        scores = Table.grid(padding=(0, 2))
        for seat, name in enumerate(names):
            marker = "▶ " if game.in_hand and game.turn == seat else "  "
            tiles = len(game.hands[seat])
            scores.add_row(Text(marker + name, style="bold" if seat == self.human else ""),
                           f"{game.scores[seat]} pts", f"{tiles} tiles")
        info = [f"Hand {len(game.log)}", f"stock {game.stock_left}"]
        target = getattr(game.rules, "target", None)
        if isinstance(target, int):
            info.append(f"target {target}")
        if game.dice is not None:
            flower, scorpion = game.dice.flower, game.dice.scorpion
            info.append(f"flower {flower[0]}+{flower[1]} (tile {max(flower)}-{min(flower)})")
            info.append(f"scorpion {scorpion[0]}+{scorpion[1]} (tile {max(scorpion)}-{min(scorpion)})")
        if game.players > 2 and game.direction < 0:
            info.append("direction: counter-clockwise ↺")
        elif game.players > 2 and self.reversible:
            info.append("direction: clockwise ↻")
        if game.pending:
            index, owed = game.pending[-1]
            info.append(f"double on tile {index} owes {owed} more play{'s' if owed != 1 else ''}")
        hand = Text("Your hand: ")
        for number, tile in enumerate(game.hands[self.human], 1):
            hand.append(f"{number}:", style="dim")
            hand.append(f"[{tile}] ", style="bold cyan")
        body = Group(*layout_lines(game.layout), Text(""), scores, Text("  ·  ".join(info), style="dim"), hand)
        return Panel(body, title=game.rules.title, border_style="green")

    def say_event(self, event: Event) -> None:
        game = self.game
        name = game.names[event.seat]
        move = event.move
        text = f"{name}: {describe_move(move, game.layout) if move.kind != Kind.PLAY else move}"
        if event.scoring:
            parts = ", ".join(f"{item.name.replace('-', ' ')} {item.points:+d}" for item in event.scoring)
            text += f"  —  {parts} = {event.points:+d}"
        self.console.print(text, style="yellow" if event.scoring else "")
        effect = self.directional_effect(event)
        if effect:
            self.console.print(f"  {effect}", style="bold magenta")

    def directional_effect(self, event: Event) -> str | None:
        """PIP's S, R, A and D tiles, said as they take effect."""
        game = self.game
        tile = event.move.tile
        if tile is None or tile.letter is None or not event.move.is_placement or not game.in_hand:
            return None
        names = game.names
        letter = str(tile).split("-")[0]
        following = names[game.next_seat(event.seat)] if game.players > 1 else ""
        if letter == "S":
            return f"Skip: {names[(event.seat + game.direction) % game.players]} loses a turn"
        if letter == "R":
            way = "clockwise" if game.direction > 0 else "counter-clockwise"
            return f"Reverse: play now goes {way}"
        if letter == "A":
            return f"Again: {names[event.seat]} plays again"
        if game.give_pending:
            return f"Draw: the stock is empty, so {names[event.seat]} gives {following} a tile"
        return f"Draw: {following} must draw a tile"

    def say_hand_end(self) -> None:
        game = self.game
        result = game.hand.result
        if result is None:
            return
        names = game.names
        who = names[result.winner] if result.winner is not None else "nobody"
        self.console.print(Text(f"Hand {len(game.log)} over ({result.end}): {who} wins the hand", style="bold"))
        for seat, tiles in enumerate(game.hands):
            items = ", ".join(f"{i.name} {i.points:+d}" for i in result.scoring[seat])
            shown = " ".join(str(t) for t in tiles) or "—"
            self.console.print(f"  {names[seat]}: {shown}" + (f"   {items}" if items else ""))
        self.console.print("  Totals: " + ", ".join(f"{names[s]} {p}" for s, p in enumerate(game.scores)))

    # ------------------------------------------------------------ loop
    def save(self) -> None:
        record.save(self.game, self.save_path, meta=self.meta)

    def run(self) -> int:
        game = self.game
        self.console.print(HELP, style="dim")
        while not game.finished:
            if not game.in_hand:
                self.say_hand_end()
                if game.finished:
                    break
                game.next_hand()
                self.save()
                continue
            seat = game.turn
            if seat in self.computers:
                move = self.computers[seat].choose(SeatView(game, seat))
                self.say_event(game.apply(move))
                self.save()
                continue
            if not self.human_turn():
                self.save()
                self.console.print(f"Saved to {self.save_path} — resume with: boneyard play --resume {self.save_path}")
                return 0
            self.save()
        self.say_hand_end()
        names = game.names
        winner = names[game.winner] if game.winner is not None else "nobody (a tie)"
        self.console.print(Text(f"Game over — {winner} wins. " + ", ".join(
            f"{names[s]} {p}" for s, p in enumerate(game.scores)), style="bold green"))
        self.console.print(f"Record: {self.save_path}  (boneyard replay {self.save_path})")
        return 0

    def human_turn(self) -> bool:
        """One decision of the human; ``False`` when they quit."""
        game = self.game
        self.console.print(self.table())
        moves = game.legal_moves()
        for number, move in enumerate(moves, 1):
            points = game.play_points(move)[1] if move.is_placement else 0
            extra = f"  (+{points})" if points > 0 else f"  ({points})" if points < 0 else ""
            self.console.print(f"  {number:2}) {describe_move(move, game.layout)}  [dim]{move}[/dim]{extra}")
        while True:
            try:
                answer = self.ask("Your move: ").strip()
            except (EOFError, KeyboardInterrupt):
                return False
            lower = answer.lower()
            if lower in ("q", "quit", "exit"):
                return False
            if lower in ("?", "help"):
                self.console.print(HELP)
                continue
            if lower in ("h", "hint"):
                advice, reason = hint(self.view)
                self.console.print(f"Hint: {advice} — {reason}", style="cyan")
                continue
            if lower in ("u", "undo"):
                if self.undo():
                    return True
                continue
            if lower in ("s", "save"):
                self.save()
                self.console.print(f"Saved to {self.save_path}")
                continue
            chosen = self.parse_answer(answer, moves)
            if chosen is None:
                continue
            try:
                self.say_event(game.apply(chosen))
            except IllegalMoveError as error:
                self.console.print(f"Not allowed: {error}", style="red")
                continue
            return True

    def parse_answer(self, answer: str, moves: list[Move]) -> Move | None:
        if answer.isdigit():
            number = int(answer)
            if 1 <= number <= len(moves):
                return moves[number - 1]
            self.console.print(f"Choose 1 to {len(moves)}.", style="red")
            return None
        try:
            return Move.parse(answer)
        except NotationError as error:
            self.console.print(f"{error}. {HELP}", style="red")
            return None

    def undo(self) -> bool:
        """Take back the human's last move and the computer moves after it (this hand only)."""
        game = self.game
        events = game.hand.events
        if not any(event.seat == self.human for event in events):
            self.console.print("Nothing of yours to undo in this hand.", style="red")
            return False
        while events:
            seat = events[-1].seat
            game.undo()
            if seat == self.human and game.turn == self.human and (
                    not events or events[-1].seat != self.human):
                break
        self.console.print("Undone.", style="cyan")
        return True


def start_session(game: Game, ai: list[str], human: int, save_path: Path, console: Console | None = None,
                  ask: Callable[[str], str] | None = None) -> TerminalSession:
    computers = {}
    specs = [spec for spec in ai] or ["greedy"]
    others = [seat for seat in range(game.players) if seat != human]
    for order, seat in enumerate(others):
        spec = specs[min(order, len(specs) - 1)]
        computers[seat] = make_player(spec, seed=(game.chance.seed if game.chance else 0) + seat)
    meta = {"human_seat": human, "ai": {str(seat): specs[min(i, len(specs) - 1)] for i, seat in enumerate(others)}}
    return TerminalSession(game, computers, human, save_path, console, ask, meta)


__all__ = ["BoneyardError", "TerminalSession", "hint", "start_session"]
