"""Tests of the GitHub source (src/tidings/sources/github)."""
