"""``benchmarks/side_look.py`` measures the side look on synthetic views of the training
decks: per deck, faces read right and wrong without it and with it at each suit
threshold, and the side look only ever adds names to what the index corners left
unknown."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tablecam.errors import DeckArtError

SCRIPT = Path(__file__).parents[2] / "benchmarks" / "side_look.py"


def test_the_side_look_is_measured_per_deck_and_threshold() -> None:
    from tablecam.render.decks import find_deck

    try:
        find_deck("gnome-tango_nuevo")
    except DeckArtError as exc:  # pragma: no cover - only without the Debian card art
        pytest.skip(f"deck art unavailable: {exc}")
    out = subprocess.run([sys.executable, str(SCRIPT), "--per-card", "1", "--suits", "0.9", "0.99",
                          "--decks", "gnome-tango_nuevo"], check=True, capture_output=True,
                         text=True).stdout.splitlines()
    assert out[0].startswith("deck") and "SIDE_SUIT 0.9" in out[0] and "SIDE_SUIT 0.99" in out[0]
    deck, faces, right, wrong, _, loose_right, loose_wrong, _, strict_right, strict_wrong = \
        out[1].split()
    assert deck == "gnome-tango_nuevo" and int(faces) == 52
    assert out[2].split()[0] == "all"
    # a looser threshold names at least as many cards as a stricter one, which names at
    # least as many as the index corners alone (the side look names only unknown faces)
    assert int(loose_right) >= int(strict_right) >= int(right)
    assert int(loose_right) + int(loose_wrong) >= int(strict_right) + int(strict_wrong) \
        >= int(right) + int(wrong)
