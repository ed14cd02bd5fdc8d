"""The variants.  Importing this package registers every one of them."""

from boneyard.rules import all_fives, bergen, block, double_bergen, draw, flower_scorpion, pip
from boneyard.rules.base import VARIANTS, Rules, find_variant, make_rules

__all__ = [
    "VARIANTS", "Rules", "all_fives", "bergen", "block", "double_bergen", "draw", "find_variant", "flower_scorpion",
    "make_rules", "pip",
]
