"""Tests of the report models and writers (src/tidings/report)."""
