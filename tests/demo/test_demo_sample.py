"""The demo snapshot: valid records, self-consistent, and every scenario the reports need."""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from datetime import date, timedelta
from functools import cache
from pathlib import Path

import build_demo_sample
import pytest
from demo_sample.load import load_story
from demo_sample.model import Story
from demo_sample.snapshot import render

from tidings.common import records as r
from tidings.common.config import load_config
from tidings.common.globs import glob_match
from tidings.demo import CONFIG_PATH, REPO, SAMPLE_PATH
from tidings.facts.windows import Window, daily_window
from tidings.sources.snapshot import VERSION, export_snapshot, import_snapshot
from tidings.store import Store

MAINTAINER = {"OWNER", "MEMBER", "COLLABORATOR"}
HAN = re.compile(r"[\u4e00-\u9fff]")
KANA = re.compile(r"[\u3040-\u30ff]")
EMOJI = re.compile(r"[\U0001F300-\U0001FAFF\u2705]")
FIRST, LAST, QUIET = date(2026, 3, 2), date(2026, 3, 13), date(2026, 3, 8)


class Sample:
    def __init__(self, lines: list[str]) -> None:
        self.header = json.loads(lines[0])
        self.records: list[r.Record] = []
        for line in lines[1:]:
            kind = json.loads(line)["type"]
            self.records.append(r.RECORD_TYPES[kind].model_validate_json(line, strict=True))
        by = defaultdict(list)
        for rec in self.records:
            by[rec.type].append(rec)  # type: ignore[attr-defined]
        self.repos: list[r.RepositoryRecord] = by["repository"]
        self.items = {i.number: i for i in by["item"]}
        self.comments: list[r.CommentRecord] = by["comment"]
        self.reviews: list[r.ReviewRecord] = by["review"]
        self.review_comments: list[r.ReviewCommentRecord] = by["review_comment"]
        self.files: list[r.PRFileRecord] = by["pr_file"]
        self.refs: list[r.ClosingRefRecord] = by["closing_ref"]
        self.by_type = by

    def comments_on(self, number: int) -> list[r.CommentRecord]:
        return [c for c in self.comments if c.number == number]

    def files_of(self, number: int) -> list[r.PRFileRecord]:
        return [f for f in self.files if f.number == number]

    def prs_closing(self, number: int) -> list[r.ItemRecord]:
        return [
            self.items[ref.number]
            for ref in self.refs
            if ref.issue_repo == REPO and ref.issue_number == number
        ]


@cache
def _story() -> Story:
    """The story the builder reads (scripts/demo_sample/story/, imported via conftest.py)."""
    return load_story()


@cache
def _sample() -> Sample:
    return Sample(SAMPLE_PATH.read_text(encoding="utf-8").splitlines())


@pytest.fixture
def s() -> Sample:
    return _sample()


def _window(day: date) -> Window:
    repo = load_config(CONFIG_PATH).repo(REPO)
    return daily_window(day, repo.tz, repo.cutoff_time)


def _days() -> list[date]:
    return [FIRST + timedelta(days=i) for i in range((LAST - FIRST).days + 1)]


# -- format -----------------------------------------------------------------------------------


def test_header_and_every_line_validate(s: Sample) -> None:
    assert s.header["type"] == "header"
    assert s.header["format"] == "tidings-snapshot"
    assert s.header["version"] == VERSION
    assert s.header["exported_at"] == "2026-03-14T01:30:00Z"
    [entry] = s.header["repositories"]
    assert entry["full_name"] == REPO
    expected = dict.fromkeys(r.RECORD_TYPES, 0)
    expected.update(Counter(rec.type for rec in s.records))  # type: ignore[attr-defined]
    assert entry["records"] == expected
    assert [rep.full_name for rep in s.repos] == [REPO]
    assert not s.by_type["sync_state"]
    assert isinstance(s.records[0], r.RepositoryRecord)


def test_sample_is_what_the_builder_writes() -> None:
    assert render(_story()) == SAMPLE_PATH.read_text(encoding="utf-8")
    assert build_demo_sample.main(["--check"]) == 0


def test_import_then_export_gives_the_same_records(tmp_path: Path) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'demo.db'}")
    try:
        counts = import_snapshot(store, SAMPLE_PATH)
        assert counts.repositories == [REPO]
        out = tmp_path / "again.jsonl"
        export_snapshot(store, REPO, out)
    finally:
        store.close()
    original = SAMPLE_PATH.read_text(encoding="utf-8").splitlines()
    again = out.read_text(encoding="utf-8").splitlines()
    assert again[1:] == original[1:]


def test_config_loads_and_describes_the_demo() -> None:
    config = load_config(CONFIG_PATH)
    [repo] = config.repos
    assert repo.name == REPO
    assert (repo.timezone, repo.cutoff, repo.language) == ("Asia/Shanghai", "09:00", "zh")
    assert "mergify-helper" in repo.bots
    assert [t.title for t in repo.topics] == ["AMD/ROCm"]
    assert repo.core_paths


# -- consistency ------------------------------------------------------------------------------


def test_numbers_grow_with_creation_time(s: Sample) -> None:
    ordered = sorted(s.items.values(), key=lambda i: i.created_at)
    assert [i.number for i in ordered] == sorted(s.items)


def test_children_belong_to_existing_items_of_the_right_kind(s: Sample) -> None:
    for c in s.comments:
        assert c.number in s.items
    for rec in [*s.reviews, *s.review_comments, *s.files, *s.refs]:
        assert s.items[rec.number].kind == "pr", rec
    for ref in s.refs:
        if ref.issue_repo == REPO:
            assert s.items[ref.issue_number].kind == "issue"
    for kind in ("comment", "review", "review_comment"):
        ids = [rec.id for rec in s.by_type[kind]]
        assert len(ids) == len(set(ids)), kind
    reply_ok = {rc.id: rc.number for rc in s.review_comments}
    for rc in s.review_comments:
        if rc.in_reply_to_id is not None:
            assert reply_ok[rc.in_reply_to_id] == rc.number
        assert rc.path in {f.path for f in s.files_of(rc.number)}


def test_counts_match_child_records(s: Sample) -> None:
    review_ids = {rv.id: rv for rv in s.reviews}
    per_review = Counter(rc.review_id for rc in s.review_comments)
    assert all(rc.review_id in review_ids for rc in s.review_comments)
    for rv in s.reviews:
        assert rv.comments_count == per_review[rv.id], rv.id
    for item in s.items.values():
        assert item.comments_count == len(s.comments_on(item.number)), item.number
        if item.kind == "issue":
            continue
        rcs = [rc for rc in s.review_comments if rc.number == item.number]
        reviews = [rv for rv in s.reviews if rv.number == item.number]
        assert item.review_comments_count == len(rcs) == sum(rv.comments_count for rv in reviews)
        files = s.files_of(item.number)
        assert item.changed_files == len(files) > 0
        assert item.additions == sum(f.additions or 0 for f in files)
        assert item.deletions == sum(f.deletions or 0 for f in files)


def test_times_are_consistent(s: Sample) -> None:
    limit = _story().frame.exported_at
    children: dict[int, list] = defaultdict(list)
    for c in s.comments:
        assert c.updated_at >= c.created_at
        children[c.number] += [c.created_at, c.updated_at]
    for rv in s.reviews:
        children[rv.number].append(rv.submitted_at)
    for rc in s.review_comments:
        children[rc.number] += [rc.created_at, rc.updated_at]
    for item in s.items.values():
        times = children[item.number]
        assert all(item.created_at <= t <= item.updated_at for t in times), item.number
        assert item.updated_at <= limit
        assert item.detail_updated_at == item.checked_updated_at == item.updated_at
        assert (item.state == "closed") == (item.closed_at is not None), item.number
        if item.closed_at:
            assert item.created_at < item.closed_at <= item.updated_at


def test_prs_and_issues_have_their_own_fields(s: Sample) -> None:
    maintainers = {c.author for c in s.comments if c.author_association in MAINTAINER}
    for item in s.items.values():
        if item.kind == "issue":
            assert item.merged is None and item.draft is None and item.head_sha is None
            assert item.additions is None and item.review_decision is None
            assert (item.state_reason is not None) == (item.state == "closed")
            continue
        assert item.draft is not None and item.base_ref == "main" and item.head_ref
        assert re.fullmatch(r"[0-9a-f]{40}", item.head_sha or "")
        if item.merged:
            assert item.merged_at == item.closed_at
            assert item.merged_by in maintainers, item.number
            assert re.fullmatch(r"[0-9a-f]{40}", item.merge_commit_sha or "")
            assert any(rv.state == "APPROVED" for rv in s.reviews if rv.number == item.number), (
                item.number
            )
        else:
            assert item.merged is False
            assert item.merged_at is None and item.merged_by is None
            assert item.merge_commit_sha is None


# -- the story, day by day --------------------------------------------------------------------


def _readme_table() -> dict[date, tuple[int, ...]]:
    text = (SAMPLE_PATH.parent / "README.md").read_text(encoding="utf-8")
    rows = {}
    for line in text.splitlines():
        m = re.match(
            r"\| (2026-03-\d\d) \w{3} \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|", line
        )
        if m:
            rows[date.fromisoformat(m[1])] = tuple(int(g) for g in m.groups()[1:])
    return rows


def _day_counts(s: Sample, day: date) -> tuple[int, ...]:
    w = _window(day)
    issues = [i for i in s.items.values() if i.kind == "issue"]
    prs = [i for i in s.items.values() if i.kind == "pr"]
    return (
        sum(i.created_at in w for i in issues),
        sum(i.closed_at in w for i in issues),
        sum(i.created_at in w for i in prs),
        sum(i.merged_at in w for i in prs),
        sum(i.closed_at in w and not i.merged for i in prs),
    )


def test_readme_table_matches_the_data(s: Sample) -> None:
    table = _readme_table()
    assert sorted(table) == _days()
    for day in _days():
        assert _day_counts(s, day) == table[day], day


def test_activity_varies_and_busy_days_are_busy(s: Sample) -> None:
    counts = {day: _day_counts(s, day) for day in _days()}
    assert max(c[2] for c in counts.values()) >= 8
    assert sum(c[3] >= 4 for c in counts.values()) >= 6
    assert len({c[2] for c in counts.values()}) >= 4


def test_quiet_day_has_nothing_but_one_comment(s: Sample) -> None:
    w = _window(QUIET)
    assert w.display() == "2026-03-08 09:00 (UTC+8) ~ 2026-03-09 09:00 (UTC+8)"
    assert _day_counts(s, QUIET) == (0, 0, 0, 0, 0)
    assert not any(i.updated_at in w for i in s.items.values() if i.number != 3871)
    assert sum(c.created_at in w for c in s.comments) == 1
    assert not any(rv.submitted_at in w for rv in s.reviews)
    assert not any(rc.created_at in w for rc in s.review_comments)
    for day in _days():
        if day != QUIET:
            assert sum(_day_counts(s, day)) > 0, day


# -- scenarios ---------------------------------------------------------------------------------


def test_heated_multi_party_issue(s: Sample) -> None:
    heated = s.items[4223]
    comments = s.comments_on(4223)
    assert heated.kind == "issue" and 20 <= len(comments) <= 40
    local_days = {c.created_at.astimezone(_window(FIRST).tz).date() for c in comments}
    assert len(local_days) >= 5
    roles = defaultdict(set)
    for c in comments:
        roles[c.author_association in MAINTAINER].add(c.author)
    assert len(roles[True]) >= 3 and len(roles[False]) >= 4
    assert sum(heated.reactions.values()) >= 20
    assert sum(bool(c.reactions) for c in comments) >= 15
    closers = s.prs_closing(4223)
    assert any(p.merged for p in closers) and any(not p.merged for p in closers)


def test_revert_merged_the_day_after_the_original(s: Sample) -> None:
    [revert] = [i for i in s.items.values() if i.title.startswith('Revert "')]
    original = s.items[int(re.search(r"\(#(\d+)\)$", revert.title)[1])]  # type: ignore[index]
    assert revert.merged and original.merged
    assert original.title in revert.title
    tz = _window(FIRST).tz
    to_day = original.merged_at.astimezone(tz) - timedelta(hours=9)  # type: ignore[union-attr]
    re_day = revert.merged_at.astimezone(tz) - timedelta(hours=9)  # type: ignore[union-attr]
    assert re_day.date() - to_day.date() == timedelta(days=1)
    [trigger] = [s.items[ref.issue_number] for ref in s.refs if ref.number == revert.number]
    assert f"#{original.number}" in trigger.title and trigger.state == "closed"


def test_prs_closed_unmerged_including_one_superseded(s: Sample) -> None:
    unmerged = [i for i in s.items.values() if i.kind == "pr" and i.state == "closed"]
    unmerged = [i for i in unmerged if not i.merged]
    assert len(unmerged) >= 4
    superseded = 0
    for pr in unmerged:
        last = s.comments_on(pr.number)[-1].body or ""
        for n in map(int, re.findall(r"#(\d+)", last)):
            superseded += bool(s.items.get(n) and s.items[n].merged)
    assert superseded >= 2


def test_bots_of_every_kind(s: Sample) -> None:
    config = load_config(CONFIG_PATH).repo(REPO)
    bot_prs = [i for i in s.items.values() if i.author == "dependabot[bot]"]
    assert bot_prs and all(i.author_type == "Bot" for i in bot_prs)
    assert any(i.merged for i in bot_prs) and any(i.state == "open" for i in bot_prs)
    ci = [c for c in s.comments if c.author == "rapidinfer-ci[bot]"]
    assert len(ci) >= 5 and all(c.author_type == "Bot" for c in ci)
    assert all(s.items[c.number].kind == "pr" for c in ci)
    mergify = [c for c in s.comments if c.author == "mergify-helper"]
    assert mergify and all(c.author_type == "User" for c in mergify)
    assert "mergify-helper" in config.bots


def _topic_reasons(s: Sample, item: r.ItemRecord) -> set[str]:
    topic = load_config(CONFIG_PATH).repo(REPO).topics[0]
    reasons = set()
    if {lab.lower() for lab in item.labels} & {lab.lower() for lab in topic.labels}:
        reasons.add("label")
    if any(f"[{t}]".lower() in item.title.lower() for t in topic.title_tags):
        reasons.add("tag")
    text = f"{item.title}\n{item.body or ''}"
    if any(re.search(rf"(?<![\w-]){re.escape(k)}(?![\w-])", text, re.I) for k in topic.keywords):
        reasons.add("keyword")
    paths = [f.path for f in s.files_of(item.number)]
    if any(glob_match(g, p) for g in topic.paths for p in paths):
        reasons.add("path")
    return reasons


def test_rocm_topic_track_spread_over_the_fortnight(s: Sample) -> None:
    matched = {n: _topic_reasons(s, i) for n, i in s.items.items()}
    matched = {n: why for n, why in matched.items() if why}
    assert len(matched) >= 12
    days = set()
    for n in matched:
        for day in _days():
            if s.items[n].created_at in _window(day):
                days.add(day)
    assert len(days) >= 6
    for only in ("label", "tag", "keyword", "path"):
        assert any(why == {only} for why in matched.values()), only
    assert any(HAN.search(s.items[n].title) for n in matched)


def test_reopened_issue_closed_twice(s: Sample) -> None:
    issue = s.items[4225]
    assert issue.state == "closed"
    assert any((c.body or "").startswith("Reopening") for c in s.comments_on(4225))
    assert len([p for p in s.prs_closing(4225) if p.merged]) == 2


def test_first_time_contributor_merged(s: Sample) -> None:
    firsts = [
        i
        for i in s.items.values()
        if i.author_association == "FIRST_TIME_CONTRIBUTOR" and i.kind == "pr"
    ]
    merged = [i for i in firsts if i.merged]
    assert merged
    for pr in merged:
        others = [i for i in s.items.values() if i.author == pr.author and i.kind == "pr"]
        assert others == [pr]


def test_watch_list_material(s: Sample) -> None:
    start = _window(FIRST).start
    long_open = [
        i
        for i in s.items.values()
        if i.created_at < start - timedelta(days=30)
        and i.state == "open"
        and sum(c.created_at >= start for c in s.comments_on(i.number)) >= 3
    ]
    assert long_open

    def unanswered(word: str) -> list[r.ItemRecord]:
        return [
            i
            for i in s.items.values()
            if i.kind == "issue"
            and word in i.title.lower()
            and not any(c.author_association in MAINTAINER for c in s.comments_on(i.number))
        ]

    assert unanswered("segfault") or unanswered("crash")
    assert unanswered("regression")


def test_ghost_author(s: Sample) -> None:
    ghosts = [i for i in s.items.values() if i.author is None]
    assert ghosts and all(i.author_type is None for i in ghosts)
    assert any(c.author is None for c in s.comments)


def test_non_ascii_text(s: Sample) -> None:
    titles = [i.title for i in s.items.values()]
    bodies = [c.body or "" for c in s.comments]
    assert sum(bool(HAN.search(t)) for t in titles) >= 5
    assert sum(bool(HAN.search(b)) for b in bodies) >= 5
    assert any(KANA.search(b) for b in bodies)
    assert any(EMOJI.search(t) for t in titles)
    everything = "\n".join([*titles, *bodies, *(i.body or "" for i in s.items.values())])
    assert re.search(r"[éèëüÅåø]", everything)


def test_title_with_html_and_markdown(s: Sample) -> None:
    [item] = [i for i in s.items.values() if "<script>" in i.title]
    assert item.title == (
        "[Frontend] Escape <script>alert(1)</script> in **chat template** "
        "[docs](http://evil.example) @everyone #1"
    )
    assert "<img src=x onerror=alert(1)>" in (item.body or "")
    bodies = [c.body or "" for c in s.comments_on(item.number)]
    assert any("|---|" in b for b in bodies)
    assert any(b.count("```") % 2 == 1 for b in bodies)  # an unclosed code fence
    assert 1 not in s.items  # "#1" points at nothing in the store
