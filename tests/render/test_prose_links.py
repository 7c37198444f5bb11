"""`#N` and `@login` in model-written prose become links, in Markdown and HTML, only where the
report itself carries that item or person (render/common.py `known_refs`); the link's target
is built from the report's repository URL, never taken from the text. Titles, excerpts, the
rules' prose and citations the report does not know stay inert, whatever a stranger wrote.

The reports are the demo's, written by the rules; a test puts model text (`by="llm"`) where
the model would, so each case says exactly which tokens the prose holds."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import lxml.html
import pytest

from tests import report_checks
from tidings.common.config import load_config
from tidings.demo import CONFIG_PATH, REPO, SAMPLE_PATH
from tidings.render import common as c
from tidings.render.html import render_daily_html, render_weekly_html
from tidings.render.markdown import render_daily_markdown
from tidings.render.weekly_markdown import render_weekly_markdown
from tidings.report import model as m
from tidings.report.daily import build_daily
from tidings.report.weekly import build_weekly
from tidings.report.weekly_model import WeeklyReport
from tidings.sources.snapshot import import_snapshot
from tidings.store import Store

NOW = datetime(2026, 3, 20, tzinfo=UTC)
ZWSP = "\u200b"
PROFILE = "https://github.com/"


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[WeeklyReport, m.DailyReport]:
    store = Store.open(f"sqlite:///{tmp_path_factory.mktemp('links') / 'demo.db'}")
    try:
        import_snapshot(store, SAMPLE_PATH)
        settings = load_config(CONFIG_PATH).repo(REPO)
        week = build_weekly(store, settings, 2026, 10, "en", now=NOW)
        day = build_daily(store, settings, date(2026, 3, 4), "en", now=NOW)
        return week, day
    finally:
        store.close()


@pytest.fixture
def week(demo: tuple[WeeklyReport, m.DailyReport]) -> WeeklyReport:
    """Week 10 in English, a copy each test may write model prose into."""
    return demo[0].model_copy(deep=True)


@pytest.fixture
def day(demo: tuple[WeeklyReport, m.DailyReport]) -> m.DailyReport:
    return demo[1].model_copy(deep=True)


def llm(text: str) -> m.Prose:
    return m.Prose(text=text, by="llm")


def cited(week: WeeklyReport) -> tuple[int, str, int]:
    """A merged PR other than the first highlight's (so the highlight's own rule-written link
    does not count), its author, and the first highlight's number."""
    lead = week.highlights[0].item.number
    pr = next(p for p in week.merged if p.item.number != lead and p.item.author)
    assert pr.item.author is not None
    return pr.item.number, pr.item.author, lead


def _md_line(markdown: str, marker: str) -> str:
    """The one line of the Markdown holding `marker`."""
    lines = [line for line in markdown.splitlines() if marker in line]
    assert len(lines) == 1, lines
    return lines[0]


def _md_links(line: str) -> list[tuple[str, str]]:
    """(link text, href) of each link markdown-it builds from one line."""
    out = []
    tokens = list(report_checks.walk(report_checks.parser().parse(line)))
    for k, token in enumerate(tokens):
        if token.type == "link_open":
            out.append((tokens[k + 1].content, str(token.attrs["href"])))
    return out


def _html_item(html: str, marker: str) -> Any:
    """The innermost element of the page whose own text holds `marker`."""
    doc = lxml.html.fromstring(html)
    hits = [e for e in doc.iter() if marker in (e.text or "") + (e.tail or "")]
    assert hits, marker
    node = hits[0]
    return node if marker in (node.text or "") else node.getparent()


def _html_links(node: Any) -> list[tuple[str, str]]:
    return [(a.text_content(), a.get("href")) for a in node.iter("a")]


# -- what becomes a link ----------------------------------------------------------------------


def test_model_highlight_links_its_known_number_and_login(week: WeeklyReport) -> None:
    number, author, lead = cited(week)
    pr_url = f"{week.repo_url}/pull/{number}"
    week.highlights[0].text = llm(f"Marker one builds on #{number} by @{author}, see `#{number}`.")
    line = _md_line(render_weekly_markdown(week), "Marker one")
    assert _md_links(line) == [
        (f"#{lead}", f"{week.repo_url}/pull/{lead}"),  # the rule-written link before the text
        (f"#{number}", pr_url),
        (f"@{author}", PROFILE + author),
    ]
    assert f"[#{number}]({pr_url}) by [@{author}]({PROFILE}{author})" in line  # as the rules'
    assert f"`#{number}`" in line  # a code span stays code, unlinked
    li = _html_item(render_weekly_html(week), "Marker one")
    assert _html_links(li) == [
        (f"#{lead}", f"{week.repo_url}/pull/{lead}"),
        (f"#{number}", pr_url),
        (f"@{author}", PROFILE + author),
    ]
    assert [x.text_content() for x in li.iter("code")] == [f"#{number}"]


def test_every_model_section_links_in_markdown_and_html(week: WeeklyReport) -> None:
    """Prose of each kind the model writes: summary, themes, risks, exec, trends, follow-ups,
    a PR's summary and its why line."""
    number, author, _ = cited(week)
    pr = next(p for p in week.key_prs if p.item.number != number)
    cite = f"#{number} by @{author}"
    week.summary = llm(f"SumMark {cite}.")
    week.key_changes[0].text = llm(f"ThemeMark {cite}.")
    week.risk_observations[0].observation = llm(f"ObsMark {cite}.")
    week.risk_observations[0].follow_up = llm(f"CheckMark {cite}.")
    week.executive_summary.text = llm(f"ExecMark {cite}.")
    week.module_trends.text = llm(f"TrendMark {cite}.")
    week.follow_ups[0].text = llm(f"FollowMark {cite}")
    pr.why = llm(f"WhyMark {cite}.")
    week.key_changes[0].items[0].summary = llm(f"PrMark {cite}.")
    md, html = render_weekly_markdown(week), render_weekly_html(week)
    want = [(f"#{number}", f"{week.repo_url}/pull/{number}"), (f"@{author}", PROFILE + author)]
    for marker in ("Sum", "Theme", "Obs", "Check", "Exec", "Trend", "Follow", "Why", "Pr"):
        assert _has_run(_md_links(_md_line(md, f"{marker}Mark ")), want), marker
        assert _has_run(_html_links(_html_item(html, f"{marker}Mark ")), want), marker


def _has_run(links: list[tuple[str, str]], want: list[tuple[str, str]]) -> bool:
    return any(links[k : k + len(want)] == want for k in range(len(links)))


def test_daily_model_prose_links_people_and_linked_issues(day: m.DailyReport) -> None:
    """The daily: a person the report carries only as a viewpoint, an issue only as a key
    change's `linked_issues`, and a login written in another case."""
    hot = day.hot_discussions[0]
    viewer = next(v.login for v in hot.viewpoints if v.login)
    change = next((k for k in day.key_changes if k.linked_issues), None)
    issue = change.linked_issues[0] if change else hot.item.number
    refs = {r.number: r.kind for r in [*day.appendix.new_prs, *day.appendix.merged_prs]}
    kind = "pull" if refs.get(issue, hot.item.kind if not change else "issue") == "pr" else "issues"
    hot.core_topic = llm(f"Core marker: @{viewer.upper()} asks about #{issue}.")
    want = [(f"@{viewer}", PROFILE + viewer), (f"#{issue}", f"{day.repo_url}/{kind}/{issue}")]
    assert _md_links(_md_line(render_daily_markdown(day), "Core marker")) == want
    assert _html_links(_html_item(render_daily_html(day), "Core marker")) == want


def test_rules_prose_links_only_the_numbers_its_writer_placed(week: WeeklyReport) -> None:
    """`Prose.refs`: "the most important is #N" names a PR of the report itself; the same
    sentence quoting a title's `#M` and `@login` keeps them text, and a placed number the
    report does not carry (a hand-edited JSON) is no link either."""
    number, author, lead = cited(week)
    pr_url = f"{week.repo_url}/pull/{number}"
    week.key_changes[0].text = m.Prose(
        text=f"Rules ref marker: the most important is #{number}; quoting #{lead} @{author} "
        "and #999999.",
        refs=[number, 999999],
    )
    line = _md_line(render_weekly_markdown(week), "Rules ref marker")
    assert _md_links(line) == [(f"#{number}", pr_url)]
    assert f"#{ZWSP}{lead} @{ZWSP}{author}" in line and f"#{ZWSP}999999" in line
    node = _html_item(render_weekly_html(week), "Rules ref marker")
    assert _html_links(node) == [(f"#{number}", pr_url)]


def test_the_weeklys_rule_sentences_link_the_numbers_they_name(week: WeeklyReport) -> None:
    """The demo's week 10 reverts #4217 by #4254 and has an AMD/ROCm track: the summary, the
    track's "most important" and the revert's follow-up cite those PRs as links."""
    assert week.summary.by == "rules" and set(week.summary.refs) == {4217, 4254}
    md = render_weekly_markdown(week)
    summary = _md_links(_md_line(md, "Reverts this week"))
    assert ("#4254", f"{week.repo_url}/pull/4254") in summary
    assert ("#4217", f"{week.repo_url}/pull/4217") in summary
    track = week.tracks[0]
    assert track.text.refs and f"[#{track.text.refs[0]}]" in md
    follow = next(r.follow_up for r in week.risk_observations if r.follow_up and r.follow_up.refs)
    assert follow.refs == [4217] and f"[#4217]({week.repo_url}/pull/4217)" in md


# -- what stays inert -------------------------------------------------------------------------


def test_the_same_tokens_in_titles_excerpts_and_rules_prose_stay_inert(week: WeeklyReport) -> None:
    number, author, _ = cited(week)
    tokens = f"#{number} @{author}"
    plain_md, plain_html = render_weekly_markdown(week), render_weekly_html(week)
    week.highlights[0].item.title = f"Title marker {tokens}"
    week.key_changes[0].text = m.Prose(text=f"Rules marker {tokens}", by="rules")
    week.key_changes[0].items[0].summary = m.Prose(text=f"Quote marker {tokens}", by="rules")
    md, html = render_weekly_markdown(week), render_weekly_html(week)
    # Not one link more than the report had: every token above is text.
    assert sorted(report_checks.links(md)) == sorted(report_checks.links(plain_md))
    assert _hrefs(html) == _hrefs(plain_html)
    for marker in ("Title marker", "Rules marker", "Quote marker"):
        line = _md_line(md, marker)
        assert f"#{ZWSP}{number} @{ZWSP}{author}" in line, marker  # no GitHub autolink
        assert (f"#{number}", f"{week.repo_url}/pull/{number}") not in _md_links(line)


def test_unknown_citations_in_model_prose_stay_inert(week: WeeklyReport) -> None:
    """A hand-edited report JSON citing what the report does not carry: text, not a link."""
    _, author, _ = cited(week)
    # The same paragraph citing nothing (the rules' may link the PR a revert names).
    week.highlights[0].text = llm("Unknown marker.")
    plain = render_weekly_markdown(week)
    week.highlights[0].text = llm(
        f"Unknown marker #999999, @nobody-here, foo@{author}, owner/other#{cited(week)[0]}, "
        f"@{author}/team, #0{cited(week)[0]}."
    )
    md = render_weekly_markdown(week)
    assert sorted(report_checks.links(md)) == sorted(report_checks.links(plain))
    line = _md_line(md, "Unknown marker")
    assert f"#{ZWSP}999999" in line and f"@{ZWSP}nobody-here" in line
    html = render_weekly_html(week)
    li = _html_item(html, "Unknown marker")
    assert [href for _, href in _html_links(li)] == [f"{week.repo_url}/pull/{cited(week)[2]}"]
    assert "#999999" in li.text_content() and "@nobody-here" in li.text_content()


@pytest.mark.parametrize(
    "hostile",
    [
        "[x](javascript:alert(1)) and [#{n}](http://evil.example/)",
        "<script>alert(1)</script> <a href='http://evil.example/'>#{n}</a>",
        "#{n}](http://evil.example/) and @{a}](javascript:alert(1))",
        "![img](http://evil.example/i.png) wow!#{n} and hey!@{a}",
        "<http://evil.example/#{n}> www.evil.example/@{a} http://evil.example/#{n}",
        "[ref]: http://evil.example/ \n[#{n}][ref] `[#{n}](http://evil.example/)`",
    ],
)
def test_hostile_model_prose_links_only_to_our_targets(week: WeeklyReport, hostile: str) -> None:
    number, author, lead = cited(week)
    text = "Hostile marker " + hostile.format(n=number, a=author)
    week.highlights[0].text = llm(text)
    md = render_weekly_markdown(week)
    # No image, HTML or bare reference anywhere; links only to the report's items and people.
    known = c.known_refs(week)
    report_checks.check_structure(md, repo=REPO, numbers=set(known.items), logins=_logins(week))
    ours = {f"{week.repo_url}/pull/{number}", f"{week.repo_url}/pull/{lead}", PROFILE + author}
    line = _md_line(md, "Hostile marker")
    assert {href for _, href in _md_links(line)} <= ours
    assert "evil" not in "".join(href for _, href in _md_links(line))
    li = _html_item(render_weekly_html(week), "Hostile marker")
    assert {href for _, href in _html_links(li)} <= ours
    assert not list(li.iter("script", "img"))


def _hrefs(html: str) -> list[str]:
    return sorted(a.get("href") for a in lxml.html.fromstring(html).iter("a"))


def _logins(week: WeeklyReport) -> set[str]:
    return set(c.known_refs(week).logins.values())


# -- which citations the report knows ---------------------------------------------------------


def test_known_refs_are_the_reports_items_and_people(day: m.DailyReport) -> None:
    known = c.known_refs(day)
    refs = [*day.appendix.merged_prs, *day.appendix.new_issues, *day.appendix.new_prs]
    assert refs and all(known.items[r.number] == r.kind for r in refs)
    assert all(x.login.lower() in known.logins for x in day.activity.top_authors if not x.git_name)
    for k in day.key_changes:
        assert set(k.linked_issues) <= set(known.items)
    # A git author's name is text anyone can set: never a person to link.
    day.activity.top_authors.append(m.Count(login="octo-git", count=1, git_name=True))
    assert "octo-git" not in c.known_refs(day).logins


@pytest.mark.parametrize(
    ("text", "linked"),
    [
        ("#12 and @alice.", ["#12", "@alice"]),
        ("（#12）与@alice讨论", ["#12", "@alice"]),  # CJK around them
        ("owner/repo#12, a@alice.dev, @alice/team, &#12;, ##12, #012", []),
        ("#12… @alice…", []),  # cut by a length limit: no longer what was cited
        ("#123 and @alicex and @alice-", []),  # other numbers and logins
        ("@ALICE and @dependabot[bot]", ["@alice", "@dependabot[bot]"]),
    ],
)
def test_prose_pieces_find_citations_standing_alone(text: str, linked: list[str]) -> None:
    known = c.KnownRefs({12: "pr"}, {"alice": "alice", "dependabot[bot]": "dependabot[bot]"})
    pieces = list(c.prose_pieces(text, known))
    found = [
        f"#{p.number}" if isinstance(p, c.ItemPiece) else f"@{p.login}"
        for p in pieces
        if isinstance(p, c.ItemPiece | c.PersonPiece)
    ]
    assert found == linked
    # Nothing lost or added (a login shown as the report spells it).
    assert "".join(_piece_text(p) for p in pieces).lower() == text.lower()


def _piece_text(p: c.ProsePiece) -> str:
    if isinstance(p, str):
        return p
    if isinstance(p, c.CodePiece):
        return f"`{p.text}`"
    return f"#{p.number}" if isinstance(p, c.ItemPiece) else f"@{p.login}"
