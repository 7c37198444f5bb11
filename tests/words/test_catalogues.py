"""Every word a report or the site says exists in both languages (CONTRIBUTING.md: a word)."""

from __future__ import annotations

import pytest

from tidings.words import daily, evidence, site, weekly

# The zh weekly names a theme in Chinese beside its tag, label or directory
# ("缺陷修复（[BugFix]）"); the en weekly names it by the tag itself, so these keys are
# Chinese alone.
ZH_ONLY = {"theme_named_tag", "theme_named_path", "theme_named_label"}


@pytest.mark.parametrize("catalogue", [daily, weekly, site, evidence], ids=lambda m: m.__name__)
def test_each_key_is_in_both_languages(catalogue: object) -> None:
    text: dict[str, dict[str, str]] = catalogue.TEXT  # type: ignore[attr-defined]
    assert set(text) == {"zh", "en"}
    assert set(text["zh"]) - ZH_ONLY == set(text["en"])


@pytest.mark.parametrize("key", sorted(ZH_ONLY))
def test_the_zh_only_keys_are_the_theme_names(key: str) -> None:
    assert key in weekly.TEXT["zh"]
    assert key not in weekly.TEXT["en"]
