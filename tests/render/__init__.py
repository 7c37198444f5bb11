"""Tests of rendering (src/tidings/render), hostile input through every output."""
