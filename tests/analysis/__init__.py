"""Tests of the model layer (src/tidings/analysis)."""
