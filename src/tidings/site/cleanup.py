"""Removing what the site no longer holds. Only files the last build recorded (site/manifest.py)
are touched, so nothing else in --out is ever deleted."""

from __future__ import annotations

from collections.abc import Iterable

from tidings.site.output import Output


def remove_gone(
    output: Output, published: Iterable[str], kept: Iterable[str], repos: Iterable[str]
) -> None:
    """A report no longer in the reports folder leaves the site: its page and downloads,
    and its project's page and feed when it was the project's last report. `published` and
    `kept` are the report stems of the last build and of this one."""
    published, kept = set(published), set(kept)
    for stem in sorted(published - kept):
        for suffix in (".html", ".json", ".md", ".pdf"):
            output.remove(stem + suffix)
    live = {"/".join(stem.split("/", 2)[:2]).lower() for stem in kept}
    live |= {repo.lower() for repo in repos}
    for project in sorted({"/".join(stem.split("/", 2)[:2]) for stem in published}):
        if project.lower() not in live:
            output.remove(f"{project}/index.html")
            output.remove(f"{project}/feed.xml")


def remove_unmade(output: Output, before: set[str], now: set[str]) -> None:
    """Pages, feeds and search files an earlier build made and this one did not: the month
    pages, feeds and search files of reports and projects gone."""
    for rel in sorted(before - now):
        output.remove(rel)
