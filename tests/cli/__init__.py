"""Tests of the command line (src/tidings/cli), as users run it."""
