"""Roles beyond `author_association` (facts/roles.py): the config's maintainers and teams, merge
rights seen in the data, then the association; each role says where it came from."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from testkit.servers.github import FakeGitHub
from tests.factories import Records, seed
from tidings.cli import main
from tidings.common.config import GitHubConfig, RepoConfig, parse_config
from tidings.errors import ConfigError
from tidings.facts.load.roles import load_roles
from tidings.facts.roles import RoleOf, Roles, role_of
from tidings.render.markdown import render_daily_markdown as render_markdown
from tidings.report.daily import build_daily
from tidings.sources.github.client import GitHubClient
from tidings.sources.github.sync import SYNCED_STREAM, SyncReport, sync_repository
from tidings.store import Store
from tidings.store.teams import read_teams, write_team

REPO = "acme/widgets"
TOKEN = "test-token"
DAY = date(2026, 2, 24)  # UTC window [2026-02-24T00:00Z, 2026-02-25T00:00Z)


# -- deciding a role ---------------------------------------------------------------------------


def test_each_source_in_order_of_precedence() -> None:
    roles = Roles(
        maintainers=frozenset({"cfg-person"}),
        teams={"acme/core": frozenset({"team-person", "cfg-person"})},
        mergers={"merger": 41, "team-person": 7},
        bots=("helper-robot",),
    )
    # A private org member is CONTRIBUTOR to a token that cannot see private membership.
    assert roles.of("Cfg-Person", "User", "CONTRIBUTOR") == RoleOf("maintainer", "config")
    assert roles.of("team-person", "User", "CONTRIBUTOR") == RoleOf(
        "maintainer", "team", "acme/core"
    )
    assert roles.of("MERGER", "User", "NONE") == RoleOf("maintainer", "merged", "#41")
    assert roles.of("owner", "User", "OWNER") == RoleOf("maintainer", "association", "OWNER")
    assert roles.of("cy", "User", "CONTRIBUTOR") == RoleOf(
        "contributor", "association", "CONTRIBUTOR"
    )
    assert roles.of("uma", "User", "FIRST_TIME_CONTRIBUTOR").role == "user"
    assert roles.of(None, None, None) == RoleOf("user", "association", None)  # deleted account
    # Bots are bots whatever the lists say.
    assert roles.of("dependabot[bot]", "Bot", "MEMBER") == RoleOf("bot", "account")
    assert roles.of("helper-robot", "User", "MEMBER") == RoleOf("bot", "config")
    # An automation name is a bot with no config, whatever the association (tidings.common.bots).
    assert roles.of("vllm-ascend-ci", "User", "MEMBER") == RoleOf("bot", "name")


def test_without_config_or_data_the_association_decides_as_before() -> None:
    assert role_of("mo", "User", "MEMBER") == "maintainer"
    assert role_of("cy", "User", "CONTRIBUTOR") == "contributor"
    assert role_of("uma", "User", "NONE") == "user"
    assert role_of("helper-robot", "User", "MEMBER", ["helper-robot"]) == "bot"


# -- the config --------------------------------------------------------------------------------


def test_top_level_maintainers_apply_to_every_repository() -> None:
    cfg = parse_config(
        """
maintainers = ["Lead"]
maintainer_teams = ["acme/core"]

[[repos]]
name = "acme/widgets"
maintainers = ["lead", "second"]
maintainer_teams = ["acme/reviewers"]
"""
    )
    repo = cfg.repo("acme/widgets")
    assert repo.maintainers == ["lead", "second"]  # "Lead" is the same login
    assert repo.maintainer_teams == ["acme/reviewers", "acme/core"]
    other = cfg.repo("someone/else")
    assert (other.maintainers, other.maintainer_teams) == (["Lead"], ["acme/core"])


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ('maintainers = ["@alice"]', "maintainers: '@alice' is not a GitHub login"),
        ('maintainer_teams = ["core"]', "maintainer_teams: team must be ORG/TEAM-SLUG"),
        (
            '[[repos]]\nname = "a/b"\nmaintainer_teams = ["acme/core/x"]',
            "repos[a/b].maintainer_teams: team must be ORG/TEAM-SLUG",
        ),
    ],
)
def test_bad_maintainer_entries_are_one_line_errors(toml: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(toml)
    assert message in str(caught.value) and "\n" not in str(caught.value)


# -- roles from the store ----------------------------------------------------------------------


def test_load_roles_reads_teams_and_mergers_from_the_store(store: Store) -> None:
    rec = Records()
    repo_id = seed(
        store,
        [
            rec.repo(REPO),
            rec.pr(3, merged_at="2026-02-20T00:00:00Z", merged_by="Merger"),
            rec.pr(9, merged_at="2026-02-21T00:00:00Z", merged_by="merger"),
            # A PR found deleted is no evidence any more.
            rec.pr(5, merged_at="2026-02-21T00:00:00Z", merged_by="gone", deleted=True),
            rec.pr(6),
        ],
    )
    with store.begin() as conn:
        write_team(store, conn, repo_id, "Acme/Core", ["Zed", "ann"])
        # A team the config no longer names is ignored, though stored.
        write_team(store, conn, repo_id, "acme/old", ["olga"])
    cfg = RepoConfig(
        name=REPO, maintainers=["Cfg"], maintainer_teams=["acme/core", "acme/unsynced"]
    )
    with store.begin() as conn:
        assert read_teams(conn, repo_id) == {"acme/core": ["ann", "Zed"], "acme/old": ["olga"]}
        roles = load_roles(conn, repo_id, cfg)
    assert roles.maintainers == {"cfg"}
    assert dict(roles.teams) == {"acme/core": {"ann", "zed"}}
    assert dict(roles.mergers) == {"merger": 9}
    assert roles.of("olga", "User", "CONTRIBUTOR").role == "contributor"


# -- in the report -----------------------------------------------------------------------------


def _thread(rec: Records) -> list[Any]:
    """A hot thread where a private org member ("pat") shows up as CONTRIBUTOR."""
    return [
        rec.repo(REPO),
        rec.issue(10, "2026-02-20T00:00:00Z", author="uma", author_association="NONE"),
        rec.comment(10, "2026-02-24T02:00:00Z", author="uma", author_association="NONE",
                    body="The new default doubled our memory use."),
        rec.comment(10, "2026-02-24T03:00:00Z", author="pat", author_association="CONTRIBUTOR",
                    body="Intended; pass --legacy-mode to keep the old behaviour."),
        rec.comment(10, "2026-02-24T04:00:00Z", author="vic", author_association="NONE",
                    body="Same here."),
    ]  # fmt: skip


def _pat(store: Store, cfg: RepoConfig) -> Any:
    report = build_daily(store, cfg, DAY, "en")
    (hot,) = report.hot_discussions
    return report, next(v for v in hot.viewpoints if v.login == "pat")


def test_the_association_alone_calls_a_private_member_a_contributor(store: Store) -> None:
    seed(store, _thread(Records()))
    report, pat = _pat(store, RepoConfig(name=REPO))
    assert (pat.role, pat.role_source, pat.role_evidence) == (
        "contributor",
        "association",
        "CONTRIBUTOR",
    )
    assert "Contributor [@pat]" in render_markdown(report)


def test_a_configured_maintainer_is_a_maintainer_and_the_report_says_why(store: Store) -> None:
    seed(store, _thread(Records()))
    report, pat = _pat(store, RepoConfig(name=REPO, maintainers=["PAT"]))
    assert (pat.role, pat.role_source) == ("maintainer", "config")
    markdown = render_markdown(report)
    assert "Maintainer [@pat]" in markdown and "Contributor [@pat]" not in markdown
    assert "Maintainers (pat)" in report.hot_discussions[0].contention.text
    # The source is in the JSON form of the report.
    data = json.loads(report.model_dump_json())
    view = next(v for v in data["hot_discussions"][0]["viewpoints"] if v["login"] == "pat")
    assert (view["role"], view["role_source"]) == ("maintainer", "config")


def test_a_team_member_is_a_maintainer(store: Store) -> None:
    repo_id = seed(store, _thread(Records()))
    cfg = RepoConfig(name=REPO, maintainer_teams=["acme/core"])
    _, pat = _pat(store, cfg)
    assert pat.role == "contributor"  # the team was never listed: nothing to go on
    with store.begin() as conn:
        write_team(store, conn, repo_id, "acme/core", ["pat", "mo"])
    _, pat = _pat(store, cfg)
    assert (pat.role, pat.role_source, pat.role_evidence) == ("maintainer", "team", "acme/core")


def test_merging_a_pr_shows_merge_rights(store: Store) -> None:
    rec = Records()
    seed(store, [*_thread(rec), rec.pr(7, merged_at="2026-02-10T00:00:00Z", merged_by="pat")])
    _, pat = _pat(store, RepoConfig(name=REPO))
    assert (pat.role, pat.role_source, pat.role_evidence) == ("maintainer", "merged", "#7")


def test_a_maintainer_by_role_answers_a_thread_for_the_watch_list(store: Store) -> None:
    rec = Records()
    seed(
        store,
        [
            rec.repo(REPO),
            rec.issue(32, "2026-02-24T02:00:00Z", title="Feature idea"),
            *[rec.comment(32, "2026-02-24T03:00:00Z", author=u) for u in ("a1", "a2", "a3")],
            rec.comment(32, "2026-02-24T04:00:00Z", author="pat", author_association="CONTRIBUTOR"),
        ],
    )
    unanswered = build_daily(store, RepoConfig(name=REPO), DAY, "en")
    assert [w.reasons for w in unanswered.watchlist] == [["unanswered"]]
    answered = build_daily(store, RepoConfig(name=REPO, maintainers=["pat"]), DAY, "en")
    assert answered.watchlist == []


# -- the sync lists the teams ------------------------------------------------------------------


@pytest.fixture
def fake() -> Iterator[FakeGitHub]:
    rec = Records()
    with FakeGitHub([rec.repo(REPO), rec.issue(1), rec.pr(2)], token=TOKEN) as gh:
        yield gh


def _sync(store: Store, gh: FakeGitHub, teams: list[str]) -> SyncReport:
    client = GitHubClient(
        gh.api_url, gh.graphql_url, TOKEN, max_retries=2, sleep=lambda _s: None, backoff_base=0
    )
    gh.reset_log()
    with client:
        return sync_repository(
            store,
            REPO,
            github=GitHubConfig(api_url=gh.api_url, graphql_url=gh.graphql_url),
            token=TOKEN,
            client=client,
            teams=teams,
        )


def _teams(store: Store) -> dict[str, list[str]]:
    with store.begin() as conn:
        return read_teams(conn, store.require_repo(conn, REPO))


def test_sync_lists_maintainer_teams_and_an_unchanged_team_costs_a_304(
    store: Store, fake: FakeGitHub
) -> None:
    fake.set_team("acme", "core", ["pat", "Mo"])
    report = _sync(store, fake, ["acme/core"])
    assert _teams(store) == {"acme/core": ["Mo", "pat"]}
    assert report.team_members == 2 and report.notes == []
    assert fake.count(path_contains="/orgs/acme/teams/core/members") == 1

    again = _sync(store, fake, ["acme/core"])
    members = fake.count(path_contains="/orgs/acme/teams/core/members")
    assert members == 1 == fake.count(path_contains="/teams/", not_modified=True)
    assert again.team_members == 0

    fake.set_team("acme", "core", ["pat"])  # Mo left the team
    _sync(store, fake, ["acme/core"])
    assert _teams(store) == {"acme/core": ["pat"]}


def test_no_teams_configured_costs_no_request(store: Store, fake: FakeGitHub) -> None:
    _sync(store, fake, [])
    assert fake.count(path_contains="/orgs/") == 0
    assert _teams(store) == {}


def test_a_team_github_will_not_show_keeps_its_last_members_with_a_note(
    store: Store, fake: FakeGitHub
) -> None:
    fake.set_team("acme", "core", ["pat"])
    _sync(store, fake, ["acme/core"])
    fake.set_team("acme", "core", None)  # hidden from the token (or gone): GitHub says 404
    report = _sync(store, fake, ["acme/core", "acme/never"])
    assert _teams(store) == {"acme/core": ["pat"]}
    assert report.notes == [
        "team acme/core is not visible to this token (it needs read:org); "
        "its members stay as last listed",
        "team acme/never is not visible to this token (it needs read:org); "
        "its members stay as last listed",
    ]


def test_a_team_of_more_than_a_page_is_read_whole_every_time(
    store: Store, fake: FakeGitHub
) -> None:
    people = [f"dev{i:03d}" for i in range(130)]
    fake.set_team("acme", "big", people)
    _sync(store, fake, ["acme/big"])
    assert _teams(store) == {"acme/big": people}
    assert fake.count(path_contains="/teams/big/members") == 2
    # Page 1 alone answering 304 would hide a change on page 2: no ETag is kept for it.
    fake.set_team("acme", "big", [*people, "zz-new"])
    _sync(store, fake, ["acme/big"])
    assert _teams(store)["acme/big"][-1] == "zz-new"
    assert fake.count(path_contains="/teams/big/members", not_modified=True) == 0


# -- the report commands say when a team was never listed ---------------------------------------


def test_a_report_warns_of_a_configured_team_no_sync_has_listed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 't.db'}"
    store = Store.open(url)
    repo_id = seed(store, _thread(Records()))
    with store.begin() as conn:  # synced, as a real store would be: the day is covered
        store.set_cursor(conn, repo_id, SYNCED_STREAM, None)
    store.close()
    config = tmp_path / "tidings.toml"
    config.write_text(
        f'maintainer_teams = ["acme/core"]\n[[repos]]\nname = "{REPO}"\n', encoding="utf-8"
    )

    def report() -> tuple[int, str, str]:
        args = ["--db", url, "--config", str(config), "report", "daily", REPO]
        with pytest.raises(SystemExit) as done:
            main([*args, "--date", DAY.isoformat(), "--format", "json"])
        out = capsys.readouterr()
        return int(done.value.code or 0), out.out, out.err

    code, out, err = report()
    assert code == 0 and json.loads(out)["kind"] == "daily"
    assert err.count("\n") == 1 and err.startswith("warning: team acme/core (maintainer_teams)")
    assert "run tidings sync acme/widgets" in err
    store = Store.open(url)
    with store.begin() as conn:
        write_team(store, conn, repo_id, "acme/core", ["pat"])
    store.close()
    code, out, err = report()
    assert code == 0 and err == ""
    view = next(
        v for v in json.loads(out)["hot_discussions"][0]["viewpoints"] if v["login"] == "pat"
    )
    assert (view["role"], view["role_source"], view["role_evidence"]) == (
        "maintainer",
        "team",
        "acme/core",
    )
