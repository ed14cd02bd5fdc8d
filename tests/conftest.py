"""Shared test settings: Hypothesis profiles.

Choose one with ``HYPOTHESIS_PROFILE``:

* ``default`` — a few hundred random games in all (well under a minute on two cores);
* ``ci`` — about four times as many, derandomized so a CI run is repeatable;
* ``thorough`` — thousands of games, for a release or after changing the engine.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_COMMON = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}

settings.register_profile("default", max_examples=10, **_COMMON)  # type: ignore[arg-type]
settings.register_profile("ci", max_examples=40, derandomize=True, **_COMMON)  # type: ignore[arg-type]
settings.register_profile("thorough", max_examples=400, **_COMMON)  # type: ignore[arg-type]
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
