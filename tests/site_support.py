"""Shared pieces of the site tests: the demo site, hostile reports, tool checks, HTML parsing."""

from __future__ import annotations

import copy
import json
import os
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

# Payloads that would run, load or link something if any renderer let them through as markup.
SCRIPT = "<script>window.__pwned='script';alert(1)</script>"
IMG = "<img src=x onerror=\"window.__pwned='img'\">"
JS_LINK = "<a href=\"javascript:window.__pwned='a'\">click</a>"
MD_LINK = "[docs](javascript:window.__pwned='md') ![i](x onerror=alert(1)) [r]: javascript:alert(1)"
HOSTILE_TEXT = f"{SCRIPT} {IMG} {JS_LINK} {MD_LINK}"
HOSTILE_LOGIN = "<script>alert('login')</script>"
HOSTILE_LABEL = "<img src=x onerror=alert('label')>"


def require_tool(path_or_name: str, why: str) -> str:
    """The tool's path; a stated skip locally when it is missing, a failure under CI=true."""
    found = shutil.which(path_or_name) or (path_or_name if Path(path_or_name).is_file() else None)
    if found:
        return found
    reason = f"{path_or_name} is not installed, so {why} cannot run (apt-get install it)"
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}; CI=true requires it")
    pytest.skip(reason)


def run_demo(out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`tidings demo --out OUT` in a fresh interpreter, as a user runs it."""
    env = {k: v for k, v in os.environ.items() if k != "TIDINGS_DB"}
    return subprocess.run(
        [sys.executable, "-m", "tidings.cli", "demo", "--out", str(out), *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=600,
    )


def poison(node: Any) -> Any:
    """A copy of a report's JSON with hostile text in every title, prose text, login and label."""
    node = copy.deepcopy(node)

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key in {"title", "text"} and isinstance(item, str):
                    value[key] = f"{item} {HOSTILE_TEXT}"
                elif key in {"author", "login"} and isinstance(item, str):
                    value[key] = HOSTILE_LOGIN
                elif key == "labels" and isinstance(item, list):
                    value[key] = [*item, HOSTILE_LABEL]
                else:
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(node)
    node["project"] = f"Evil {SCRIPT}"
    return node


def write_hostile_reports(demo_daily: Path, target: Path, day: str = "2026-03-10") -> list[Path]:
    """The demo's reports for `day` (zh and en), poisoned, under `target`."""
    written = []
    for lang in ("zh", "en"):
        data = json.loads((demo_daily / f"{day}.{lang}.json").read_text("utf-8"))
        path = target / "daily" / f"{day}.{lang}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(poison(data), ensure_ascii=False, indent=2), "utf-8")
        written.append(path)
    return written


class PageParser(HTMLParser):
    """Tags, attributes, links and text of a page, as a browser's parser sees them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    @property
    def hrefs(self) -> list[str]:
        return [a["href"] or "" for tag, a in self.tags if tag in {"a", "link"} and "href" in a]

    @property
    def ids(self) -> set[str]:
        return {a["id"] or "" for _, a in self.tags if "id" in a}


def parse_page(html: str) -> PageParser:
    parser = PageParser()
    parser.feed(html)
    parser.close()
    return parser
