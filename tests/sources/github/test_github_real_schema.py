"""Held against GitHub's real public GraphQL schema (../shared/data/github/schema.graphql).

Every query tidings sends must be valid there, and the fake GitHub must validate (and run)
what it receives against it, so a query GitHub would refuse can never pass the test suite.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import httpx
import pytest
from graphql import (
    GraphQLNamedType,
    GraphQLSchema,
    NoDeprecatedCustomRule,
    build_schema,
    is_enum_type,
    is_interface_type,
    is_object_type,
    is_union_type,
    parse,
    validate,
)

from testkit.servers import github as fake_github
from testkit.servers.github import SUBSET_PATH, FakeGitHub, Request, graphql_schema, records_of
from testkit.servers.real_schema import build, real_schema, schema_path
from testkit.shared import SHARED_ENV
from tests.factories import Records
from tests.shared import shared_or_skip
from tests.sources.github.test_github_sync import EVIDENCE, _plain
from tidings.common.config import GitHubConfig
from tidings.sources.github import queries
from tidings.sources.github.client import GitHubClient
from tidings.sources.github.sync import sync_repository
from tidings.store import Store
from tidings.store.rows import read_records

TOKEN = "test-token"


@pytest.fixture(scope="module")
def real() -> GraphQLSchema:
    shared_or_skip(schema_path(), "these tests hold queries to GitHub's real GraphQL schema")
    schema = real_schema()
    assert schema is not None
    return schema


def _every_query() -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = [
        ("totals", queries.REPO_TOTALS),
        ("issue numbers", queries.item_numbers("issues")),
        ("PR numbers", queries.item_numbers("pullRequests")),
        ("issues by update", queries.items_by_update("issues")),
        ("PRs by update", queries.items_by_update("pullRequests")),
        ("search counts", queries.search_counts(3)),
        ("items by number", queries.items_by_number([1, 22, 333])),
    ]
    for field in queries.REVIEW_ID_FIELDS:
        out.append((f"details/{field}", queries.pr_details([1, 22, 333], field)))
        parts = [queries.Continuation(7, c, "Y3Vyc29yOnYyOlsxXQ==") for c in queries.CONNECTIONS]
        out.append((f"continuations/{field}", queries.continuations(parts, field)))
    return out


@pytest.mark.parametrize(("what", "query"), _every_query(), ids=[w for w, _ in _every_query()])
def test_every_query_tidings_sends_is_valid_against_githubs_schema(
    real: GraphQLSchema, what: str, query: str
) -> None:
    errors = validate(real, parse(query))
    assert [e.message for e in errors] == []


def test_the_main_queries_use_no_deprecated_field(real: GraphQLSchema) -> None:
    # `databaseId` (the fallback for servers without `fullDatabaseId`) is the one deprecated
    # field tidings asks for, and only where the server lacks the new one.
    for what, query in _every_query():
        if what.endswith("/databaseId"):
            continue
        errors = validate(real, parse(query), [NoDeprecatedCustomRule])
        assert [e.message for e in errors] == [], what


def test_a_query_github_refuses_is_refused_by_the_real_schema(real: GraphQLSchema) -> None:
    # Proof the check can fail: names that are not GitHub's, a missing required argument, and
    # a scalar where GitHub has an object.
    # (graphql-core's wording varies between versions: the test looks for what each names.)
    bad = {
        'query { repository(owner: "o", name: "r") { pullRequest(number: 1) { filesChanged } } }':
            ("Cannot query field 'filesChanged' on type 'PullRequest'",),
        'query { repository(owner: "o") { id } }': ("name", "String!", "is required"),
        'query { repository(owner: "o", name: "r") { pullRequest(number: 1) { author } } }':
            ("'author'", "'Actor'", "must have a selection of subfields"),
    }  # fmt: skip
    for query, words in bad.items():
        errors = [e.message for e in validate(real, parse(query))]
        assert len(errors) == 1 and all(w in errors[0] for w in words), errors


def test_the_fake_validates_and_runs_queries_against_the_real_schema(
    real: GraphQLSchema,
) -> None:
    schema, which = fake_github.schema()
    assert which == "real" and schema is real
    rec = Records()
    with FakeGitHub([rec.repo("o/r"), rec.pr(1)], token=TOKEN) as gh:

        def ask(query: str) -> dict[str, Any]:
            resp = httpx.post(
                gh.graphql_url, json={"query": query}, headers={"Authorization": f"bearer {TOKEN}"}
            )
            return resp.json()

        # A field of GitHub's schema that the subset lacks is not refused as unknown; the fake
        # has no data for it, so it answers null (with GraphQL's error for a non-null field)
        # rather than inventing a value.
        query = '{ repository(owner: "o", name: "r") { stargazerCount } }'
        subset = build_schema(SUBSET_PATH.read_text(encoding="utf-8"))
        assert validate(subset, parse(query)), "the subset should not know stargazerCount"
        body = ask(query)
        assert body["data"] == {"repository": None}
        assert [e["message"] for e in body["errors"]] == [
            "Cannot return null for non-nullable field Repository.stargazerCount."
        ]
        # A field GitHub does not have is refused with GraphQL's own message, nothing run.
        body = ask('{ repository(owner: "o", name: "r") { pullRequest(number: 1) { zzz } } }')
        assert list(body) == ["errors"] and len(body["errors"]) == 1
        assert body["errors"][0]["message"].startswith(
            "Cannot query field 'zzz' on type 'PullRequest'."
        )


def test_every_query_a_full_sync_sends_is_valid_against_the_real_schema(
    real: GraphQLSchema, sqlite_store: Store
) -> None:
    """Checked again here from the request log, independent of the fake's own validation."""
    seen: list[str] = []

    def record(_gh: FakeGitHub, request: Request) -> None:
        if request.api == "graphql":
            seen.append(json.loads(request.body)["query"])

    rec = Records()
    records: list[Any] = [rec.repo("o/r")]
    for n in range(1, 30):
        records.append(rec.pr(n) if n % 2 else rec.issue(n))
    records += [rec.review(n) for n in range(1, 30, 4)] + [rec.file(3, "src/a.py")]
    with FakeGitHub(records, token=TOKEN) as gh:
        gh.on_request(record)
        sync_repository(
            sqlite_store,
            "o/r",
            github=GitHubConfig(api_url=gh.api_url, graphql_url=gh.graphql_url),
            token=TOKEN,
        )
    assert len(seen) >= 2  # totals and PR details at least
    for query in seen:
        assert [e.message for e in validate(real, parse(query))] == []


def test_the_subset_agrees_with_the_real_schema(real: GraphQLSchema) -> None:
    """The hand-written subset (the stand-in where ../shared is absent) has only GitHub's
    types, fields and arguments, with GitHub's types and nullability."""
    subset = build_schema(SUBSET_PATH.read_text(encoding="utf-8"))
    problems: list[str] = []
    for name, kind in subset.type_map.items():
        if name.startswith("__"):
            continue
        theirs = real.type_map.get(name)
        if theirs is None or type(theirs) is not type(kind):
            problems.append(f"type {name}")
            continue
        for field_name, field in getattr(kind, "fields", {}).items():
            real_field = getattr(theirs, "fields", {}).get(field_name)
            if real_field is None or str(real_field.type) != str(field.type):
                problems.append(f"field {name}.{field_name}")
                continue
            for arg_name, arg in getattr(field, "args", {}).items():
                real_arg = real_field.args.get(arg_name)
                if real_arg is None or str(real_arg.type) != str(arg.type):
                    problems.append(f"argument {name}.{field_name}({arg_name})")
        interfaces = kind.interfaces if is_object_type(kind) or is_interface_type(kind) else []
        if not _names(interfaces) <= _names(getattr(theirs, "interfaces", [])):
            problems.append(f"interfaces of {name}")
        if is_enum_type(kind) and not set(kind.values) <= set(getattr(theirs, "values", {})):
            problems.append(f"values of {name}")
        if is_union_type(kind) and not _names(kind.types) <= _names(getattr(theirs, "types", [])):
            problems.append(f"members of {name}")
    assert problems == []


def _names(types: Iterable[GraphQLNamedType]) -> set[str]:
    return {t.name for t in types}


def test_schema_quirks_are_mended_without_changing_what_is_valid() -> None:
    sdl = """
    type Query { owner: Owner, node: Thing }
    interface Reactable { databaseId: Int }
    type Thing implements Reactable { databaseId: Int @deprecated(reason: "Use fullDatabaseId") }
    type Owner {
      setting: String!
      other: Int
      setting: String!
    }
    """
    schema = build(sdl)
    assert list(schema.type_map["Owner"].fields) == ["setting", "other"]  # type: ignore[union-attr]
    assert validate(schema, parse("{ node { databaseId } owner { setting other } }")) == []


def test_without_the_real_schema_the_fake_falls_back_with_a_warning_or_fails_under_ci(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SHARED_ENV, str(tmp_path / "nowhere"))
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr(graphql_schema, "_SUBSET", None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        schema, which = fake_github.schema()
    assert which == "subset" and "query" in str(schema.query_type).lower()
    assert any("nowhere" in str(w.message) and "subset" in str(w.message) for w in caught)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(RuntimeError, match="CI=true requires it"):
        fake_github.schema()
    with pytest.raises(RuntimeError, match="CI=true requires it"):
        FakeGitHub([Records().repo("o/r")]).start()


def test_missing_shared_schema_skips_with_a_reason_but_fails_under_ci(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    absent = tmp_path / "schema.graphql"
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"schema\.graphql is absent"):
        shared_or_skip(absent, "a test")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI=true requires it"):
        shared_or_skip(absent, "a test")


# -- shapes real GitHub sends that the fake's defaults do not ------------------------------------


def _shapes_records() -> list[Any]:
    rec = Records()
    return [
        rec.repo("o/r"),
        rec.issue(1, labels=["bug", "good first issue"]),
        rec.issue(2, author=None, author_type=None),  # a deleted account
        rec.comment(1, author=None, author_type=None),
        # One app, seen by REST (its comment) and by GraphQL (its review and its PR).
        rec.comment(1, author="coderabbitai[bot]", author_type="Bot"),
        rec.pr(3, author="renovate[bot]", author_type="Bot", labels=["deps"]),
        rec.review(3, id=3_000_000_001, author="coderabbitai[bot]", author_type="Bot"),
        rec.review(3, id=77, author=None, author_type=None, state="COMMENTED"),
        rec.pr(4),
        rec.review(4, id=78),
    ]


def _sync_fake(store: Store, gh: FakeGitHub) -> Any:
    client = GitHubClient(
        gh.api_url, gh.graphql_url, TOKEN, max_retries=2, sleep=lambda _s: None, backoff_base=0
    )
    gh.reset_log()
    with client:
        return sync_repository(
            store,
            "o/r",
            github=GitHubConfig(api_url=gh.api_url, graphql_url=gh.graphql_url),
            token=TOKEN,
            client=client,
        )


def _stored(store: Store) -> list[str]:
    with store.begin() as conn:
        rows = list(read_records(conn, store.require_repo(conn, "o/r")))
    kept = [x for x in rows if x.type not in ("sync_state", *EVIDENCE)]  # type: ignore[attr-defined]
    return sorted(_plain(x) for x in kept)


def test_the_fake_sends_each_variant_when_asked() -> None:
    with FakeGitHub(_shapes_records(), token=TOKEN) as gh:
        headers = {"Authorization": f"bearer {TOKEN}"}
        issue = httpx.get(f"{gh.api_url}/repos/o/r/issues/1", headers=headers).json()
        ghost = httpx.get(f"{gh.api_url}/repos/o/r/issues/2", headers=headers).json()
        assert issue["labels"][0]["name"] == "bug" and ghost["user"]["login"] == "ghost"
        gh.label_strings = gh.null_rest_users = True
        gh.null_review_ids = {77}
        issue = httpx.get(f"{gh.api_url}/repos/o/r/issues/1", headers=headers).json()
        ghost = httpx.get(f"{gh.api_url}/repos/o/r/issues/2", headers=headers).json()
        assert issue["labels"] == ["bug", "good first issue"] and ghost["user"] is None
        query = """{ repository(owner: "o", name: "r") { pullRequest(number: 3) {
            reviews(first: 5) { nodes { id fullDatabaseId author { login __typename } } } } } }"""
        body = httpx.post(gh.graphql_url, json={"query": query}, headers=headers).json()
        nodes = body["data"]["repository"]["pullRequest"]["reviews"]["nodes"]
        assert [(n["fullDatabaseId"], n["author"]) for n in nodes] == [
            (None, None),  # review 77: no id, and a deleted author
            ("3000000001", {"login": "coderabbitai", "__typename": "Bot"}),  # no [bot] here
        ]


def test_a_sync_of_every_variant_stores_what_a_plain_sync_stores(store: Store) -> None:
    """Labels as strings, `user: null`, null review ids, GraphQL bots without `[bot]`: the
    store ends up exactly as from the plain answers, and a bot is one login throughout."""
    with FakeGitHub(_shapes_records(), token=TOKEN) as gh:
        want = sorted(_plain(x) for x in records_of(gh, "o/r"))
        gh.label_strings = gh.null_rest_users = True
        gh.null_review_ids = {77, 78}
        report = _sync_fake(store, gh)
        # One REST review listing for each PR that had a review without an id.
        assert gh.count(path_contains="/pulls/3/reviews") == 1
        assert gh.count(path_contains="/pulls/4/reviews") == 1
    assert report.notes == []
    assert _stored(store) == want
    logins = {json.loads(row).get("author") for row in want}
    assert "coderabbitai[bot]" in logins and "coderabbitai" not in logins


def test_a_review_with_no_id_anywhere_is_left_out_with_a_note(
    sqlite_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    with FakeGitHub(_shapes_records(), token=TOKEN) as gh:
        gh.null_review_ids = {77}
        # The REST listing does not have it either (a pending review, say).
        monkeypatch.setattr(gh, "_rest_reviews", lambda request, repo, params: gh._ok(request, []))
        report = _sync_fake(sqlite_store, gh)
    assert len(report.notes) == 1
    assert report.notes[0].startswith("#3: review ") and report.notes[0].endswith("left out")
    reviews = [json.loads(r) for r in _stored(sqlite_store) if '"type": "review"' in r]
    assert sorted(r["id"] for r in reviews) == [78, 3_000_000_001]


def test_a_review_whose_id_turns_null_keeps_its_stored_id_without_a_request(
    store: Store,
) -> None:
    with FakeGitHub(_shapes_records(), token=TOKEN) as gh:
        _sync_fake(store, gh)
        want = _stored(store)
        gh.null_review_ids = {77, 78}
        gh.update_item(3, title="retitled")  # PR 3's details are fetched again
        gh.update_item(4, title="retitled too")
        report = _sync_fake(store, gh)
        assert report.pr_details == 2 and report.notes == []
        assert gh.count(path_contains="/reviews") == 0
        served = sorted(_plain(x) for x in records_of(gh, "o/r"))
    assert _stored(store) == served != want
