"""The package's shape as pyproject.toml declares it, checked by the tools made for it.

`lint-imports` checks the import-linter contracts (the pipeline's layer order, render and site
reading only typed report models, sources importing no SQLAlchemy, facts reading the store only
through facts/load, shared helpers importing no layer, no import cycles) and `mypy src/tidings`
the type annotations, so `pytest` (the README's one test command, and CI) fails when either
breaks. A missing tool is a failure, never a skip.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str, root: Path = ROOT) -> subprocess.CompletedProcess[str]:
    # The checked package is this checkout's, whatever else the interpreter could import.
    path = os.pathsep.join(p for p in (str(root / "src"), os.environ.get("PYTHONPATH")) if p)
    return subprocess.run(
        [sys.executable, "-c", *args],
        cwd=root,
        env=os.environ | {"PYTHONPATH": path},
        capture_output=True,
        text=True,
        timeout=600,
    )


# The console script's entry point, run with this interpreter (no PATH lookup).
LINT_IMPORTS = "import sys; from importlinter.cli import lint_imports_command as c; sys.exit(c())"


def test_import_contracts_hold() -> None:
    result = _run(LINT_IMPORTS)
    report = result.stdout + result.stderr
    assert result.returncode == 0, report
    assert "0 broken" in report and "7 kept" in report, report


@pytest.mark.parametrize(
    ("line", "broken"),
    [
        ("import sqlalchemy", "only facts/load reads the store BROKEN"),
        ("from tidings.store.gaps import read_gaps", "only facts/load reads the store BROKEN"),
        ("from tidings.facts.load.merged import load_merged", "imports a loader (so none"),
    ],
)
def test_a_store_import_in_the_risk_rules_breaks_a_contract(
    tmp_path: Path, line: str, broken: str
) -> None:
    """The facts contracts are not vacuous: the rules' module (a copy of this checkout's
    package) importing SQLAlchemy, the store or a loader fails `lint-imports`."""
    shutil.copytree(
        ROOT / "src" / "tidings",
        tmp_path / "src" / "tidings",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    risk = tmp_path / "src" / "tidings" / "facts" / "risk.py"
    risk.write_text(risk.read_text() + f"\n{line}  # noqa\n")
    result = _run(LINT_IMPORTS, root=tmp_path)
    report = result.stdout + result.stderr
    assert result.returncode != 0, report
    assert broken in report, report
    assert "tidings.facts.risk ->" in report, report


@pytest.mark.slow  # a cold run type-checks the whole package (~30 s on two cores)
def test_mypy_passes() -> None:
    result = _run(
        "import sys; from mypy import api; out, err, code = api.run(['src/tidings']);"
        " print(out, err); sys.exit(code)"
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout, result.stdout
