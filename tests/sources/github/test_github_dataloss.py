"""Answers that are fine HTTP with the wrong content must never cost the store data (issue #10).

Each test reproduces one data-loss case against the loopback GitHub, on SQLite and PostgreSQL:
a corrupted answer that heals after one retry leaves the store an undisturbed sync leaves, and
one that persists fails the sync with a one-line error that names it, having marked nothing
deleted and stored no cursor or ETag past it; a clean sync afterwards then completes the store.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from testkit.servers.github import FakeGitHub
from tests.sources.github.test_github_sync import TOKEN, assert_same, stored, sync
from tidings.cli import main
from tidings.common import records as r
from tidings.errors import SourceError
from tidings.store import Store, schema
from tidings.store.rows import read_records

# Seconds a test against the loopback GitHub: the fast loop runs them on SQLite alone.
pytestmark = pytest.mark.slow_on_postgres

T0 = datetime(2026, 3, 2, tzinfo=UTC)
REPO = "acme/loss"


def small_repo(*, issues: int = 0, prs: int = 0, name: str = REPO) -> list[r.Record]:
    """Issues 1..issues, then PRs, each PR with two files and one review."""
    out: list[r.Record] = [r.RepositoryRecord(full_name=name)]
    for n in range(1, issues + prs + 1):
        kind = "issue" if n <= issues else "pr"
        at = T0 + timedelta(minutes=n)
        out.append(
            r.ItemRecord(
                number=n,
                kind=kind,
                title=f"{kind} {n}",
                author="alice",
                author_type="User",
                state="open",
                created_at=at,
                updated_at=at,
            )
        )
        if kind == "pr":
            out += [
                r.PRFileRecord(number=n, path=f"src/m{n}_{i}.py", status="modified", additions=i)
                for i in range(2)
            ]
            out.append(
                r.ReviewRecord(
                    id=5_000_000_000 + n,
                    number=n,
                    author="bob",
                    author_type="User",
                    state="APPROVED",
                    submitted_at=at,
                )
            )
    return out


def deleted_rows(store: Store) -> int:
    with store.begin() as conn:
        return sum(
            conn.execute(
                sa.select(sa.func.count()).select_from(t).where(t.c.deleted.is_(True))
            ).scalar_one()
            for t in (schema.items, schema.comments, schema.reviews, schema.review_comments)
        )


def fails_in_one_line(store: Store, gh: FakeGitHub, repo: str = REPO) -> SourceError:
    with pytest.raises(SourceError) as err:
        sync(store, gh, repo)
    line = err.value.one_line()
    assert "\n" not in line and "unexpected shape" in line, line
    return err.value


# -- case 1: totals 0, then {"data":{"repository":null}} for the number listing --------------


def _touch_and_corrupt_totals(gh: FakeGitHub, times: int | None) -> None:
    gh.advance(60)
    gh.update_item(REPO, 1, title="a change, so the sync checks the totals")
    gh.inject("zero_totals", body_contains="pullRequests { totalCount }", times=times)
    gh.inject("null_repository", body_contains="after: $after", times=times)


@pytest.mark.parametrize("times", [1, None])
def test_zero_totals_and_null_listing_delete_nothing(store: Store, times: int | None) -> None:
    with FakeGitHub(small_repo(issues=30, prs=10, name=REPO), token=TOKEN) as gh:
        sync(store, gh, REPO)
        before = stored(store, REPO)
        _touch_and_corrupt_totals(gh, times)
        if times is None:
            err = fails_in_one_line(store, gh)
            assert err.cause.startswith("GitHub kept answering issue numbers")
            assert "repository is null" in err.cause
            assert deleted_rows(store) == 0
            # Only the real change was committed (by the issues stream, before the totals).
            changed = [x for x in stored(store, REPO) if x not in before]
            assert len(changed) == 1 and "a change, so the sync" in changed[0]
            gh.clear_faults()
        sync(store, gh, REPO)
        assert deleted_rows(store) == 0
        assert_same(store, gh, REPO)


def test_consistent_but_empty_number_listing_is_refused_as_a_mass_deletion(store: Store) -> None:
    """Totals 0 and a well-formed, self-consistent listing of 0 issues: plausible shapes, but
    30 issues vanishing at once is refused with a note."""
    empty = {
        "data": {
            "repository": {
                "issues": {
                    "totalCount": 0,
                    "pageInfo": {"hasNextPage": False, "endCursor": None},
                    "nodes": [],
                }
            }
        }
    }
    with FakeGitHub(small_repo(issues=30, prs=2), token=TOKEN) as gh:
        sync(store, gh, REPO)
        gh.advance(60)
        gh.update_item(REPO, 1, title="changed")
        gh.inject("zero_totals", body_contains="pullRequests { totalCount }")
        gh.inject("bad_body", api="graphql", body_contains="issues(first: 100", payload=empty)
        report = sync(store, gh, REPO)
        assert deleted_rows(store) == 0
        assert any("30 issues" in n and "broken answer" in n for n in report.notes), report.notes
        assert_same(store, gh, REPO)


def test_a_real_deletion_is_still_found(store: Store) -> None:
    with FakeGitHub(small_repo(issues=30, prs=2), token=TOKEN) as gh:
        sync(store, gh, REPO)
        gh.delete_item(REPO, 7)
        gh.advance(60)
        gh.update_item(REPO, 1, title="changed")
        report = sync(store, gh, REPO)
        assert report.marked_deleted == 1 and not report.notes
        assert_same(store, gh, REPO)


# -- case 2: a thread of 151 comments re-listed as {"message": "oops"} ------------------------


def _thread(gh: FakeGitHub) -> list[int]:
    ids = []
    for i in range(151):
        gh.advance(1)
        ids.append(gh.add_comment(REPO, 1, f"comment {i}").id)
    return ids


@pytest.mark.parametrize("page", [1, 2])
@pytest.mark.parametrize("times", [1, None])
def test_oops_on_comment_relisting_marks_nothing_deleted(
    store: Store, page: int, times: int | None
) -> None:
    with FakeGitHub(small_repo(issues=2), token=TOKEN) as gh:
        ids = _thread(gh)
        sync(store, gh, REPO)
        gh.delete_comment(REPO, ids[40])  # so the edited issue's counts disagree: a re-list
        gh.advance(60)
        gh.update_item(REPO, 1, title="edited")
        where = "/issues/1/comments?per_page=100" + ("&page=2" if page == 2 else "")
        gh.inject("bad_body", path_contains=where, payload={"message": "oops"}, times=times)
        if times is None:
            err = fails_in_one_line(store, gh)
            assert "GET /repos/acme/loss/issues/1/comments" in err.cause
            assert "the listing is an object, not a list" in err.cause
            assert deleted_rows(store) == 0
            gh.clear_faults()
            gh.advance(60)
            gh.update_item(REPO, 1, title="edited again")
        report = sync(store, gh, REPO)
        assert report.reconciled == 1
        assert deleted_rows(store) == 1  # just the one really deleted
        assert_same(store, gh, REPO)


def test_relisting_short_of_githubs_count_marks_nothing_deleted(store: Store) -> None:
    """A well-formed but short re-listing (`[]` for a thread GitHub counts 150 comments in)."""
    with FakeGitHub(small_repo(issues=2), token=TOKEN) as gh:
        ids = _thread(gh)
        sync(store, gh, REPO)
        gh.delete_comment(REPO, ids[0])
        gh.advance(60)
        gh.update_item(REPO, 1, title="edited")
        gh.inject("bad_body", path_contains="/issues/1/comments", payload=[])
        report = sync(store, gh, REPO)
        assert deleted_rows(store) == 0
        assert any("comments of #1" in n and "GitHub counts 150" in n for n in report.notes)


# -- case 3: PR details with files: null, reviews: null and nested NOT_FOUND ------------------


@pytest.mark.parametrize("times", [1, None])
def test_null_connections_keep_files_and_reviews(store: Store, times: int | None) -> None:
    with FakeGitHub(small_repo(issues=1, prs=4), token=TOKEN) as gh:
        sync(store, gh, REPO)
        before = stored(store, REPO)
        gh.advance(60)
        gh.update_item(REPO, 3, title="retitled")
        gh.inject("null_connections", body_contains="p3: pullRequest", times=times)
        if times is None:
            # PR 3 fails even alone: it is set aside with a note (quarantine), nothing of it is
            # deleted, and the sync goes on to the end.
            report = sync(store, gh, REPO)
            assert any(
                n.startswith("#3: details failed even alone") and "p3.reviews is null" in n
                for n in report.notes
            ), report.notes
            assert deleted_rows(store) == 0
            after = stored(store, REPO)
            assert [x for x in before if x not in after] == [
                x for x in before if '"number": 3' in x and '"kind": "pr"' in x
            ]  # only PR 3's item row moved on (its REST copy); its files and review stayed
            gh.clear_faults()
        sync(store, gh, REPO)  # a quarantined PR is tried again on the next run
        assert deleted_rows(store) == 0
        assert_same(store, gh, REPO)


# -- a PR alias carrying another PR's data (#25) -----------------------------------------------


def _p1_answers_for_p2(body: dict[str, Any]) -> dict[str, Any]:
    repo = body["data"]["repository"]
    if "p2" in repo:
        repo["p1"] = copy.deepcopy(repo["p2"])
    else:  # #1 asked alone: still #2's number
        repo["p1"]["number"] = 2
    return body


@pytest.mark.parametrize("times", [1, None])
def test_an_alias_carrying_another_prs_data_is_a_wrong_answer(
    store: Store, times: int | None
) -> None:
    """`p1: pullRequest(number: 1)` answered with #2's data was stored as #1 (on some data an
    IntegrityError: "database error … check --db"). It is a wrong answer now: read again, and
    if it persists #1 alone is set aside with a note, and nothing of #2 is stored under #1."""
    with FakeGitHub(small_repo(prs=3), token=TOKEN) as gh:
        gh.inject(
            "bad_body",
            api="graphql",
            body_contains="p1: pullRequest",
            payload=_p1_answers_for_p2,
            times=times,
        )
        report = sync(store, gh, REPO)
        if times is None:
            assert any(
                n.startswith("#1: details failed even alone")
                and "p1 asked for #1 but answers for #2" in n
                for n in report.notes
            ), report.notes
            with store.begin() as conn:
                files = conn.execute(
                    sa.select(schema.pr_files.c.path).where(schema.pr_files.c.number == 1)
                ).scalars()
                reviews = conn.execute(
                    sa.select(schema.reviews.c.number).where(schema.reviews.c.id == 5_000_000_002)
                ).scalars()
                assert not any("m2_" in path for path in files) and list(reviews) == [2]
            gh.clear_faults()
            sync(store, gh, REPO)  # a set-aside PR is tried again on the next run
        else:
            assert not report.notes
        assert_same(store, gh, REPO)


# -- comments whose issue_url names an item that does not exist (#25) ---------------------------


def _misfiled(comment_id: int, number: int = 999) -> Callable[[Any], Any]:
    """An edit of a comment listing (or of one comment) filing `comment_id` under `number`."""

    def edit(body: Any) -> Any:
        for row in body if isinstance(body, list) else [body]:
            if row.get("id") == comment_id:
                row["issue_url"] = row["issue_url"].rsplit("/", 1)[0] + f"/{number}"
        return body

    return edit


def _orphan_records(store: Store) -> list[str]:
    with store.begin() as conn:
        t = schema.sync_state
        return list(
            conn.execute(sa.select(t.c.stream).where(t.c.stream.startswith("orphan:"))).scalars()
        )


def _number_of(store: Store, comment_id: int) -> int:
    with store.begin() as conn:
        t = schema.comments
        return int(conn.execute(sa.select(t.c.number).where(t.c.id == comment_id)).scalar_one())


def test_a_comment_filed_under_a_missing_issue_is_read_again_and_refiled(store: Store) -> None:
    """An edited comment (its issue does not change) is listed filed under #999, which does not
    exist: it was stored there, and nothing corrected it, as its issue's counts were never
    checked again. Now #999 is asked for, and on its 404 the comment itself, which GitHub
    files under #1."""
    with FakeGitHub(small_repo(issues=3), token=TOKEN) as gh:
        cid = gh.add_comment(REPO, 1, "filed under the wrong issue").id
        sync(store, gh, REPO)
        gh.advance(60)
        gh.edit_comment(REPO, cid, "edited")
        gh.inject("bad_body", path_contains="/issues/comments?", payload=_misfiled(cid))
        report = sync(store, gh, REPO)
        assert _number_of(store, cid) == 1
        assert any(n.startswith("#999: GitHub has no such item") for n in report.notes)
        assert gh.count(path_contains="/issues/999") == 1
        assert_same(store, gh, REPO)
        assert not _orphan_records(store)


def test_a_comment_github_keeps_misfiling_is_corrected_by_a_later_sync(store: Store) -> None:
    """When even the comment read alone names #999, it is kept as stored with a note and read
    again on the next run, which files it right once GitHub does."""
    with FakeGitHub(small_repo(issues=3), token=TOKEN) as gh:
        cid = gh.add_comment(REPO, 2, "misfiled twice").id
        sync(store, gh, REPO)
        gh.advance(60)
        gh.edit_comment(REPO, cid, "edited")
        gh.inject("bad_body", path_contains="/issues/comments?", payload=_misfiled(cid))
        gh.inject(
            "bad_body", path_contains=f"/issues/comments/{cid}", payload=_misfiled(cid), times=None
        )
        report = sync(store, gh, REPO)
        assert _number_of(store, cid) == 999
        assert any("#999: comments name an item GitHub does not have" in n for n in report.notes)
        assert _orphan_records(store) == ["orphan:999"]
        gh.clear_faults()
        sync(store, gh, REPO)  # nothing changed on GitHub: only the record brings it back
        assert _number_of(store, cid) == 2
        assert_same(store, gh, REPO)
        assert not _orphan_records(store)


def test_a_comment_on_an_issue_opened_mid_sync_brings_its_issue(store: Store) -> None:
    """An issue opened (and commented on) after the issues listing was read but before the
    comment listing: its comment used to sit under a number the store lacked until a later
    sync; the issue is now fetched in the same sync."""
    with FakeGitHub(small_repo(issues=3), token=TOKEN) as gh:
        opened: list[int] = []

        def open_and_comment(fake: FakeGitHub) -> None:
            fake.advance(5)
            number = fake.add_item(REPO, title="opened mid-sync").number
            fake.add_comment(REPO, number, "first!")
            opened.append(number)

        gh.inject("mutate", path_contains="/issues/comments?", action=open_and_comment)
        sync(store, gh, REPO)
        assert opened and gh.count(path_contains=f"/issues/{opened[0]}") == 1
        assert_same(store, gh, REPO)


def test_a_misfiled_comment_github_no_longer_has_is_marked_deleted(store: Store) -> None:
    with FakeGitHub(small_repo(issues=3), token=TOKEN) as gh:
        cid = gh.add_comment(REPO, 1, "soon deleted").id
        gh.inject("bad_body", path_contains="/issues/comments?", payload=_misfiled(cid))
        gh.inject(
            "mutate", path_contains="/issues/999", action=lambda fake: fake.delete_comment(cid)
        )
        report = sync(store, gh, REPO)
        assert report.marked_deleted == 1 and deleted_rows(store) == 1
        with store.begin() as conn:
            t = schema.comments
            assert conn.execute(sa.select(t.c.id).where(t.c.deleted)).scalars().all() == [cid]


def test_verify_finds_comments_an_older_sync_misfiled(store: Store) -> None:
    """A store written before this check may hold such comments: `sync --verify` looks through
    every stored comment, not only those the listings named."""
    with FakeGitHub(small_repo(issues=3), token=TOKEN) as gh:
        cid = gh.add_comment(REPO, 3, "misfiled long ago").id
        sync(store, gh, REPO)
        with store.begin() as conn:
            t = schema.comments
            conn.execute(t.update().where(t.c.id == cid).values(number=999))
        sync(store, gh, REPO)
        assert _number_of(store, cid) == 999  # a quiet sync reads nothing it could check
        sync(store, gh, REPO, verify=True)
        assert _number_of(store, cid) == 3
        assert_same(store, gh, REPO)


# -- case 4: page 2 of the issues listing answers {} (with the real ETag) ----------------------


@pytest.mark.parametrize("times", [1, None])
def test_empty_object_for_a_listing_page_is_not_the_end(store: Store, times: int | None) -> None:
    with FakeGitHub(small_repo(issues=320), token=TOKEN) as gh:
        gh.inject("bad_body", path_contains="/issues?", skip=1, times=times)
        if times is None:
            err = fails_in_one_line(store, gh)
            assert "GET /repos/acme/loss/issues" in err.cause
            gh.clear_faults()
            # The page before the bad one was committed; nothing after it, no ETag for it.
            assert sum('"kind": "issue"' in x for x in stored(store, REPO)) == 100
        sync(store, gh, REPO)
        assert_same(store, gh, REPO)
        sync(store, gh, REPO)
        # The quiet re-sync repeats the issues listing's last URL with its ETag: a 304, since
        # only the true answer's ETag was stored. (The empty comment streams are asked again:
        # an empty answer is never kept for a 304.)
        issues = [q for q in gh.requests if q.path == f"/repos/{REPO}/issues"]
        assert len(issues) == 1 and issues[0].not_modified


# -- an old answer served with the real ETag (a caching proxy, #25) -----------------------------


def _issue_requests(gh: FakeGitHub) -> list[Any]:
    return [q for q in gh.requests if q.path == f"/repos/{REPO}/issues"]


@pytest.mark.parametrize("revalidate", [True, False])
def test_another_requests_answer_with_the_real_etag_is_read_past_the_cache(
    store: Store, revalidate: bool
) -> None:
    """A cache keyed by path alone answers `since=<the 100th issue>` with the first page: rows
    older than the `since` asked for, which GitHub never lists, under the real ETag. Kept, that
    ETag made every later sync a 304 for an answer never read. Now the page is read again
    unconditionally with `Cache-Control: no-cache`; a cache that ignores even that fails the
    sync in one line, storing nothing past the page."""
    with FakeGitHub(small_repo(issues=150), token=TOKEN) as gh:
        cache = gh.inject("stale", path_contains="/issues?", times=None, revalidate=revalidate)
        if not revalidate:
            err = fails_in_one_line(store, gh)
            assert "before the since=" in err.cause
            assert sum('"kind": "issue"' in x for x in stored(store, REPO)) == 100
            with store.begin() as conn:
                keys = conn.execute(sa.select(schema.http_cache.c.key)).scalars().all()
            assert not [k for k in keys if "/issues?" in k and "since=" in k]
            gh.clear_faults()
            sync(store, gh, REPO)
            assert_same(store, gh, REPO)
            return
        sync(store, gh, REPO)
        assert cache.hits == 1
        assert_same(store, gh, REPO)
        gh.advance(60)
        gh.update_item(REPO, 120, title="changed behind the cache")
        sync(store, gh, REPO)
        assert cache.hits == 2
        assert_same(store, gh, REPO)
        # Quiet: the cache answers the conditional request with its old page and the ETag
        # sent, GitHub would have said 304; read again past the cache, nothing changes.
        sync(store, gh, REPO)
        assert cache.hits == 3 and [q.fault for q in _issue_requests(gh)] == ["stale", None]
        assert_same(store, gh, REPO)


def test_an_old_answer_pinned_by_its_etag_is_read_again(store: Store) -> None:
    """A cache serves its old copy of the one issues page with GitHub's new ETag: nothing in it
    can show it is old, so the old title is stored. But the next sync sends that ETag and
    gets a full answer carrying the same ETag, which GitHub never sends (it answers 304): the
    page is read again past the cache, and the change is found instead of pinned."""
    with FakeGitHub(small_repo(issues=50), token=TOKEN) as gh:
        gh.inject("stale", path_contains="/issues?", times=None)
        sync(store, gh, REPO)
        gh.advance(60)
        gh.update_item(REPO, 30, title="changed behind the cache")
        sync(store, gh, REPO)
        assert not any("changed behind the cache" in x for x in stored(store, REPO))
        sync(store, gh, REPO)
        assert [q.fault for q in _issue_requests(gh)] == ["stale", None]
        assert_same(store, gh, REPO)


def test_cli_reports_a_persisting_wrong_answer_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    db = f"sqlite:///{tmp_path / 'cli.db'}"
    with FakeGitHub(small_repo(issues=120), token=TOKEN) as gh:
        gh.inject("bad_body", path_contains="/issues?", skip=1, times=None)
        config = tmp_path / "tidings.toml"
        config.write_text(
            f'[github]\napi_url = "{gh.api_url}"\ngraphql_url = "{gh.graphql_url}"\n'
            "max_retries = 1\n",
            encoding="utf-8",
        )
        with pytest.raises(SystemExit) as done:
            main(["--db", db, "--config", str(config), "sync", REPO])
    err = capsys.readouterr().err
    assert done.value.code == 1
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert lines == [
        "error: GitHub kept answering GET /repos/acme/loss/issues in an unexpected shape: "
        "the listing is an empty object, not a list (2 tries) — nothing was deleted or "
        "skipped because of it; run the sync again later (see githubstatus.com) and report "
        "it if it persists"
    ], err
    assert "Traceback" not in err and TOKEN not in err


def test_corrupted_answers_are_served_with_the_real_etag() -> None:
    """The fake itself: "bad_body" keeps the real answer's ETag; "null_connections" nulls the
    connections and explains each with a nested NOT_FOUND, as GitHub words its errors."""
    with FakeGitHub(small_repo(issues=1, prs=1), token=TOKEN) as gh:
        url = f"{gh.api_url}/repos/{REPO}/issues?state=all"
        headers = {"Authorization": f"Bearer {TOKEN}"}
        real = httpx.get(url, headers=headers)
        gh.inject("bad_body")
        bad = httpx.get(url, headers=headers)
        assert bad.status_code == 200 and bad.json() == {}
        assert bad.headers["etag"] == real.headers["etag"]
        gh.inject("null_connections")
        query = (
            'query { repository(owner: "acme", name: "loss") '
            "{ p: pullRequest(number: 2) { number files(first: 1) { totalCount } } } }"
        )
        body = httpx.post(gh.graphql_url, headers=headers, json={"query": query}).json()
        assert body["data"]["repository"]["p"] == {"number": 2, "files": None}
        assert [(e["type"], e["path"]) for e in body["errors"]] == [
            ("NOT_FOUND", ["repository", "p", "files"])
        ]


# -- case 5: NUL in GitHub's text --------------------------------------------------------------


def test_nul_in_any_text_syncs_on_both_backends(store: Store) -> None:
    """A pasted binary log (NUL bytes) in titles, bodies, comments, reviews and labels used to
    fail every sync on PostgreSQL; now it is stored exactly, on both backends."""
    records = small_repo(issues=2, prs=1)
    item = next(x for x in records if isinstance(x, r.ItemRecord) and x.number == 1)
    item.title, item.body, item.labels = "crash \x00", "log:\x00\x00", ["we\x00ird"]
    with FakeGitHub(records, token=TOKEN) as gh:
        gh.add_comment(REPO, 1, "core dump \x00\x01")
        gh.add_review(REPO, 3, "COMMENTED", body="\ufdd0 and \x00")
        gh.add_review_comment(REPO, 3, "nit \x00", path="src/m3_0.py")
        sync(store, gh, REPO)
        assert_same(store, gh, REPO)
        assert any("core dump \\u0000" in x for x in stored(store, REPO))
        again = sync(store, gh, REPO)
        assert again.requests == again.not_modified


# -- lone surrogates in GitHub's JSON (#25) -----------------------------------------------------


def test_a_lone_surrogate_in_any_text_syncs_on_both_backends(store: Store) -> None:
    """GitHub's JSON can spell half an emoji ("\\ud83d", cut by a truncation); Python decodes
    it into a str no UTF-8 encoder takes, and the store write used to raise on every later
    sync. Now it is stored exactly, and a re-sync is quiet."""
    records = small_repo(issues=2, prs=1)
    item = next(x for x in records if isinstance(x, r.ItemRecord) and x.number == 1)
    item.title, item.body, item.labels = "crash \ud83d", "log \ude00 end", ["we\ud83dird"]
    with FakeGitHub(records, token=TOKEN) as gh:
        gh.add_comment(REPO, 1, "half \ud83d")
        gh.add_review(REPO, 3, "COMMENTED", body="review \udfff")
        gh.add_review_comment(REPO, 3, "nit \ud800", path="src/m3_0.py")
        sync(store, gh, REPO)
        with store.engine.connect() as conn:
            got = {
                x.number: x
                for x in read_records(conn, store.require_repo(conn, REPO))
                if isinstance(x, r.ItemRecord)
            }
            bodies = conn.execute(sa.select(schema.comments.c.body)).scalars().all()
            reviews = conn.execute(sa.select(schema.reviews.c.body)).scalars().all()
            notes = conn.execute(sa.select(schema.review_comments.c.body)).scalars().all()
        assert (got[1].title, got[1].body, got[1].labels) == (item.title, item.body, item.labels)
        assert "half \ud83d" in bodies and "review \udfff" in reviews and "nit \ud800" in notes
        again = sync(store, gh, REPO)
        assert again.requests == again.not_modified
