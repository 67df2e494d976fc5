"""Referee stage: judges table events and button presses (see docs/referee.md)."""

from tablecam.referee.referee import Call, Referee, RefereeRules
from tablecam.referee.table import TableModel, columns_for

__all__ = ["Call", "Referee", "RefereeRules", "TableModel", "columns_for"]
