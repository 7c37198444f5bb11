"""The one definition of a bot (tidings.common.bots), measured on the real vllm-ascend history
(#22)."""

from __future__ import annotations

import pytest

from testkit.gitlog import ASCEND, load_records
from tests.shared import shared_or_skip
from tidings.common.bots import GIT_BOT, is_bot, is_bot_email
from tidings.common.records import GIT_AUTHOR


@pytest.mark.parametrize(
    ("author", "author_type"),
    [
        ("dependabot[bot]", "Bot"),
        ("some-app", "Bot"),  # GitHub's type says so, whatever the name
        ("renovate[bot]", None),
        ("Someone", GIT_BOT),  # the git sync judged the email
        ("vllm-ascend-ci", GIT_AUTHOR),
        ("vllm-ascend-ci", "User"),  # the same account read from the API
        ("github-actions", GIT_AUTHOR),
        ("GitHub Action", GIT_AUTHOR),
        ("dependabot", "User"),
        ("pre-commit-ci", "User"),
        ("Mergify", GIT_AUTHOR),
        ("Copilot", "Bot"),
        ("copilot", GIT_AUTHOR),
        ("release-bot", "User"),
        ("Release Bot", GIT_AUTHOR),
        ("k8s-ci-robot", "User"),
        ("Jenkins CI", GIT_AUTHOR),
        ("docs_automation", GIT_AUTHOR),
        ("vllmcibot", "User"),
    ],
)
def test_automation_is_a_bot(author: str, author_type: str | None) -> None:
    assert is_bot(author, author_type)


@pytest.mark.parametrize(
    "author",
    [
        "Abbott",  # "bot" inside a name
        "robotics-dev",
        "iKeybot",  # ends in "bot" with no separator: a vllm-ascend contributor
        "Talbot",
        "Wang Ci",  # Ci is a given name: only the capitals "CI" count after a space
        "shenhui-cli",
        "Feng Liu",
        "botanist",
        "cibotti",
    ],
)
def test_a_person_whose_name_contains_bot_or_ci_is_no_bot(author: str) -> None:
    assert not is_bot(author, GIT_AUTHOR)
    assert not is_bot(author, "User")


def test_a_deleted_account_is_no_bot() -> None:
    assert not is_bot(None, None)


def test_configured_names_are_bots_without_case() -> None:
    assert is_bot("Release-Helper", "User", ["release-helper"])
    assert is_bot("release helper", GIT_AUTHOR, [" Release Helper "])
    assert not is_bot("release-helper", "User", [])
    assert not is_bot("release-helper-2", "User", ["release-helper"])


@pytest.mark.parametrize(
    ("email", "bot"),
    [
        ("49699333+dependabot[bot]@users.noreply.github.com", True),
        ("41898282+github-actions[bot]@users.noreply.github.com", True),
        ("noreply@github.com", True),
        ("github-actions@github.com", True),
        ("action@github.com", True),
        ("support@dependabot.com", True),
        ("bot@renovateapp.com", True),
        ("vllmcibot@gmail.com", True),  # vllm-ascend-ci's address
        ("release-bot@example.com", True),
        ("92210799+iKeybot-code@users.noreply.github.com", False),  # a person
        ("wei@example.com", False),
        ("abbott@example.com", False),
        ("12345+noreply-fan@users.noreply.github.com", False),
        ("", False),
    ],
)
def test_bot_emails(email: str, bot: bool) -> None:
    assert is_bot_email(email) is bot


def test_the_bots_of_the_vllm_ascend_history_are_the_two_automation_accounts() -> None:
    """Every author name of the 4,734 first-parent commits, read by hand: two are automation
    (dependabot, and vllm-ascend-ci, which commits translations, cherry-picks and test-time
    updates); the 597 others are people, iKeybot among them."""
    records = load_records(shared_or_skip(ASCEND, "this test reads the vllm-ascend history"))
    names = {r["author"] for r in records}
    assert len(names) == 599
    assert {n for n in names if is_bot(n, GIT_AUTHOR)} == {"dependabot[bot]", "vllm-ascend-ci"}
