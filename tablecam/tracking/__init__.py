"""Tracking stage: from per-frame table readings to table events (see docs/referee.md)."""

from tablecam.tracking.tracker import (
    COLUMN_ZONES,
    Identified,
    PileDoubted,
    PileIdentified,
    Relaid,
    Tracked,
    Tracker,
    Unsure,
)

__all__ = ["COLUMN_ZONES", "Identified", "PileDoubted", "PileIdentified", "Relaid", "Tracked", "Tracker", "Unsure"]
