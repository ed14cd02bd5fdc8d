"""The Ray backend plays the same games as the process pool: identical results for the same seed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from boneyard.sim.tournament import make_settings, results_only, run_tournament

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'boneyard[ray]')")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_ray_and_local_give_identical_results(local_ray: None, tmp_path: Path) -> None:
    settings = make_settings("all-fives", ["random", "greedy", "random"], games=4, seed=11, options={"target": 60})
    local = run_tournament(settings, workers=2)
    remote = run_tournament(settings, backend="ray", out=tmp_path)
    assert remote.played == len(local.records) == 3 * 4
    assert results_only(remote.records) == results_only(local.records)
    resumed = run_tournament(settings, backend="ray", out=tmp_path)
    assert resumed.played == 0


def test_simulate_on_ray_gives_the_same_summary_as_the_process_pool(local_ray: None) -> None:
    from boneyard.sim.simulate import simulate

    local = simulate("block", 2, 30, seed=4, ai="greedy,random", workers=2)
    remote = simulate("block", 2, 30, seed=4, ai="greedy,random", backend="ray")
    assert remote["backend"] == "ray"
    timing = ("seconds", "games_per_second", "backend")
    assert {k: v for k, v in remote.items() if k not in timing} == {k: v for k, v in local.items() if k not in timing}
