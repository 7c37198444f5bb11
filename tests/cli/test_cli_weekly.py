"""The command line for the weekly report and the git source."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_cli import Runner, run  # noqa: F401  (the fixture)
from tests.sources.test_git_source import Clone


def _clone(tmp_path: Path) -> Clone:
    clone = Clone(tmp_path / "clone")
    clone.write("engine/gemm.py", "def gemm(m):\n    assert m > 0\n    return m\n")
    clone.commit("[Kernel] Fused GEMM (#11)")
    clone.write("tests/test_gemm.py", "def test_gemm():\n    pass\n")
    clone.commit("[Test] GEMM test (#12)")
    return clone


def test_sync_git_then_weekly_report_offline(run: Runner, tmp_path: Path) -> None:  # noqa: F811
    clone = _clone(tmp_path)
    db = f"sqlite:///{tmp_path / 'git.db'}"
    r = run("--db", db, "sync", "acme/engine", "--git", str(clone.path), "--json")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert (data["commits"], data["prs"], data["skipped"]) == (2, 2, 0)
    again = json.loads(
        run("--db", db, "sync", "acme/engine", "--git", str(clone.path), "--json").out
    )
    assert again["commits"] == 0

    r = run("--db", db, "report", "weekly", "acme/engine", "--week", "2026-W32", "--lang", "en")
    assert r.code == 0, r.err
    assert r.out.startswith("# engine weekly report: 2026 week 32 (08-03 to 08-09)\n")
    assert "assert used for validation" in r.out and "need the GitHub API" in r.out

    out = tmp_path / "w.json"
    r = run("--db", db, "report", "weekly", "acme/engine", "--week", "2026-W32", "--format",
            "json", "--out", str(out))  # fmt: skip
    assert r.code == 0, r.err
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["kind"] == "weekly" and report["week"] == "2026-W32"
    assert [p["item"]["number"] for p in report["merged"]] == [11, 12]


def test_weekly_and_git_mistakes_are_one_line(run: Runner, tmp_path: Path) -> None:  # noqa: F811
    db = f"sqlite:///{tmp_path / 'x.db'}"
    r = run("--db", db, "report", "weekly", "acme/engine", "--week", "2026-33")
    assert r.code == 2 and "is not YYYY-Www" in r.err and "Traceback" not in r.err
    r = run("--db", db, "report", "weekly", "acme/engine", "--week", "2026-W33")
    assert r.code == 1 and "not in the store" in r.err
    r = run("--db", db, "sync", "acme/engine", "--git", str(tmp_path / "nowhere"))
    assert r.code == 1 and "not found" in r.err and len(r.err.strip().splitlines()) == 1
    r = run("--db", db, "sync", "acme/engine", "--git", str(tmp_path), "--since", "2026-01-01")
    assert r.code == 2 and "--since does not apply to --git" in r.err  # contradictory options


def test_demo_writes_weekly_reports(run: Runner, tmp_path: Path) -> None:  # noqa: F811
    out = tmp_path / "demo"
    # PDFs: tests/site/test_site_pdfs.py
    r = run("demo", "--out", str(out), "--no-site", "--no-pdf")
    assert r.code == 0, r.err
    names = sorted(p.name for p in (out / "weekly").iterdir())
    assert names == [
        f"2026-W{w}.{lang}.{fmt}"
        for w in (10, 11)
        for lang in ("en", "zh")
        for fmt in ("json", "md")
    ]
    zh = (out / "weekly" / "2026-W11.zh.md").read_text(encoding="utf-8")
    assert zh.startswith("# RapidInfer 周报 2026 第 11 周（03-09 至 03-15）")
