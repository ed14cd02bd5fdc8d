"""Rendering: pure functions of a layout or a game (text with Rich, SVG)."""
