"""Release-ready packaging (#13): the wheel and sdist build as a release builds them, and the
wheel, installed into a fresh virtual environment with nothing from this checkout, runs the
demo. Slow (a build and an install of every dependency from the package index)."""

from __future__ import annotations

import subprocess
import sys
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [str(a) for a in args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=1200,
        check=False,
        env=env,
    )
    assert done.returncode == 0, f"{args}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout + done.stderr


@pytest.mark.slow
def test_the_wheel_installs_in_a_fresh_venv_and_runs_the_demo(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    _run(sys.executable, "-m", "build", "--outdir", dist, ROOT, cwd=tmp_path)
    (wheel,) = dist.glob("tidings-*.whl")
    (sdist,) = dist.glob("tidings-*.tar.gz")
    names = zipfile.ZipFile(wheel).namelist()
    # What runs from the wheel without the checkout: the demo's sample, the templates, the
    # workflow `init` writes, the type marker.
    for needed in ("tidings/demo/", "tidings/jobs/starter/github-actions.yml", "tidings/py.typed"):
        assert any(n.startswith(needed) for n in names), needed
    assert not any(n.startswith(("tests/", "testkit/")) for n in names)
    with tarfile.open(sdist) as tar:
        members = tar.getnames()
    assert any(m.endswith("/pyproject.toml") for m in members)
    assert any(m.endswith("/src/tidings/jobs/starter/github-actions.yml") for m in members)

    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    _run(python, "-m", "pip", "install", "-q", wheel, cwd=tmp_path)
    clean = {"PATH": f"{env_dir / 'bin'}:/usr/bin:/bin", "HOME": str(tmp_path)}
    # Nothing from this checkout: not on the path, not the working folder.
    where = _run(python, "-c", "import tidings; print(tidings.__file__)", cwd=tmp_path, env=clean)
    assert str(env_dir) in where and str(ROOT) not in where
    out = _run(
        env_dir / "bin" / "tidings",
        "demo",
        "--no-pdf",
        "--out",
        tmp_path / "demo",
        cwd=tmp_path,
        env=clean,
    )
    assert "built the site" in out
    assert (tmp_path / "demo" / "site" / "index.html").is_file()
    # The dev extra stays out of a user's install.
    listed = _run(python, "-m", "pip", "list", "--format=freeze", cwd=tmp_path, env=clean)
    for dev_only in ("pytest", "ruff", "mypy", "playwright", "actionlint"):
        assert dev_only not in listed.lower(), dev_only
