"""``tablecam bench``: figures printed as a table or JSON, with the machine's load."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tablecam.bench import Figure, load_average
from tablecam.commands import bench
from tablecam.errors import TablecamError


def _args(*names: str, as_json: bool = False) -> argparse.Namespace:
    return argparse.Namespace(names=list(names), list=False, quick=True, json=as_json)


@pytest.fixture()
def fake(monkeypatch: pytest.MonkeyPatch) -> None:
    figures = {"fake": lambda quick: [Figure("full read", 12.5 if quick else 99.0, "ms")]}
    monkeypatch.setattr(bench, "available", lambda: figures)


@pytest.mark.usefixtures("fake")
def test_figures_are_printed_with_the_machine_s_load_last(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.run(_args("fake")) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["fake", "full", "read", "12.50", "ms"]
    assert lines[-1].split()[0] == "machine" and "load average" in lines[-1]


@pytest.mark.usefixtures("fake")
def test_json_has_one_object_per_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.run(_args(as_json=True)) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows[0] == {"bench": "fake", "label": "full read", "value": 12.5, "unit": "ms"}
    assert rows[-1]["bench"] == "machine" and rows[-1]["value"] >= 0.0


def test_a_long_benchmark_runs_only_when_named(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert "pipeline-hour" in bench.named_only()  # about ten minutes
    figures = {"short": lambda quick: [Figure("quick one", 1.0, "ms")],
               "long": lambda quick: [Figure("an hour of it", 60.0, "min")]}
    monkeypatch.setattr(bench, "available", lambda: figures)
    monkeypatch.setattr(bench, "named_only", lambda: {"long"})
    assert bench.run(_args()) == 0
    assert "an hour of it" not in capsys.readouterr().out
    assert bench.run(_args("long")) == 0
    assert "an hour of it" in capsys.readouterr().out


@pytest.mark.usefixtures("fake")
def test_an_unknown_benchmark_is_named_in_the_error() -> None:
    with pytest.raises(TablecamError, match="no benchmark named nope; choose from fake"):
        bench.run(_args("nope"))


def test_load_average_is_a_non_negative_number() -> None:
    assert load_average() >= 0.0


def test_the_hour_long_pipeline_bench_plays_a_recording_again_and_again_as_one(tmp_path: Path) -> None:
    from tablecam.tracking.bench import LoopedRecording, _recording_period

    for i in range(3):
        cv2.imwrite(str(tmp_path / f"{i:03d}.png"), np.full((8, 8, 3), 40 * i, np.uint8))
    spec = f"frames:{tmp_path}"
    period = _recording_period(spec)
    assert period == pytest.approx(3 / 15)  # a frames folder opened so plays at 15 frames a second
    looped = LoopedRecording(spec, loops=2, period=period + 0.2)
    frames = []
    while (frame := looped.read()) is not None:
        frames.append(frame)
    # the second pass 0.2 s after the first ends, the first frame filling the pause
    assert [f.t for f in frames] == pytest.approx([k / 15 for k in range(9)])
    assert [int(f.image[0, 0, 0]) for f in frames] == [0, 40, 80, 0, 0, 0, 0, 40, 80]
    assert sorted(looped.rss_at) == pytest.approx([0.0, 0.4, 0.8])
    assert all(mb > 0 for mb in looped.rss_at.values())
    looped.close()


def test_the_hour_long_bench_measures_memory_growth_between_the_starts_of_games() -> None:
    from tablecam.tracking.bench import memory_marks

    # passes begin every 100 s; the run ends mid-game, with 10 MB more held than idle
    rss_at = {100.0 * k: 150.0 + (20.0 if k else 0.0) + 0.001 * k for k in range(37)}
    rss_at[3700.0] = rss_at[3600.0] + 10.0
    first, ten, (last_t, last), growth = memory_marks(rss_at)
    assert (first, ten, last_t) == pytest.approx((170.001, 170.006, 3600.0))
    assert last == pytest.approx(170.036)
    assert growth == pytest.approx(0.030 * 3600.0 / 3000.0)  # not the run end's 10 MB more
