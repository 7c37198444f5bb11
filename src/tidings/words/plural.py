"""English number agreement for the catalogues' templates: "{files} files" reads "1 file" when
`files` is 1. The template is adjusted before it is filled, so data (a title saying "1 files")
is never touched; Chinese templates count with 个 and have nothing to adjust."""

from __future__ import annotations

import re
from collections.abc import Mapping

_SINGULAR = {
    "files": "file",
    "lines": "line",
    "PRs": "PR",
    "issues": "issue",
    "comments": "comment",
    "reviews": "review",
    "participants": "participant",
    "people": "person",
    "times": "time",
    "days": "day",
    "weeks": "week",
    "windows": "window",
    "items": "item",
    "reports": "report",
    "threads": "thread",
    "authors": "author",
    "reviewers": "reviewer",
    "commenters": "commenter",
    "tests": "test",
    "hours": "hour",
    "minutes": "minute",
    "requests": "request",
    "repositories": "repository",
    "changes": "change",
    "merges": "merge",
    "reverts": "revert",
}
# "{n} files", "{code_lines} code lines"; not "{n} comments and reviews", whose singular
# would need rewording rather than agreement.
_COUNTED = re.compile(r"\{(\w+)\}((?: [a-z]+)?) (" + "|".join(_SINGULAR) + r")\b(?! and\b| or\b)")


def agree(template: str, values: Mapping[str, object]) -> str:
    """`template` with each counted noun made singular where its count is 1."""

    def one(m: re.Match[str]) -> str:
        if values.get(m.group(1)) not in (1, "1"):
            return m.group(0)
        return "{" + m.group(1) + "}" + m.group(2) + " " + _SINGULAR[m.group(3)]

    return _COUNTED.sub(one, template)


def fill(template: str, **values: object) -> str:
    """`template.format(**values)` in agreement."""
    return agree(template, values).format(**values)
