"""Delivery (tidings/jobs/delivery.py): what a report says in a chat, and that Apprise really
posts it — to a loopback webhook, read back — with secrets from the environment and failures
reported as one line that never names the secret."""

from __future__ import annotations

import json
import re
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from testkit.servers.webhook import WebhookReceiver
from tidings.common.config import NotifyConfig, load_config, parse_config
from tidings.demo import CONFIG_PATH, REPO, SAMPLE_PATH
from tidings.errors import ConfigError, TidingsError, redact
from tidings.jobs.delivery import due, message, read_message, send
from tidings.render.files import save_report
from tidings.report.daily import build_daily
from tidings.report.weekly import build_weekly
from tidings.sources.snapshot import import_snapshot
from tidings.store import Store

NOW = datetime(2026, 3, 20, tzinfo=UTC)
SITE = "https://reports.example.org/tidings/"


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    store = Store.open(f"sqlite:///{tmp_path_factory.mktemp('notify') / 'demo.db'}")
    import_snapshot(store, SAMPLE_PATH)
    settings = load_config(CONFIG_PATH).repo(REPO)
    built = {
        "daily-en": build_daily(store, settings, date(2026, 3, 4), "en", now=NOW),
        "daily-zh": build_daily(store, settings, date(2026, 3, 4), "zh", now=NOW),
        "weekly-en": build_weekly(store, settings, 2026, 11, "en", now=NOW),
    }
    store.close()
    return built


def test_a_daily_message_is_its_title_stats_line_and_page(reports) -> None:  # type: ignore[no-untyped-def]
    msg = message(reports["daily-en"], SITE)
    assert msg.title == "RapidInfer development report - 2026-03-04"
    # The golden report's own stats line, as plain text.
    assert msg.headline == (
        "Stats: New issues 3 | Closed issues 1 | New PRs 8 | Merged PRs 4 | Closed unmerged PRs 1"
    )
    assert msg.link == f"{SITE}{REPO}/daily/2026-03-04.en.html"
    assert msg.body.splitlines() == [msg.headline, "", msg.link]
    zh = message(reports["daily-zh"], None)
    assert zh.title == "RapidInfer 开发动态报告 - 2026-03-04" and zh.link is None
    assert zh.headline.startswith("数据统计：新 Issue 3")


def test_a_weekly_message_leads_with_its_summary(reports) -> None:  # type: ignore[no-untyped-def]
    msg = message(reports["weekly-en"], SITE.rstrip("/"))
    assert msg.title == "RapidInfer weekly report: 2026 week 11 (03-09 to 03-15)"
    assert msg.headline.startswith("In 2026 week 11 (03-09 to 03-15) RapidInfer merged 29 PRs")
    assert msg.link == f"{SITE}{REPO}/weekly/2026-W11.en.html"
    assert "\\" not in msg.headline and "**" not in msg.headline  # no Markdown escapes left


def test_json_and_form_webhooks_receive_the_message(reports) -> None:  # type: ignore[no-untyped-def]
    msg = message(reports["daily-en"], SITE)
    with WebhookReceiver() as hook:
        sent = send([msg], NotifyConfig(), [hook.url("json", "/a"), hook.url("form", "/b")])
    assert [d.ok for d in sent] == [True, True] and [d.error for d in sent] == [None, None]
    by_path = {h.path: h for h in hook.received}
    payload = by_path["/a"].json()
    assert by_path["/a"].headers["Content-Type"].startswith("application/json")
    assert payload["title"] == msg.title
    assert msg.headline in payload["message"] and msg.link in payload["message"]
    form = by_path["/b"].form()
    assert form["title"] == msg.title and msg.link in form["message"]


def test_urls_read_secrets_from_the_environment_and_never_show_them(
    reports,  # type: ignore[no-untyped-def]
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    msg = message(reports["daily-en"], SITE)
    with WebhookReceiver() as hook:
        secret_path = "/hooks/T0SECRET/B0SECRET/XXXXSECRET"
        monkeypatch.setenv("TEAM_HOOK", f"127.0.0.1:{hook.port}{secret_path}")
        ok = send([msg], NotifyConfig(), ["json://${TEAM_HOOK}"])
    assert ok[0].ok and hook.received[0].path == secret_path
    assert "SECRET" not in redact(f"posted to json://127.0.0.1:{hook.port}{secret_path}")
    # Unset: reported by the variable's name, nothing sent.
    monkeypatch.delenv("TEAM_HOOK")
    missing = send([msg], NotifyConfig(), ["json://${TEAM_HOOK}"])
    assert not missing[0].ok and "${TEAM_HOOK} is not set" in missing[0].line()


def test_a_failing_service_is_one_line_without_its_address(reports) -> None:  # type: ignore[no-untyped-def]
    msg = message(reports["daily-en"], SITE)
    with WebhookReceiver(status=500) as hook:
        url = hook.url("json", "/k3y-0123456789-secret")
        failed = send([msg], NotifyConfig(timeout=5), [url, "nosuchscheme://x"])
    assert [d.ok for d in failed] == [False, False]
    line = failed[0].line()
    assert "\n" not in line and line.startswith("notify urls[0] (json): ")
    assert "k3y-0123456789-secret" not in line and url not in redact(line)
    assert f"{REPO} daily 2026-03-04 en" in line
    assert "not a URL Apprise knows" in failed[1].line()


def test_only_the_newest_report_of_each_kind_and_language_is_announced(reports) -> None:  # type: ignore[no-untyped-def]
    older = reports["daily-en"].model_copy(update={"date": "2026-03-03"})
    new = [
        ("daily/2026-03-03.en.json", older),
        ("daily/2026-03-04.en.json", reports["daily-en"]),
        ("daily/2026-03-04.zh.json", reports["daily-zh"]),
        ("weekly/2026-W11.en.json", reports["weekly-en"]),
    ]
    chosen = due(new, NotifyConfig(), "en")
    assert [(r.kind, getattr(r, "date", None)) for r in chosen] == [
        ("daily", "2026-03-04"),
        ("weekly", None),
    ]
    both = due(new, NotifyConfig(languages=["zh", "en"], kinds=["daily"]), "en")
    assert sorted(r.lang for r in both) == ["en", "zh"]


def test_read_message_from_a_saved_report(reports, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    saved = save_report(reports["weekly-en"], tmp_path)
    assert read_message(saved.json_path, SITE).title.startswith("RapidInfer weekly report")
    junk = tmp_path / "x.json"
    junk.write_text(json.dumps({"kind": "nope"}), "utf-8")
    with pytest.raises(TidingsError, match="not a tidings report"):
        read_message(junk)


def test_notify_config_is_checked() -> None:
    cfg = parse_config('[notify]\nurls = ["${HOOK}", "slack://a/b/c"]\nkinds = ["weekly"]\n')
    assert cfg.notify.urls == ["${HOOK}", "slack://a/b/c"] and cfg.notify.kinds == ["weekly"]
    for bad in ('urls = ["hooks.slack.com/x"]', 'kinds = ["monthly"]', "timeout = 0"):
        with pytest.raises(ConfigError, match="notify"):
            parse_config(f"[notify]\n{bad}\n")


# -- GitHub Discussions ----------------------------------------------------------------------------


def test_a_weekly_report_becomes_a_discussion_once(reports, rec) -> None:  # type: ignore[no-untyped-def]
    from testkit.servers.github import FakeGitHub
    from tidings.common.config import DiscussionConfig, GitHubConfig
    from tidings.jobs.delivery import publish_discussions

    token = "ghp_discussion0123456789"
    weekly = reports["weekly-en"]
    target = DiscussionConfig(repo="acme/reports", category="weekly-reports")
    with FakeGitHub([rec.repo("acme/reports")], token=token) as github:
        github.add_discussion_categories("acme/reports", "General", "Weekly reports")
        cfg = GitHubConfig(api_url=github.api_url, max_retries=0, timeout=5)
        first = publish_discussions([weekly], target, cfg, token, SITE)
        assert [d.ok for d in first] == [True], first[0].line()
        (made,) = github.discussions("acme/reports")
        assert made["category"] == "Weekly reports"  # found by its slug
        assert made["title"] == "RapidInfer weekly report: 2026 week 11 (03-09 to 03-15)"
        assert made["body"].startswith("# RapidInfer weekly report")
        assert made["body"].endswith(f"The whole report: {SITE}{REPO}/weekly/2026-W11.en.html\n")
        # A re-run finds it by its title and creates nothing.
        again = publish_discussions([weekly], target, cfg, token, SITE)
        assert again[0].ok and len(github.discussions("acme/reports")) == 1
        missing = DiscussionConfig(repo="acme/reports", category="Announcements")
        failed = publish_discussions([weekly], missing, cfg, token, SITE)
        line = failed[0].line()
        assert not failed[0].ok and "no category 'Announcements'" in line
        assert "General, Weekly reports" in line and token not in line
        nowhere = DiscussionConfig(repo="acme/absent", category="General")
        gone = publish_discussions([weekly], nowhere, cfg, token, SITE)
        assert not gone[0].ok and "acme/absent" in gone[0].line()


def test_a_long_report_is_cut_to_fit_a_discussion(reports) -> None:  # type: ignore[no-untyped-def]
    from tidings.jobs.delivery import DISCUSSION_BODY_LIMIT, discussion_body
    from tidings.render.files import render_report

    weekly = reports["weekly-en"]
    # The appendix lists each merged PR once per theme group: 80 times the groups make it long.
    long = weekly.model_copy(update={"merged_groups": weekly.merged_groups * 80})
    assert len(render_report(long, "md")) > DISCUSSION_BODY_LIMIT
    body = discussion_body(long, "https://x.example/r.html")
    assert len(body) <= DISCUSSION_BODY_LIMIT
    assert body.endswith("The whole report: https://x.example/r.html\n")
    assert "cut to fit a discussion" in body


# -- tidings notify ------------------------------------------------------------------------------


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    from tidings.cli import main

    with pytest.raises(SystemExit) as done:
        main(list(args))
    out = capsys.readouterr()
    return int(done.value.code or 0), out.out, out.err


def test_the_notify_command_sends_the_newest_reports(
    reports,  # type: ignore[no-untyped-def]
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    folder = tmp_path / "reports" / REPO
    older = reports["daily-en"].model_copy(update={"date": "2026-03-03"})
    for report in (older, reports["daily-en"], reports["daily-zh"], reports["weekly-en"]):
        save_report(report, folder)
    with WebhookReceiver() as hook:
        monkeypatch.setenv("HOOK", hook.url())
        (tmp_path / "tidings.toml").write_text(
            f'[[repos]]\nname = "{REPO}"\n\n[site]\nbase_url = "{SITE}"\n\n'
            '[notify]\nurls = ["${HOOK}"]\n',
            "utf-8",
        )
        code, out, err = _cli(capsys, "notify", "--dry-run")
        assert code == 0 and hook.received == [] and "notify:" not in err
        assert out.count(SITE) == 2 and "2026-03-04" in out and "2026-03-03" not in out
        code, _, err = _cli(capsys, "notify")
        assert code == 0 and err.strip() == "notify: 2 of 2 messages sent"
        titles = sorted(h.json()["title"] for h in hook.received)
        assert titles == [
            "RapidInfer development report - 2026-03-04",
            "RapidInfer weekly report: 2026 week 11 (03-09 to 03-15)",
        ]
        one = str(folder / "daily" / "2026-03-03.en.json")
        code, out, _ = _cli(capsys, "notify", one, "--to", hook.url("form", "/f"), "--json")
        sent = json.loads(out)
        assert code == 0 and sent["deliveries"][0]["ok"]
        assert sent["messages"][0]["link"] == f"{SITE}{REPO}/daily/2026-03-03.en.html"
        assert hook.received[-1].form()["title"].endswith("2026-03-03")
    # A message that fails: one warning per message, then one error line, exit 1.
    code, _, err = _cli(capsys, "notify", one, "--to", "json://127.0.0.1:1/x")
    lines = err.splitlines()
    assert code == 1 and lines[0].startswith("warning: notify urls[0] (json): ")
    assert lines[-1].startswith("error: 1 of 1 notifications failed — ")
    # Nowhere to send is the command line's (or config's) mistake.
    (tmp_path / "tidings.toml").write_text(f'[[repos]]\nname = "{REPO}"\n', "utf-8")
    code, _, err = _cli(capsys, "notify")
    assert code == 2 and "nowhere to send" in err and err.count("\n") == 1


def test_a_label_cannot_ping_a_chat(reports, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """A label `<at user_id="all">all</at>` in a weekly's summary pinged everyone on Feishu
    (Apprise passes it on as written): markup and broadcast mentions arrive as text (#25)."""
    import tidings.render.files

    hostile = (
        '# RapidInfer weekly <at user_id="all">all</at>\n\n'
        'Main directions: label \\<at user\\_id="all"\\>all\\</at\\>, @everyone, @here, '
        "<!channel>, <@U024BE7LH>, @所有人.\n"
    )
    monkeypatch.setattr(tidings.render.files, "render_report", lambda _report, _fmt: hostile)
    msg = message(reports["weekly-en"], SITE)
    for text in (msg.title, msg.headline):
        assert "<" not in text and ">" not in text
        assert not re.search(r"@(everyone|here|all|所有人)", text)
    assert 'label ＜at user_id="all"＞all＜/at＞' in msg.headline  # still readable
