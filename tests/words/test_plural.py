"""English number agreement in the catalogues: "1 file changed", never "1 files changed"."""

from __future__ import annotations

import pytest

from tidings.words import daily, weekly
from tidings.words.plural import agree, fill


@pytest.mark.parametrize(
    ("template", "values", "expected"),
    [
        ("{files} files changed", {"files": 1}, "1 file changed"),
        ("{files} files changed", {"files": 2}, "2 files changed"),
        ("{files} files changed", {"files": 0}, "0 files changed"),
        (
            "{code_lines} code lines in {code_files} files",
            {"code_lines": 1, "code_files": 1},
            "1 code line in 1 file",
        ),
        ("{path} ({lines} lines)", {"path": "a.py", "lines": "1"}, "a.py (1 line)"),
        ("by {n} authors, mostly", {"n": 1}, "by 1 author, mostly"),
        ("And {n} more PRs.", {"n": 1}, "And 1 more PR."),
        # Rewording, not agreement, would fix these: they stay as written.
        ("{n} comments and reviews", {"n": 1}, "1 comments and reviews"),
        # Chinese counts with 个.
        ("改动 {files} 个文件", {"files": 1}, "改动 1 个文件"),
    ],
)
def test_fill_agrees_with_the_count(template: str, values: dict, expected: str) -> None:
    assert fill(template, **values) == expected


def test_data_is_never_adjusted_only_the_template() -> None:
    assert fill("{title}: {files} files", title="Fix 1 files bug", files=1) == (
        "Fix 1 files bug: 1 file"
    )
    assert agree("{files} files", {"files": 1}) == "{files} file"


def test_the_catalogues_speak_in_agreement() -> None:
    assert weekly.wt("en", "appendix_size", files=1, lines=1) == "1 file, 1 line"
    assert weekly.wt("en", "appendix_size", files=3, lines=40) == "3 files, 40 lines"
    assert daily.t("zh", "change_size", additions=1, deletions=0, files=1).endswith("1 个文件")
