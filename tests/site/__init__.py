"""Tests of the static site (src/tidings/site)."""
