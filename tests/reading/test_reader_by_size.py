"""``benchmarks/reader_by_size.py`` measures the reader on rendered stills by card width and
lens: each card it counts is one the reader was given whole, and the figures come out per
lens and width band."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("tablecam.render.stills")

SCRIPT = Path(__file__).parents[2] / "benchmarks" / "reader_by_size.py"


def _rows(*flags: str) -> tuple[list[str], list[list[str]]]:
    out = subprocess.run([sys.executable, str(SCRIPT), "--stills", "1", *flags], check=True,
                         capture_output=True, text=True).stdout.splitlines()
    return out, [line.split() for line in out[1:]]


def test_the_reader_is_measured_per_lens_and_card_width() -> None:
    out, rows = _rows()
    assert out[0].split()[:2] == ["lens", "width"] and rows
    assert {row[0] for row in rows} <= {"module3", "module3-wide"}
    for row in rows:
        low, high = (int(x) for x in row[1].split("-"))
        assert high == low + 10 and int(row[2]) > 0
        right, wrong = float(row[3]), float(row[5])
        assert 0.0 <= right <= 100.0 and 0.0 <= wrong <= 100.0 - right
    # the wide lens sees the same table smaller than the Module 3
    widest = {lens: max(int(r[1].split("-")[0]) for r in rows if r[0] == lens) for lens in
              {r[0] for r in rows}}
    if len(widest) == 2:
        assert widest["module3-wide"] < widest["module3"]


def test_the_first_look_alone_names_no_more_cards_than_with_the_second_opinion() -> None:
    # the live table reader reads the columns of larger cards without the second opinion
    _, full = _rows()
    _, alone = _rows("--first-only")
    assert [row[:3] for row in alone] == [row[:3] for row in full]  # the same cards
    for first, both in zip(alone, full, strict=True):
        assert float(first[3]) <= float(both[3])
