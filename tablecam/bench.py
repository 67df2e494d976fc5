"""Helpers shared by the stage benchmarks (see ``tablecam.commands.bench``)."""

from __future__ import annotations

import resource
import sys
from dataclasses import asdict, dataclass


@dataclass(frozen=True, slots=True)
class Figure:
    label: str
    value: float
    unit: str

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def peak_memory_mb() -> float:
    """Peak resident memory of this process so far, in MB."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024
