"""Tests of the benchmarks' quick modes (benchmarks/)."""
