"""Tests of the store (src/tidings/store)."""
