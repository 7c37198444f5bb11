"""Tests of testkit/ itself: the loopback GitHub and the synthetic data."""
