"""tracking stage of tablecam (see docs/ARCHITECTURE.md)."""
