"""Re-lands (facts/relands.py, reverts.reland_ref): linked to the PR they bring back and the
revert they undo, and never tagged or counted as reverts."""

from __future__ import annotations

from datetime import UTC, datetime

from tidings.facts.relands import Reland, link_reland
from tidings.facts.reverts import reland_ref, revert_ref

T = datetime(2026, 2, 4, tzinfo=UTC)
# A store of three PRs: #10 merged, #11 reverted it by git's revert, #12 re-lands it.
SHAS = {"aaaa1111": 10, "bbbb2222": 11}
TEXTS = {
    10: ("[Fix] Pads query_start_loc", "Fixes padding.", T),
    11: ('[ModelRunner] Revert "[Fix] Pads query_start_loc', "This reverts commit aaaa1111.", T),
}


def by_sha(sha: str) -> int | None:
    return next((n for full, n in SHAS.items() if full.startswith(sha)), None)


def by_title(title: str, before: datetime) -> int | None:
    return next((n for n, (t, _, _) in TEXTS.items() if t == title), None)


def by_number(n: int) -> tuple[str, str | None, datetime] | None:
    return TEXTS.get(n)


def linked(title: str, body: str | None, number: int = 12) -> Reland | None:
    ref = reland_ref(title, body, number)
    return None if ref is None else link_reland(ref, number, T, by_sha, by_title, by_number)


def test_a_reapply_title_names_both() -> None:
    got = linked('Reapply "[Refactor] Unify logic (#6041)" (#6227)', "This reverts commit 9564.")
    assert got == Reland(original=6041, revert=6227)


def test_a_body_that_reverts_the_revert_is_linked_through_the_store() -> None:
    # #6475's words: no keyword in its title, the revert named in its body, the original
    # only in the revert's own text ("This reverts commit …").
    body = (
        'This PR reverts "[ModelRunner] Revert [Fix] Pads query_start_loc #11 (commit\nbbbb2222)"'
    )
    assert linked("[ModelRunner][Fix] Pads query_start_loc", body) == Reland(10, 11)


def test_the_revert_commit_alone_is_enough() -> None:
    assert linked("Reland padding", "This reverts commit bbbb2222.") == Reland(10, 11)


def test_re_land_spellings_and_what_is_none() -> None:
    for title in ("Re-land padding", "[Reland] padding", "[Misc] Reapply padding", "Relanding x"):
        assert reland_ref(title, None) is not None, title
    assert reland_ref("[Feat] Land the new scheduler", None) is None
    assert reland_ref("Fix re-landing of weights", None) is None
    assert reland_ref("[CI] Revert x", "This reverts commit aaaa1111.") is None
    # A re-land is not a revert, whatever git's message says.
    assert revert_ref("Reapply x", "This reverts commit bbbb2222.") is None
