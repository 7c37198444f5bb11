"""Which PRs are reverts, and which PR each undoes: read from the text, then from the store.

A revert is news: something merged did not hold. The risk rules tag it (facts/risk.py), the
weekly names and links the PR it reverts and ranks it high (facts/weekly.py, importance.py,
report/weekly.py); all of them read reverts here, so a PR is a revert, and reverts the same PR,
wherever it is shown.

Forms read: a title that starts with `Revert`/`Reverts`/`Reverted` or `[Revert]` after any
`[Tag]`s, or says `(reverts #N)`; a body with git's `This reverts commit <sha>` or GitHub's
revert button's `Reverts owner/repo#N`, or that opens with `Revert` and the reverted
commit's link. A re-land (reverting a revert, `Reapply …`) is no revert: relands.py. The
reverted PR, most explicit first: the body's
`Reverts owner/repo#N`, `revert of PR #N`, `Original PR: #N`; the title's `reverts #N`, a
squash title's `(#N)` (inside a quoted title or after it), any `#N`; a `revert … /pull/N` link
in the body. Where the text names none, the store answers (link): the PR whose merge commit is
the reverted commit, else the last PR merged before with the quoted title.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

# `Revert …`, `[Revert] …`, `[CI]: revert …`, or a `(reverts #N)` anywhere in the title.
_REVERT_TITLE = re.compile(
    r"^\s*(?:\[[^\]]*\]\s*:?\s*)*(?:revert(?:s|ed)?\b|\[revert\])|\(reverts?\s+#\d+\)",
    re.IGNORECASE,
)
# git's `revert` message, and GitHub's "Revert" button ("Reverts owner/repo#N").
# Also a body that opens with "Revert" and the reverted commit's link.
_REVERT_BODY = re.compile(
    r"\bThis reverts commit [0-9a-f]{7,40}|^Reverts [\w.-]+/[\w.-]+#\d+"
    r"|\A\s*Reverts?:?\s+https://github\.com/[\w.-]+/[\w.-]+/commit/[0-9a-f]{7,40}",
    re.IGNORECASE | re.MULTILINE,
)
_REVERTED_SHA = re.compile(
    r"This reverts commit ([0-9a-f]{7,40})"
    r"|\A\s*Reverts?:?\s+https://github\.com/[\w.-]+/[\w.-]+/commit/([0-9a-f]{7,40})",
    re.IGNORECASE,
)
_OWNER_REPO = r"(?:[\w.-]+/[\w.-]+)?"
# The reverted PR, most explicit first (see the module's docstring).
_REVERTED_NUMBER: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("body", re.compile(r"^Reverts [\w.-]+/[\w.-]+#(\d{1,9})", re.IGNORECASE | re.MULTILINE)),
    (
        "body",
        re.compile(
            rf"\brevert(?:s|ed|ing)?\s+(?:of\s+)?(?:(?:pr|pull request)\s+)?{_OWNER_REPO}"
            r"#(\d{1,9})\b",
            re.IGNORECASE,
        ),
    ),
    (
        "body",
        re.compile(
            rf"^\s*original pr\s*:\s*{_OWNER_REPO}#(\d{{1,9}})\b", re.IGNORECASE | re.MULTILINE
        ),
    ),
    ("title", re.compile(r"\brevert(?:s|ed|ing)?\s+(?:of\s+)?(?:pr\s+)?#(\d{1,9})\b", re.I)),
    ("title", re.compile(r"\(#(\d{1,9})\)")),
    ("title", re.compile(r"#(\d{1,9})\b")),
    ("body", re.compile(r"\brevert(?:s|ed|ing)?\b[^\n]{0,40}?/pull/(\d{1,9})\b", re.I)),
)
# The reverted PR's title, as GitHub's button and `git revert` quote it: Revert "…".
_REVERTED_TITLE = re.compile(r"revert(?:s|ed)?\s*[:\]]?\s*[\"“](.+)[\"”]", re.IGNORECASE)
# A squash title's trailing "(#N)": inside a quoted title it names the reverted PR.
_OWN_NUMBER = re.compile(r"\s*\(#\d{1,9}\)\s*$")

# A re-land: a title that says `Reapply`/`Re-land`/`Reland` (after any `[Tag]`s, or as a
# `[Re-land]` tag) or reverts a revert (git's `Revert "Revert "…""`), or a body that says it
# re-lands a PR or reverts a revert ("This PR reverts "[X] Revert …" #N").
_RELAND_TITLE = re.compile(
    r"^\s*(?:\[[^\]]*\]\s*:?\s*)*(?:re-?(?:land|apply)(?:s|ed|ing)?\b|reapplies\b)"
    r"|\[re-?(?:land|apply)\]"
    r"|^\s*(?:\[[^\]]*\]\s*:?\s*)*revert(?:s|ed)?\s*[:\]]?\s*[\"“]\s*(?:\[[^\]]*\]\s*)*revert\b",
    re.IGNORECASE,
)
_RELAND_BODY = re.compile(
    r"\bre-?(?:land|apply)(?:s|ed|ing)?\s+(?:of\s+)?(?:pr\s+)?(?:[\w.-]+/[\w.-]+)?#(\d{1,9})\b"
    r"|\breverts?\s+(?:the\s+)?[\"“]?(?:\[[^\]]*\]\s*)*revert\b([^\n]*\n?[^\n]*?#(\d{1,9})\b)?",
    re.IGNORECASE,
)
# In a re-land's title: the quoted title of the PR it brings back, and what follows it.
_QUOTED = re.compile(r"[\"“](.+)[\"”](.*)$")
_NUMBER = re.compile(r"#(\d{1,9})\b")

# The store's answers: "which PR merged this commit", "which PR, merged before this time,
# had this title", and "what are this PR's title, body and merge time".
BySha = Callable[[str], int | None]
ByTitle = Callable[[str, datetime], int | None]
ByNumber = Callable[[int], tuple[str, str | None, datetime] | None]


@dataclass(frozen=True, slots=True)
class RelandRef:
    """What a re-land's title and body say: the PR it brings back and the revert it undoes."""

    original: int | None  # named in the text
    revert: int | None  # named in the text
    sha: str | None  # "This reverts commit …": the revert's commit
    title: str | None  # the quoted title of the PR brought back


def reland_ref(title: str, body: str | None, number: int | None = None) -> RelandRef | None:
    """What the text says about the PR a re-land brings back, or None when it is no re-land
    (a PR that reverts a revert re-lands the reverted change; it is no revert itself)."""
    body = body or ""
    in_title = _RELAND_TITLE.search(title)
    in_body = _RELAND_BODY.search(body)
    if not (in_title or in_body):
        return None
    original = revert = None
    quoted = None
    if in_title and (q := _QUOTED.search(title)):
        inner, after = q.group(1), q.group(2)
        # `Reapply "X (#6041)" (#6227)`: the quoted title's number is the original's, the
        # one after it the revert's. `Revert "Revert "X (#5)" (#6)"` quotes the revert's
        # own title: its first number is the original's, its last the revert's.
        numbers = [n for m in _NUMBER.finditer(inner) if (n := int(m.group(1))) != number]
        if _REVERT_TITLE.match(inner):
            original = numbers[0] if len(numbers) > 1 else None
            revert = numbers[-1] if numbers else None
        else:
            quoted = _OWN_NUMBER.sub("", inner).strip()
            original = numbers[0] if numbers else None
            revert = _first_number(after, number)
    if in_body:
        if in_body.group(1):
            original = original or _other(int(in_body.group(1)), number)
        elif in_body.group(3):
            revert = revert or _other(int(in_body.group(3)), number)
    sha = _REVERTED_SHA.search(body)
    found = (sha.group(1) or sha.group(2)).lower() if sha else None
    return RelandRef(original, revert, found, quoted)


def _first_number(text: str, own: int | None) -> int | None:
    return next((n for m in _NUMBER.finditer(text) if (n := int(m.group(1))) != own), None)


def _other(n: int, own: int | None) -> int | None:
    return None if n == own else n


def is_reland(title: str, body: str | None = None) -> bool:
    return reland_ref(title, body) is not None


@dataclass(frozen=True, slots=True)
class RevertRef:
    """What a revert's title and body say about the PR it reverts."""

    number: int | None  # named in the text
    sha: str | None  # "This reverts commit …"
    title: str | None  # the quoted title of the reverted PR


def revert_ref(title: str, body: str | None, number: int | None = None) -> RevertRef | None:
    """The reverted PR as the text names it, or None when the PR is no revert. `number` is the
    revert's own: a squash title may carry it, and a PR does not revert itself."""
    body = body or ""
    says = bool(_REVERT_TITLE.search(title))
    if not (says or _REVERT_BODY.search(body)) or reland_ref(title, body, number):
        return None
    named = None
    for where, pattern in _REVERTED_NUMBER:
        if where == "title" and not says:
            # A title that is no revert's ("Reapply "X (#N)"") names the PR it brings back.
            continue
        found = (int(m.group(1)) for m in pattern.finditer(title if where == "title" else body))
        named = next((n for n in found if n != number), None)
        if named is not None:
            break
    sha = _REVERTED_SHA.search(body)
    quoted = _REVERTED_TITLE.search(title)
    return RevertRef(
        number=named,
        sha=(sha.group(1) or sha.group(2)).lower() if sha else None,
        title=_OWN_NUMBER.sub("", quoted.group(1)).strip() if quoted else None,
    )


def is_revert(title: str, body: str | None = None) -> bool:
    return revert_ref(title, body) is not None


def reverted_number(number: int, title: str, body: str | None) -> int | None:
    """The PR number a revert names in its title or body, or None (not a revert, or it names
    only a commit)."""
    ref = revert_ref(title, body, number)
    return ref.number if ref else None


def revert_line(title: str, body: str | None) -> str | None:
    """The words that make the PR a revert: its title, else the body's revert line."""
    if _REVERT_TITLE.search(title):
        return title
    match = _REVERT_BODY.search(body or "")
    return match.group(0) if match else None


def link(
    ref: RevertRef, number: int, merged_at: datetime, by_sha: BySha, by_title: ByTitle
) -> int | None:
    """The PR a revert whose text names none undoes, as the store tells: by the reverted commit
    (a PR's merge commit), else by the quoted title of a PR merged before it."""
    found = None
    if ref.number is None:
        if ref.sha:
            found = by_sha(ref.sha)
        if found is None and ref.title:
            found = by_title(ref.title, merged_at)
    return found if found != number else None
