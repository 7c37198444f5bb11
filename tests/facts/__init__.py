"""Tests of the facts (src/tidings/facts)."""
