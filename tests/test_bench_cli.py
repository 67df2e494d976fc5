"""``tablecam bench``: figures printed as a table or JSON, with the machine's load."""

from __future__ import annotations

import argparse
import json

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


@pytest.mark.usefixtures("fake")
def test_an_unknown_benchmark_is_named_in_the_error() -> None:
    with pytest.raises(TablecamError, match="no benchmark named nope; choose from fake"):
        bench.run(_args("nope"))


def test_load_average_is_a_non_negative_number() -> None:
    assert load_average() >= 0.0
