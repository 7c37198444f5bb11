"""A report page's title keeps each date on one line: a phone otherwise breaks "03-15" after
its hyphen. The text stays the same and stays escaped."""

from __future__ import annotations

import lxml.html

from tidings.render.html import unbroken_dates


def test_dates_and_weeks_are_wrapped_and_the_rest_is_escaped() -> None:
    got = str(unbroken_dates("<b>R&D</b> weekly: 2026 week 11 (03-09 to 03-15), 2026-W11"))
    assert "<b>" not in got and "&lt;b&gt;R&amp;D&lt;/b&gt;" in got
    tree = lxml.html.fragment_fromstring(got, create_parent="h1")
    assert [s.text for s in tree.findall("span")] == ["03-09", "03-15", "2026-W11"]
    assert all(s.get("class") == "nw" for s in tree.findall("span"))
    assert tree.text_content() == "<b>R&D</b> weekly: 2026 week 11 (03-09 to 03-15), 2026-W11"


def test_a_title_without_dates_is_only_escaped() -> None:
    assert str(unbroken_dates("a < b")) == "a &lt; b"
    assert str(unbroken_dates("RapidInfer 开发动态报告 - 2026-03-10")) == (
        'RapidInfer 开发动态报告 - <span class="nw">2026-03-10</span>'
    )
