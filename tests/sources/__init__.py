"""Tests of the sources (src/tidings/sources)."""
