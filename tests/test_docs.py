"""The documentation keeps up with the code: README stays a front door, every command, option and
config key has its entry in docs/, and every link and every docs page cited in src/ resolves."""

from __future__ import annotations

import re
import types
from pathlib import Path
from typing import Any, Union, get_args, get_origin

import pytest
import typer
from pydantic import BaseModel

from tidings.cli import app
from tidings.common.config import Config

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(
    [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md", *DOCS.glob("*.md")]
)
FENCE = re.compile(r"^(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
LINK = re.compile(r"\]\(([^()\s]+)\)")


def _prose_lines(text: str) -> list[str]:
    """The page's lines outside fenced code blocks (a shell block's `# comment` is no heading)."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line.strip()):
            fenced = not fenced
            continue
        lines.append("" if fenced else line)
    return lines


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, no punctuation or emoji, hyphens for spaces."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    anchors = set()
    for line in _prose_lines(page.read_text(encoding="utf-8")):
        match = HEADING.match(line)
        if match is None:
            continue
        slug = _slug(match.group(2))
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.add(slug if count == 0 else f"{slug}-{count}")
    return anchors


def _sections(page: Path) -> dict[str, str]:
    """Each heading's text (without the #s) mapped to its section, down to the next heading of the
    same or a higher level."""
    lines = _prose_lines(page.read_text(encoding="utf-8"))
    heads = [
        (i, len(m.group(1)), m.group(2))
        for i, line in enumerate(lines)
        if (m := HEADING.match(line))
    ]
    sections = {}
    for n, (start, level, title) in enumerate(heads):
        end = next((i for i, lvl, _ in heads[n + 1 :] if lvl <= level), len(lines))
        sections[title] = "\n".join(lines[start:end])
    return sections


# README: a front door -------------------------------------------------------------------------


def test_readme_is_a_front_door_not_a_manual() -> None:
    assert (ROOT / "README.md").stat().st_size < 15_000


def test_readme_links_every_docs_page() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    linked = {target.split("#")[0] for target in LINK.findall(readme)}
    missing = [
        f"docs/{page.name}" for page in DOCS.glob("*.md") if f"docs/{page.name}" not in linked
    ]
    assert not missing, f"README does not link {missing}"


def test_readme_gives_the_test_command_ci_runs() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = [
        line for line in ci.splitlines() if line.strip() and not line.lstrip().startswith("#")
    ]
    test_command = commands[-1].strip()
    assert test_command.startswith("pytest"), "the last step of .ci/run is the test command"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    install = _sections(ROOT / "README.md")["Install"]
    block = re.search(r"```sh\n(.*?)```", readme[readme.index("## Install") :], re.DOTALL)
    assert block is not None and "tidings demo" in install
    assert any(line.split("#")[0].strip() == test_command for line in block.group(1).splitlines())


# Links ----------------------------------------------------------------------------------------


def _links() -> list[tuple[str, str]]:
    found = []
    for page in PAGES:
        text = "\n".join(_prose_lines(page.read_text(encoding="utf-8")))
        text = re.sub(r"`[^`\n]*`", "", text)  # `[#N](repo_url/pull/N)` in code is an example
        for target in LINK.findall(text):
            if not re.match(r"^[a-z]+:", target):  # http:, https:, mailto: are not ours to check
                found.append((str(page.relative_to(ROOT)), target))
    return found


@pytest.mark.parametrize(("page", "target"), _links())
def test_each_link_between_the_pages_resolves(page: str, target: str) -> None:
    path, _, anchor = target.partition("#")
    file = (ROOT / page).parent / path if path else ROOT / page
    assert file.exists(), f"{page} links a missing {path}"
    if anchor and file.suffix == ".md":
        assert anchor in _anchors(file), f"{page} links #{anchor}, not a heading of {file.name}"


def _src_citations() -> list[tuple[str, str]]:
    cites = []
    for source in sorted((ROOT / "src" / "tidings").rglob("*.py")):
        text = source.read_text(encoding="utf-8")
        name = str(source.relative_to(ROOT))
        cites += [
            (name, m.group(0))
            for m in re.finditer(r"docs/[\w-]+\.md(?:#[\w-]+|: [A-Z][\w' -]*)?", text)
        ]
        cites += [(name, m.group(0)) for m in re.finditer(r"README[:,] [A-Z][\w' -]*", text)]
    return cites


@pytest.mark.parametrize(("source", "cite"), _src_citations())
def test_each_page_the_code_cites_has_what_it_is_cited_for(source: str, cite: str) -> None:
    # Help texts, errors and the starter config send readers to "docs/x.md", "docs/x.md#anchor"
    # or "docs/x.md: Heading" (and "README: Heading"): each must still be there.
    match = re.fullmatch(r"(docs/[\w-]+\.md|README)(?:#([\w-]+)|[:,] (.+))?", cite)
    assert match is not None
    page, anchor, heading = match.groups()
    file = ROOT / ("README.md" if page == "README" else page)
    assert file.exists(), f"{source} cites {cite}"
    if anchor:
        assert anchor in _anchors(file), f"{source} cites {cite}"
    if heading:
        titles = [title.replace("`", "") for title in _sections(file)]
        assert any(title.startswith(heading.strip()) for title in titles), f"{source} cites {cite}"


# Commands and options ---------------------------------------------------------------------------


def _commands() -> list[tuple[str, list[str]]]:
    """Every command of the app as ("tidings report daily", its long options)."""
    found: list[tuple[str, list[str]]] = []

    def walk(command: Any, path: str) -> None:
        if hasattr(command, "commands"):
            for name, sub in command.commands.items():
                walk(sub, f"{path} {name}")
            return
        options = [
            opt
            for param in command.params
            if param.param_type_name == "option"
            for opt in [*param.opts, *param.secondary_opts]
            if opt.startswith("--")
        ]
        found.append((path, options))

    walk(typer.main.get_command(app), "tidings")
    return found


def _global_options() -> list[str]:
    top = typer.main.get_command(app)
    return [
        o
        for p in top.params
        for o in [*p.opts, *getattr(p, "secondary_opts", [])]
        if o.startswith("--")
    ]


def test_the_walk_finds_the_commands_a_user_knows() -> None:
    names = {path for path, _ in _commands()}
    assert {
        "tidings sync",
        "tidings report daily",
        "tidings report weekly",
        "tidings site build",
    } <= names
    assert "--allow-partial" in dict(_commands())["tidings report weekly"]


@pytest.mark.parametrize(
    ("command", "options"), _commands(), ids=[command for command, _ in _commands()]
)
def test_each_command_and_its_options_are_in_the_commands_page(
    command: str, options: list[str]
) -> None:
    sections = _sections(DOCS / "commands.md")
    assert command in sections, f"docs/commands.md has no '## {command}'"
    text = sections[command]
    missing = [
        opt for opt in options if not re.search(rf"(?<![\w-]){re.escape(opt)}(?![\w-])", text)
    ]
    assert not missing, f"docs/commands.md, {command}: {missing} not documented"


def test_the_global_options_are_in_the_commands_page() -> None:
    text = _sections(DOCS / "commands.md")["Global options"]
    missing = [
        opt
        for opt in _global_options()
        if not re.search(rf"(?<![\w-]){re.escape(opt)}(?![\w-])", text)
    ]
    assert {"--db", "--config"} <= set(_global_options())
    assert not missing, f"global options not documented: {missing}"


# Config keys ----------------------------------------------------------------------------------


def _parts(annotation: Any) -> tuple[list[type[BaseModel]], bool, bool]:
    """The config models a field holds, whether as a list (`[[table]]`), and whether it may also be
    a plain value (`discussion = "URL"` or a `[site.discussion]` table)."""
    origin = get_origin(annotation)
    if origin is list:
        inner = get_args(annotation)[0]
        if isinstance(inner, type) and issubclass(inner, BaseModel):
            return [inner], True, False
        return [], False, True
    if origin in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        models = [a for a in args if isinstance(a, type) and issubclass(a, BaseModel)]
        return models, False, len(models) < len(args)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation], False, False
    return [], False, True


def _config_keys() -> list[tuple[str, str]]:
    """Every key as (the heading of its table's section, the key): ("`[repos.risk]`", "top")."""
    keys: list[tuple[str, str]] = []

    def walk(model: type[BaseModel], table: str, heading: str) -> None:
        for name, field in model.model_fields.items():
            if field.exclude:  # Config.path: where the file was found, not a key
                continue
            models, many, plain = _parts(field.annotation)
            if plain:
                keys.append((heading, name))
            for sub in models:
                sub_table = f"{table}.{name}" if table else name
                walk(sub, sub_table, f"`[[{sub_table}]]`" if many else f"`[{sub_table}]`")

    walk(Config, "", "Top level")
    return keys


def test_the_config_walk_reaches_the_nested_tables() -> None:
    keys = set(_config_keys())
    for expected in [
        ("Top level", "maintainers"),
        ("`[[repos]]`", "bots"),
        ("`[[repos.topics]]`", "keywords"),
        ("`[repos.risk]`", "large_ignore"),
        ("`[site]`", "discussion"),
        ("`[site.discussion]`", "repo_id"),
        ("`[notify.discussion]`", "category"),
        ("`[queue]`", "retry_max_wait"),
    ]:
        assert expected in keys


@pytest.mark.parametrize(("table", "key"), _config_keys())
def test_each_config_key_is_in_the_configuration_page(table: str, key: str) -> None:
    sections = _sections(DOCS / "configuration.md")
    assert table in sections, f"docs/configuration.md has no section headed {table}"
    assert f"`{key}`" in sections[table], (
        f"docs/configuration.md, {table}: `{key}` is not documented"
    )
