"""The daily routine end to end (#13, "Done when"): `tidings init --github-actions` writes the
config and the workflow; actionlint accepts the workflow; its run step is then run as the
workflow runs it — the step's own script and environment, secrets filled in — against the
loopback GitHub, and the site it builds and the notification a loopback webhook receives are
checked against each other."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml

from testkit.servers.github import FakeGitHub
from testkit.servers.webhook import WebhookReceiver
from tests.cli.test_setup import INSTALL, actionlint
from tests.factories import Records
from tidings.cli import main
from tidings.jobs.starter import WORKFLOW_PATH

RUN_STEP = "Sync, write the due reports, build the site, announce"
SITE = "https://acme.github.io/reports/"


def _iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _fill(text: str, values: dict[str, str]) -> str:
    """A workflow value with its `${{ ... }}` expressions as GitHub fills them."""
    return re.sub(r"\$\{\{\s*([\w.]+)\s*\}\}", lambda m: values[m.group(1)], text)


def _run_step(
    flow: dict[str, Any], values: dict[str, str], cwd: Path
) -> subprocess.CompletedProcess[str]:
    job = flow["jobs"]["report"]
    step = next(s for s in job["steps"] if s.get("name") == RUN_STEP)
    env = {k: v for k, v in os.environ.items() if k not in {"TIDINGS_DB", "GITHUB_TOKEN"}}
    # The runner's PATH holds the `tidings` that the install step put there; here, this one.
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    for scope in (job.get("env", {}), step.get("env", {})):
        env |= {name: _fill(str(value), values) for name, value in scope.items()}
    return subprocess.run(
        ["bash", "-e", "-c", step["run"]],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.mark.slow  # two full runs in fresh processes, ~25 s; test_setup.py has the quick parts
def test_init_and_the_workflow_run_publish_the_site_and_announce_it(
    tmp_path: Path, rec: Records
) -> None:
    # 1. Set up as the README says: init with the workflow, then the user's two edits (the
    #    site's address and the notification URL from a secret).
    try:
        main(["init", "acme/widgets", "--github-actions", "--install-from", INSTALL])
    except SystemExit as done:
        assert done.code in (0, None)
    lint = actionlint(tmp_path)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    config = tmp_path / "tidings.toml"
    text = config.read_text("utf-8")
    text = text.replace("# base_url = ", "base_url = ", 1).replace(
        'https://OWNER.github.io/REPO/"', f'{SITE}"', 1
    )
    text = text.replace('# urls = ["${TIDINGS_NOTIFY_URL}"]', 'urls = ["${TIDINGS_NOTIFY_URL}"]')
    # The test's own settings: PDFs off (seconds each; the site tests cover them) and the
    # loopback GitHub in place of api.github.com.
    text = text.replace("pdf = true", "pdf = false")
    now = datetime.now(UTC)
    long_ago, recent = now - timedelta(days=400), now - timedelta(days=2)
    records = [
        rec.repo(),
        rec.issue(1, _iso(long_ago)),  # older than the look-back: never read
        rec.issue(2, _iso(recent), labels=["bug"]),
        rec.pr(3, _iso(recent - timedelta(hours=3)), merged_at=_iso(recent)),
    ]
    token = "ghp_routine0123456789abcdef"
    with FakeGitHub(records, token=token) as github, WebhookReceiver() as hook:
        # The weekly report also becomes a discussion, here in the reported repository.
        github.add_discussion_categories("acme/widgets", "Reports")
        text += '\n[notify.discussion]\nrepo = "acme/widgets"\ncategory = "Reports"\n'
        config.write_text(
            text + f'\n[github]\napi_url = "{github.api_url}"\nmax_retries = 1\ntimeout = 5\n',
            "utf-8",
        )
        flow = yaml.safe_load((tmp_path / WORKFLOW_PATH).read_text("utf-8"))
        values = {
            "github.workspace": str(tmp_path),
            "secrets.GITHUB_TOKEN": token,
            "secrets.OPENAI_API_KEY": "",
            "secrets.TIDINGS_NOTIFY_URL": hook.url("json", "/T0/B0/secret-path"),
        }
        # 2. The run step, as the workflow runs it.
        done = _run_step(flow, values, tmp_path)
        assert done.returncode == 0, done.stdout + done.stderr
        assert token not in done.stdout + done.stderr
        assert "secret-path" not in done.stdout + done.stderr
        assert (tmp_path / ".tidings" / "store.db").is_file()  # TIDINGS_DB as the job sets it
        # The first sync read only the look-back's 30 days, from the start of that ISO week
        # (so the week's report is whole): between 30 and 37 days back, never the history.
        listings = [r for r in github.requests if r.path.endswith("/issues") and r.status == 200]
        since = datetime.fromisoformat(listings[0].query["since"].replace("Z", "+00:00"))
        assert now - timedelta(days=38) < since <= now - timedelta(days=29)

        # 3. The notifications: the newest daily and the last week, each linking to its page.
        payloads = [h.json() for h in hook.received]
        assert len(payloads) == 2, payloads
        assert all(h.path == "/T0/B0/secret-path" for h in hook.received)
        daily = next(p for p in payloads if "development report" in p["title"])
        weekly = next(p for p in payloads if "weekly report" in p["title"])
        for payload in (daily, weekly):
            link = payload["message"].split()[-1]
            assert link.startswith(f"{SITE}acme/widgets/")
            page = tmp_path / "site" / link.removeprefix(SITE)
            assert page.is_file(), link  # the link is a page the site has
        yesterday = (now - timedelta(days=1)).date().isoformat()
        assert daily["title"] == f"widgets development report - {yesterday}"
        assert "Stats: New issues" in daily["message"]
        assert (tmp_path / "site" / "index.html").is_file()
        (discussion,) = github.discussions("acme/widgets")
        assert discussion["title"] == weekly["title"] and discussion["category"] == "Reports"
        page = tmp_path / "site" / "acme" / "widgets" / "daily" / f"{yesterday}.en.html"
        assert "widgets development report" in page.read_text("utf-8")

        # 4. The next day's run with nothing new announces nothing.
        hook.received.clear()
        again = _run_step(flow, values, tmp_path)
        assert again.returncode == 0, again.stderr
        assert hook.received == [] and len(github.discussions("acme/widgets")) == 1
