"""sim stage of tablecam (see docs/ARCHITECTURE.md)."""
