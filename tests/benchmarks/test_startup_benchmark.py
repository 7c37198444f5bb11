"""The start-up benchmark runs and says what `tidings --help` loads: no database layer, model,
renderer or Markdown parser (the figures themselves are the benchmark's to print, not a test's)."""

from __future__ import annotations

from benchmarks import startup


def test_the_startup_benchmark_reports_every_command_and_help_loads_nothing_heavy() -> None:
    result = startup.measure(runs=1)
    assert set(result["commands"]) == set(startup.COMMANDS)
    for name, row in result["commands"].items():
        assert row["median_s"] > 0 and row["min_s"] <= row["median_s"], name
        if name != "python -c pass":
            assert row["loads"] == [], f"{name} loads {row['loads']}"
    assert "tidings --help under 0.3 s:" in startup.render(result)


def test_the_probe_sees_a_heavy_import() -> None:
    env = startup._env()
    assert startup._loaded(["-c", "import sqlalchemy"], env) == ["sqlalchemy"]
