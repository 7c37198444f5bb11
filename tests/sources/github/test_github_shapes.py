"""shapes.py and deletions.py on literal answers: what the sync believes, and what it refuses."""

from __future__ import annotations

from typing import Any

import pytest

from tidings.sources.github import normalize as nz
from tidings.sources.github import queries, shapes
from tidings.sources.github.deletions import proven_gone

INFO = {"hasNextPage": False, "endCursor": None}


def conn(nodes: list[Any], total: int | None = None, info: Any = INFO) -> dict[str, Any]:
    return {"totalCount": len(nodes) if total is None else total, "pageInfo": info, "nodes": nodes}


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ({}, "the listing is an empty object, not a list"),
        ({"message": "oops"}, "the listing is an object, not a list"),
        (None, "the listing is null, not a list"),
        ([None], "row 1 is null, not an object"),
        ([{"id": 1}], r"row 1 has a bad value \(GitHub answer lacks the parent URL\)"),
        ([{"id": 1, "issue_url": "u/1"}], "row 1 lacks 'created_at'"),
    ],
)
def test_rest_listing_of_the_wrong_shape(body: Any, problem: str) -> None:
    with pytest.raises(shapes.UnexpectedAnswer, match=problem):
        shapes.rest_list(nz.comment_from_rest)(body)


def test_rest_listing_may_be_empty() -> None:
    assert shapes.rest_list(nz.comment_from_rest)([]) == []


def _comment(updated: str) -> dict[str, Any]:
    return {
        "id": 1,
        "issue_url": "https://api.github.com/repos/o/r/issues/4",
        "created_at": "2026-01-01T00:00:00Z",
        "updated_at": updated,
    }


def test_a_since_listing_never_holds_a_row_updated_before_its_since() -> None:
    parse = shapes.since_list(nz.comment_from_rest, "2026-03-02T10:00:00Z")
    assert len(parse([_comment("2026-03-02T10:00:00Z"), _comment("2026-03-05T00:00:00Z")])) == 2
    with pytest.raises(shapes.UnexpectedAnswer, match="row 2 was last updated at 2026-03-02T09:59"):
        parse([_comment("2026-03-02T10:00:00Z"), _comment("2026-03-02T09:59:59Z")])
    assert len(shapes.since_list(nz.comment_from_rest, None)([_comment("2020-01-01T00:00:00Z")]))


@pytest.mark.parametrize(
    ("page", "problem"),
    [
        (None, "issues is null"),
        ({"totalCount": 0, "pageInfo": INFO}, r"issues.nodes is null"),
        (conn([{"number": 1}], total=0), "lists 1 nodes but counts 0"),
        (conn([], info={"hasNextPage": True, "endCursor": None}), "no endCursor"),
        ({"pageInfo": INFO, "nodes": []}, "lacks totalCount"),
        (conn([{"number": "7"}]), "number is str"),
    ],
)
def test_number_listing_of_the_wrong_shape(page: Any, problem: str) -> None:
    with pytest.raises(shapes.UnexpectedAnswer, match=problem):
        shapes.item_numbers("issues")({"repository": {"issues": page}}, [])


def test_null_repository_without_an_error_is_a_wrong_shape() -> None:
    with pytest.raises(shapes.UnexpectedAnswer, match="repository is null"):
        shapes.repo_totals({"repository": None}, [])


def _pr(**overrides: Any) -> dict[str, Any]:
    node: dict[str, Any] = {
        "number": 5,
        "state": "OPEN",
        "createdAt": "2026-01-01T00:00:00Z",
        "updatedAt": "2026-01-01T00:00:00Z",
    }
    for name in queries.CONNECTIONS:
        node[name] = conn([])
    node.update(overrides)
    return node


def test_pr_details_null_connection_or_unexplained_null_alias() -> None:
    check = shapes.pr_details([5])
    check({"repository": {"p5": _pr()}}, [])
    with pytest.raises(shapes.UnexpectedAnswer, match=r"p5.reviews is null"):
        error = {"type": "NOT_FOUND", "path": ["repository", "p5", "reviews"]}
        check({"repository": {"p5": _pr(reviews=None)}}, [error])
    with pytest.raises(shapes.UnexpectedAnswer, match=r"p5.labels is null"):
        check({"repository": {"p5": _pr(labels=None)}}, [])
    with pytest.raises(shapes.UnexpectedAnswer, match=r"p5.files is null"):
        node = _pr()
        del node["files"]  # absent is not null
        check({"repository": {"p5": node}}, [])
    with pytest.raises(shapes.UnexpectedAnswer, match="p5 is null without a NOT_FOUND"):
        check({"repository": {"p5": None}}, [])
    check({"repository": {"p5": None}}, [{"type": "NOT_FOUND", "path": ["repository", "p5"]}])
    with pytest.raises(shapes.UnexpectedAnswer, match=r"p5.reviews node 1 lacks 'databaseId'"):
        check({"repository": {"p5": _pr(reviews=conn([{"state": "APPROVED"}]))}}, [])
    # A null id is GitHub's to send (the sync looks it up by node id); an absent one is not.
    check(
        {
            "repository": {
                "p5": _pr(reviews=conn([{"id": "R", "fullDatabaseId": None, "state": "APPROVED"}]))
            }
        },
        [],
    )


def test_pr_details_nulls_github_really_sends() -> None:
    """`files: null` with no error (a very large PR: the sync lists its files by REST), and a
    connection null with a FORBIDDEN error naming it (an organisation restricting OAuth apps:
    the sync keeps what it holds) are real answers, not wrong shapes."""
    check = shapes.pr_details([5])
    check({"repository": {"p5": _pr(files=None, changedFiles=0)}}, [])
    refused = {"type": "FORBIDDEN", "path": ["repository", "p5", "reviews"], "message": "OAuth"}
    check({"repository": {"p5": _pr(reviews=None)}}, [refused])
    assert shapes.forbidden_at([refused], ["repository", "p5", "reviews"]) == "OAuth"
    assert shapes.forbidden_at([refused], ["repository", "p5", "labels"]) is None
    with pytest.raises(shapes.UnexpectedAnswer, match=r"p5.labels is null"):
        check({"repository": {"p5": _pr(labels=None)}}, [refused])


def test_an_alias_answering_for_another_pr_is_a_wrong_shape() -> None:
    """`p5: pullRequest(number: 5)` answered with #6's data would store #6's files and reviews
    under #5; so would a continuation."""
    with pytest.raises(shapes.UnexpectedAnswer, match="p5 asked for #5 but answers for #6"):
        shapes.pr_details([5])({"repository": {"p5": _pr(number=6)}}, [])
    part = queries.Continuation(5, "files", "cursor")
    check = shapes.continuations([part])
    check({"repository": {"c0": {"number": 5, "files": conn([])}}}, [])
    with pytest.raises(shapes.UnexpectedAnswer, match="c0 asked for #5 but answers for #6"):
        check({"repository": {"c0": {"number": 6, "files": conn([])}}}, [])
    with pytest.raises(shapes.UnexpectedAnswer, match="c0 asked for #5 but answers for #None"):
        check({"repository": {"c0": {"files": conn([])}}}, [])
    assert "number files(" in queries.continuations([part])


def test_deletions_need_a_complete_consistent_plausible_listing() -> None:
    held = list(range(1, 31))
    assert proven_gone(held, set(range(1, 30)), what="x", expected=29).gone == [30]
    assert proven_gone(held, set(held), what="x").refused is None
    partial = proven_gone(held, set(range(1, 30)), what="x", complete=False)
    assert partial.gone == [] and "incomplete" in (partial.refused or "")
    short = proven_gone(held, set(range(1, 29)), what="comments of #1", expected=29)
    assert short.gone == [] and "GitHub counts 29" in (short.refused or "")
    mass = proven_gone(held, set(), what="issues", expected=0)
    assert mass.gone == [] and "30 of 30 vanishing at once" in (mass.refused or "")
    # A handful at once is never suspicious, even all of a short thread.
    assert proven_gone([1, 2, 3], set(), what="x", expected=0).gone == [1, 2, 3]
    assert len(proven_gone(held, set(held[:15]), what="x", expected=15).gone) == 15
    assert proven_gone(held, set(held[:14]), what="x", expected=14).refused
