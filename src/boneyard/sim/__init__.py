"""Simulations, tournaments and statistics: computer-only games on every core."""
