"""The layout tree (RULES.md C4, C5): faces, open ends, spinners, exposed halves, undo by pop."""

from __future__ import annotations

import pytest

from boneyard import IllegalMoveError, Layout, Tile
from boneyard.layout import Face, FaceKind, Role

T = Tile.parse


def kinds(layout: Layout, index: int) -> list[FaceKind]:
    return [face.kind for face in layout[index].faces]


def ends(layout: Layout) -> list[tuple[int, int, int]]:
    """(owner, value, exposed halves) of each open end."""
    return [(face.owner, face.value, layout.exposed(face)) for face in layout.open_ends()]


def state(layout: Layout) -> list[tuple[str, Role, int, int, list[tuple[FaceKind, int, int]]]]:
    return [(str(p.tile), p.role, p.parent, p.join, [(f.kind, f.value, f.child) for f in p.faces])
            for p in layout.tiles] + [[(f.owner, f.slot) for f in layout.free_faces()]]  # type: ignore[list-item]


def test_non_double_lead_has_a_left_and_a_right_end() -> None:
    layout = Layout()
    layout.place_lead(T("6-4"), 4, Role.LINE)
    assert kinds(layout, 1) == [FaceKind.LEFT, FaceKind.RIGHT]
    assert ends(layout) == [(1, 4, 1), (1, 6, 1)]
    assert layout[1].join == 4 and layout[1].value == 6


def test_line_tile_has_one_outer_face() -> None:
    layout = Layout()
    layout.place_lead(T("6-4"), 6, Role.LINE)
    placed = layout.place(T("4-2"), 4, 1, Role.LINE)
    assert placed.index == 2 and placed.parent == 1 and placed.value == 2
    assert kinds(layout, 2) == [FaceKind.OUT]
    assert ends(layout) == [(1, 6, 1), (2, 2, 1)]


def test_lone_double_exposes_one_half_per_side_and_two_at_a_tip() -> None:
    layout = Layout()
    layout.place_lead(T("5-5"), 5, Role.CROSS)
    assert kinds(layout, 1) == [FaceKind.SIDE, FaceKind.SIDE]
    assert ends(layout) == [(1, 5, 1), (1, 5, 1)]  # C4: "5-5 led counts 10"
    layout.place(T("5-3"), 5, 1, Role.LINE)
    assert ends(layout) == [(1, 5, 2), (2, 3, 1)]  # the other long side now shows both halves
    layout.place(T("3-3"), 3, 2, Role.CROSS)
    assert kinds(layout, 3) == [FaceKind.SIDE]  # the parent takes one long side
    assert ends(layout) == [(1, 5, 2), (3, 3, 2)]


def test_spinner_opens_its_short_ends_only_after_both_sides() -> None:
    layout = Layout()
    layout.place_lead(T("6-4"), 6, Role.LINE)
    layout.place(T("4-4"), 4, 1, Role.SPINNER)
    assert kinds(layout, 2) == [FaceKind.SIDE, FaceKind.END, FaceKind.END]
    assert layout.spinners == 1
    assert ends(layout) == [(1, 6, 1), (2, 4, 2)]  # A5-7: a spinner with a free side counts both halves
    assert layout.face_for(2, 4) is layout[2].faces[0]
    layout.place(T("4-1"), 4, 2, Role.LINE)
    assert ends(layout) == [(1, 6, 1), (2, 4, 0), (2, 4, 0), (3, 1, 1)]  # sides full: the ends open, count 0
    layout.place(T("4-3"), 4, 2, Role.LINE)
    assert ends(layout) == [(1, 6, 1), (2, 4, 0), (3, 1, 1), (4, 3, 1)]


def test_lead_spinner_has_four_faces_sides_first() -> None:
    layout = Layout()
    layout.place_lead(T("5-5"), 5, Role.SPINNER)
    assert kinds(layout, 1) == [FaceKind.SIDE, FaceKind.SIDE, FaceKind.END, FaceKind.END]
    assert ends(layout) == [(1, 5, 1), (1, 5, 1)]
    layout.place(T("5-0"), 5, 1, Role.LINE)
    assert ends(layout) == [(1, 5, 2), (2, 0, 1)]
    layout.place(T("5-3"), 5, 1, Role.LINE)
    assert ends(layout) == [(1, 5, 0), (1, 5, 0), (2, 0, 1), (3, 3, 1)]


def test_a_layout_that_is_not_sides_first_opens_the_ends_at_once() -> None:
    layout = Layout(sides_first=False)
    layout.place_lead(T("5-5"), 5, Role.SPINNER)
    assert len(layout.open_ends()) == 4
    hub = Layout(sides_first=False)
    hub.place_lead(T("5-5"), 5, Role.HUB)  # a hub is always sides first
    assert len(hub.open_ends()) == 2


def test_toes_double_has_three_toes() -> None:
    layout = Layout()
    layout.place_lead(T("6-4"), 6, Role.LINE)
    layout.place(T("4-4"), 4, 1, Role.TOES)
    assert kinds(layout, 2) == [FaceKind.TOE] * 3
    assert [layout.exposed(face) for face in layout[2].faces] == [1, 1, 1]


def test_placing_on_a_missing_end_is_illegal_and_changes_nothing() -> None:
    layout = Layout()
    layout.place_lead(T("6-4"), 6, Role.LINE)
    before = state(layout)
    with pytest.raises(IllegalMoveError, match="tile 1 has no open 3 end"):
        layout.place(T("3-2"), 3, 1, Role.LINE)
    with pytest.raises(IllegalMoveError, match="there is no tile 2 on the table"):
        layout.place(T("4-2"), 4, 2, Role.LINE)
    with pytest.raises(IllegalMoveError, match="the lead is already on the table"):
        layout.place_lead(T("3-2"), 3, Role.LINE)
    assert state(layout) == before
    with pytest.raises(IndexError, match="there is no tile 5"):
        layout[5]


def test_pop_restores_every_face_and_the_end_order() -> None:
    layout = Layout()
    snapshots = [state(layout)]
    layout.place_lead(T("6-4"), 6, Role.LINE)
    snapshots.append(state(layout))
    layout.place(T("4-4"), 4, 1, Role.SPINNER)
    snapshots.append(state(layout))
    for tile, join, target, role in [("4-1", 4, 2, Role.LINE), ("6-6", 6, 1, Role.CROSS), ("4-3", 4, 2, Role.LINE),
                                     ("4-0", 4, 2, Role.LINE), ("1-1", 1, 3, Role.CROSS)]:
        layout.place(T(tile), join, target, role)
        snapshots.append(state(layout))
    copy = layout.copy()
    assert state(copy) == snapshots[-1]
    while layout.tiles:
        assert state(layout) == snapshots.pop()
        layout.pop()
    assert state(layout) == snapshots.pop() and layout.spinners == 0
    assert state(copy) != state(layout)  # the copy is independent


def test_accepts_matches_numbers_and_wild_halves_but_never_letters() -> None:
    from boneyard.tiles import S, W
    assert Layout.accepts(4, 4) and not Layout.accepts(4, 3)
    assert Layout.accepts(4, W) and Layout.accepts(W, 3)
    assert not Layout.accepts(4, S)


def test_a_face_reads_as_its_value_and_owner() -> None:
    assert str(Face(3, 0, FaceKind.OUT, 5)) == "5 on tile 3"
