"""Tests of the demo snapshot (src/tidings/demo)."""
