"""The loopback GitHub's GraphQL `search`: issue and PR counts by repository, kind, state and
creation time, GitHub's way, and a refusal for anything it does not implement.

The data is test_fake_github.py's sample: issues #1 (created Feb 1), #3 (Feb 3) and #6 (Feb 6,
deleted); PRs #2 (Feb 2, open), #4 (Feb 4, merged) and #5 (Feb 5, open draft), all at midnight
UTC.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from testkit.servers.github import FakeGitHub
from tests.testkit.test_fake_github import REPO, TOKEN, sample

COUNT = "query($q: String!) { search(query: $q, type: ISSUE) { issueCount } }"
RESULTS = "query($q: String!) { search(query: $q, type: ISSUE, first: 5) { nodes { __typename } } }"


@pytest.fixture
def gh() -> Iterator[FakeGitHub]:
    with FakeGitHub(sample()) as fake:
        fake.delete_item(6)
        yield fake


def ask(gh: FakeGitHub, query: str, **variables: Any) -> dict[str, Any]:
    resp = httpx.post(
        gh.graphql_url,
        json={"query": query, "variables": variables},
        headers={"Authorization": f"Bearer {TOKEN}"},
    )
    assert resp.status_code == 200
    body: dict[str, Any] = resp.json()
    return body


def count(gh: FakeGitHub, q: str) -> int:
    body = ask(gh, COUNT, q=q)
    assert "errors" not in body, body
    return int(body["data"]["search"]["issueCount"])


@pytest.mark.parametrize(
    ("q", "expected"),
    [
        (f"repo:{REPO} is:issue", 2),  # #6 is deleted
        ("repo:ACME/Widgets is:pr", 3),  # the name in any case
        (f"repo:{REPO} type:pr is:open", 2),
        (f"repo:{REPO} is:pull-request is:merged", 1),
        (f"repo:{REPO} is:pr is:unmerged", 2),
        ("repo:acme/other is:pr", 0),
        # A date is its whole day, both ends of a range included.
        (f"repo:{REPO} is:pr created:2026-02-02..2026-02-04", 2),
        (f"repo:{REPO} created:2026-02-03", 1),
        # A time is its second.
        (f"repo:{REPO} is:pr created:2026-02-04T00:00:00Z..2026-02-04T00:00:00Z", 1),
        (f"repo:{REPO} is:pr created:2026-02-04T00:00:01Z..2026-02-04T23:59:59Z", 0),
        (f"repo:{REPO} is:pr created:2026-02-04T07:00:00+07:00", 1),
        # Open ends and comparisons.
        (f"repo:{REPO} is:pr created:2026-02-04T00:00:01Z..*", 1),
        (f"repo:{REPO} created:*..2026-02-02", 2),
        (f"repo:{REPO} is:pr created:>2026-02-02", 2),
        (f"repo:{REPO} is:pr created:>=2026-02-02", 3),
        (f"repo:{REPO} created:<2026-02-03", 2),
        (f"repo:{REPO} is:pr created:<=2026-02-02T00:00:00Z", 1),
        (f"repo:{REPO} is:pr created:<2026-02-02T00:00:00Z", 0),
    ],
)
def test_search_counts_what_github_would(gh: FakeGitHub, q: str, expected: int) -> None:
    assert count(gh, q) == expected


def test_several_counts_in_one_query_and_the_other_counts_are_zero(gh: FakeGitHub) -> None:
    body = ask(
        gh,
        "query($a: String!, $b: String!) {"
        " a: search(query: $a, type: ISSUE) { issueCount repositoryCount userCount }"
        " b: search(query: $b, type: ISSUE) { issueCount } }",
        a=f"repo:{REPO} is:issue",
        b=f"repo:{REPO} is:pr",
    )
    assert body["data"] == {
        "a": {"issueCount": 2, "repositoryCount": 0, "userCount": 0},
        "b": {"issueCount": 3},
    }


@pytest.mark.parametrize(
    ("query", "q", "words"),
    [
        (COUNT, f"repo:{REPO} crash", "'crash': free text"),
        (COUNT, f"repo:{REPO} label:bug", "'label:bug': not a qualifier"),
        (COUNT, f"repo:{REPO} created:yesterday", "created:yesterday: not a date"),
        (RESULTS, f"repo:{REPO}", "counts only"),
        (
            "query($q: String!) { search(query: $q, type: REPOSITORY) { repositoryCount } }",
            "widgets",
            "type REPOSITORY",
        ),
    ],
)
def test_what_the_fake_does_not_implement_is_refused_not_made_up(
    gh: FakeGitHub, query: str, q: str, words: str
) -> None:
    body = ask(gh, query, q=q)
    assert body.get("data") is None
    [error] = body["errors"]
    assert (
        error["message"].startswith("the fake GitHub cannot search by")
        and words in error["message"]
    ), error


def test_search_lag_counts_a_new_deletion_and_not_a_new_item_until_it_passes(
    gh: FakeGitHub,
) -> None:
    gh.search_lag = 60
    gh.delete_item(5)
    gh.add_item(kind="pr", title="new")
    assert count(gh, f"repo:{REPO} is:pr") == 3  # #5 still counted, the new PR not yet
    gh.advance(60)
    assert count(gh, f"repo:{REPO} is:pr") == 3  # the lag's last second
    gh.advance(1)
    assert count(gh, f"repo:{REPO} is:pr") == 3  # #5 gone from it, the new PR in it
    assert count(gh, f"repo:{REPO} is:pr created:2026-02-05") == 0


def test_zero_totals_zeroes_search_counts_too(gh: FakeGitHub) -> None:
    gh.inject("zero_totals", body_contains="search(")
    assert count(gh, f"repo:{REPO} is:pr") == 0
    assert count(gh, f"repo:{REPO} is:pr") == 3
