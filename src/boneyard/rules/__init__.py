"""The variants.  Importing this package registers every one of them."""

from boneyard.rules import all_fives, block, draw
from boneyard.rules.base import VARIANTS, Rules, find_variant, make_rules

__all__ = ["VARIANTS", "Rules", "all_fives", "block", "draw", "find_variant", "make_rules"]
