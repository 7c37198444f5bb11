"""The package's shape as pyproject.toml declares it, checked by the tools made for it.

`lint-imports` checks the import-linter contracts (the pipeline's layer order, render and site
reading only typed report models, sources importing no SQLAlchemy, shared helpers importing no
layer, no import cycles) and `mypy src/tidings` the type annotations, so `pytest` (the README's
one test command, and CI) fails when either breaks. A missing tool is a failure, never a skip.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    # The checked package is this checkout's, whatever else the interpreter could import.
    path = os.pathsep.join(p for p in (str(ROOT / "src"), os.environ.get("PYTHONPATH")) if p)
    return subprocess.run(
        [sys.executable, "-c", *args],
        cwd=ROOT,
        env=os.environ | {"PYTHONPATH": path},
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_import_contracts_hold() -> None:
    # The console script's entry point, run with this interpreter (no PATH lookup).
    result = _run(
        "import sys; from importlinter.cli import lint_imports_command as c; sys.exit(c())"
    )
    report = result.stdout + result.stderr
    assert result.returncode == 0, report
    assert "0 broken" in report and "5 kept" in report, report


@pytest.mark.slow  # a cold run type-checks the whole package (~30 s on two cores)
def test_mypy_passes() -> None:
    result = _run(
        "import sys; from mypy import api; out, err, code = api.run(['src/tidings']);"
        " print(out, err); sys.exit(code)"
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout, result.stdout
