"""Diff evidence on the GitHub path (#12): a week synced from the fake GitHub, with no clone,
gives risk tags whose evidence is an added line and model cards carrying code; a quiet re-sync
asks for nothing; a file GitHub gives no patch is recorded; a clone's hunks are never replaced
with nothing."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa

from testkit.servers.github import FakeGitHub, _iter_records
from tidings.analysis.cards import evidence_fields
from tidings.common import records as r
from tidings.common.config import GitHubConfig, load_config
from tidings.demo import CONFIG_PATH, REPO, SAMPLE_PATH
from tidings.facts.evidence import PREvidence
from tidings.facts.load.evidence import window_evidence
from tidings.facts.load.merged import load_merged
from tidings.facts.load.reviews import load_threads
from tidings.facts.paths import PathKinds
from tidings.facts.risk import assess_all
from tidings.sources.github.budget import OWED_PER_REPOSITORY, RESERVE, GitHubBudget
from tidings.sources.github.client import GitHubClient
from tidings.sources.github.patches import DEFERRED, GAP
from tidings.sources.github.sync import SyncReport, sync_repository
from tidings.store import Store, schema
from tidings.store.gaps import read_gaps

pytestmark = pytest.mark.slow_on_postgres

TOKEN = "ghp_FAKETOKEN0123456789abcd"
WEEK = (datetime(2026, 3, 2, tzinfo=UTC), datetime(2026, 3, 9, tzinfo=UTC))  # the demo's W10
PATCH_DAYS = 36_500  # the demo's weeks lie in the past: a window that reaches them
ASSERT_LINE = 'assert group_size in (64, 128), "AWQ packs groups of 64 or 128"'

# PR 4242 (merged in W10) as GitHub's REST file listing gives it: unified hunks with three
# lines of context; the CUDA kernel's diff too large for GitHub to show (no `patch`).
AWQ_PATCH = f"""@@ -88,9 +88,14 @@ class AWQConfig(QuantizationConfig):
     def __init__(self, weight_bits: int, group_size: int, zero_point: bool) -> None:
         self.weight_bits = weight_bits
-        self.group_size = group_size
+        {ASSERT_LINE}
+        self.group_size = group_size
         self.zero_point = zero_point
         if self.weight_bits != 4:
             raise ValueError("only 4-bit AWQ is supported")
@@ -140,6 +145,8 @@ def apply(self, layer, x, bias=None):
         out = awq_gemm(x, layer.qweight, layer.scales, layer.qzeros, pack_factor)
-        return out
+        if bias is not None:
+            out.add_(bias)
+        return out
         # end of apply"""
TEST_PATCH = """@@ -1,3 +1,5 @@
 import pytest
+
+GROUPS = (64, 128)
 from rapidinfer.model_executor.layers.quantization.awq import AWQConfig"""


def _records() -> list[r.Record]:
    out = []
    for record in _iter_records(SAMPLE_PATH):
        if isinstance(record, r.PRFileRecord) and record.number == 4242:
            if record.path.endswith("awq.py"):
                record = record.model_copy(update={"patch": AWQ_PATCH})
            elif record.path.startswith("tests/"):
                record = record.model_copy(update={"patch": TEST_PATCH})
        out.append(record)
    return out


@pytest.fixture
def fake() -> Iterator[FakeGitHub]:
    with FakeGitHub(_records(), token=TOKEN) as gh:
        yield gh


def sync(
    store: Store,
    gh: FakeGitHub,
    patch_days: int = PATCH_DAYS,
    client: GitHubClient | None = None,
    **kw: Any,
) -> SyncReport:
    client = client or GitHubClient(
        gh.api_url, gh.graphql_url, TOKEN, timeout=10.0, sleep=lambda _s: None
    )
    gh.reset_log()
    github = GitHubConfig(api_url=gh.api_url, graphql_url=gh.graphql_url, patch_days=patch_days)
    with client:
        return sync_repository(store, REPO, github=github, token=TOKEN, client=client, **kw)


def _merged(store: Store) -> set[int]:
    it = schema.items
    with store.engine.connect() as conn:
        return set(conn.execute(sa.select(it.c.number).where(it.c.merged.is_(True))).scalars())


def _patch(store: Store, number: int, path: str) -> str | None:
    pf = schema.pr_files
    with store.engine.connect() as conn:
        return conn.execute(
            sa.select(pf.c.patch).where(pf.c.number == number, pf.c.path == path)
        ).scalar_one()


def test_a_week_from_github_has_code_evidence_without_a_clone(
    store: Store, fake: FakeGitHub
) -> None:
    report = sync(store, fake)
    merged = _merged(store)
    # One file listing per merged PR (each has at most 100 files), none for open ones.
    assert report.patched_prs == len(merged) == fake.count(path_contains="/files") > 40
    assert report.patch_requests == len(merged)
    assert report.patched_files == 2  # the two files the listing gives a patch
    # Every other file of the demo has no diff on the fake: served as GitHub serves a binary.
    files = [x for x in _records() if isinstance(x, r.PRFileRecord) and x.number in merged]
    assert report.files_without_patch == len(files) - 2
    # Stored as a git sync stores it: zero-context hunks.
    awq = "rapidinfer/model_executor/layers/quantization/awq.py"
    assert _patch(store, 4242, awq) == (
        "@@ -90 +90,2 @@\n"
        "-        self.group_size = group_size\n"
        f"+        {ASSERT_LINE}\n"
        "+        self.group_size = group_size\n"
        "@@ -141 +146,3 @@\n"
        "-        return out\n"
        "+        if bias is not None:\n"
        "+            out.add_(bias)\n"
        "+        return out"
    )
    repo = load_config(CONFIG_PATH).repo(REPO)
    with store.engine.connect() as conn:
        repo_id = conn.execute(sa.select(schema.repositories.c.id)).scalar_one()
        prs = load_merged(conn, repo_id, *WEEK)
        tags = assess_all(prs, repo)
        evidence = window_evidence(
            conn, repo_id, repo, *WEEK, [4242], {4242: "x"}, merged=prs, tags=tags
        )
    # The assert rule fires from GitHub's patch, its evidence the added line.
    fired = {t.tag: t for t in tags[4242]}
    assert [(e.path, e.line) for e in fired["assert_validation"].evidence] == [(awq, ASSERT_LINE)]
    # The model's card carries the code: the tag with the lines around it, and the hunks with
    # both sides (their shared indentation removed).
    card = evidence_fields(evidence[4242], PathKinds(repo))
    entry = next(t for t in card["risk_tags"] if t["tag"] == "assert_validation")["evidence"][0]
    assert entry["code"] == ASSERT_LINE
    assert f"        {ASSERT_LINE}" in entry["hunk"]
    hunks = [(h["removed"], h["added"]) for h in card["diff"] if h["path"] == awq]
    assert hunks[0] == (
        ["self.group_size = group_size"],
        [ASSERT_LINE, "self.group_size = group_size"],
    )
    assert hunks[1] == (
        ["return out"],
        ["if bias is not None:", "    out.add_(bias)", "return out"],
    )
    assert not any(
        line.startswith(("@@", "+", "-"))
        for h in card["diff"]
        for line in h["removed"] + h["added"]
    )


def test_files_without_a_patch_are_recorded_on_the_pr(store: Store, fake: FakeGitHub) -> None:
    report = sync(store, fake)
    with store.engine.connect() as conn:
        repo_id = conn.execute(sa.select(schema.repositories.c.id)).scalar_one()
        gaps = read_gaps(conn, repo_id)
    # Each merged PR with a file GitHub gave no patch is marked (on the fake, every one: the
    # demo's files have no diff but 4242's two), naming the file.
    marked = {n for n, g in gaps.items() if "patches" in g}
    assert marked == _merged(store) and report.patched_prs == len(marked)
    assert gaps[4242]["patches"] == (
        "1 file without a patch from GitHub (binary, or too large for it to show): "
        "csrc/quantization/awq/gemm_kernels.cu"
    )
    # Details read again (the PR was commented on) keep the mark: patches are not re-read.
    fake.add_comment(4242, "late note", author="lgtm-bot")
    again = sync(store, fake)
    assert again.pr_details >= 1 and again.patch_requests == 0
    with store.engine.connect() as conn:
        assert "patches" in read_gaps(conn, repo_id)[4242]


def test_quiet_resync_asks_nothing_and_a_new_merge_commit_asks_once(
    store: Store, fake: FakeGitHub
) -> None:
    sync(store, fake)
    quiet = sync(store, fake)
    assert quiet.patch_requests == quiet.patched_prs == 0
    assert quiet.requests == quiet.not_modified == fake.count()  # all 304s, as without patches
    assert fake.count(path_contains="/files") == 0
    # A merge commit that changed (a force-pushed base, a re-merge) is asked for once.
    fake.update_item(4242, merge_commit_sha="f" * 40)
    changed = sync(store, fake)
    assert changed.patched_prs == 1 and fake.count(path_contains="/files") == 1
    assert sync(store, fake).patch_requests == 0


def test_no_patches_outside_the_window_or_for_open_prs(store: Store, fake: FakeGitHub) -> None:
    report = sync(store, fake, patch_days=0)
    assert report.patch_requests == 0 and fake.count(path_contains="/files") == 0
    # `--since` bounds the window too: only PRs merged since then.
    since = datetime(2026, 3, 10, tzinfo=UTC)
    store2 = store  # same store: the PRs merged before `since` stay without patches
    again = sync(store2, fake, since=since)
    it = schema.items
    with store.engine.connect() as conn:
        late = set(
            conn.execute(
                sa.select(it.c.number).where(it.c.merged.is_(True), it.c.merged_at >= since)
            ).scalars()
        )
    assert again.patched_prs == len(late) == fake.count(path_contains="/files") > 0
    open_prs = {
        x.number
        for x in _iter_records(SAMPLE_PATH)
        if isinstance(x, r.ItemRecord) and x.kind == "pr" and not x.merged
    }
    asked = {int(q.path.split("/")[-2]) for q in fake.requests if q.path.endswith("/files")}
    assert asked == late and not asked & open_prs


def test_a_clones_hunks_are_kept_where_github_gives_no_patch(
    store: Store, fake: FakeGitHub
) -> None:
    sync(store, fake)
    kernel = "csrc/quantization/awq/gemm_kernels.cu"
    hunks = "@@ -10 +10 @@\n-  int n = 4;\n+  int n = 8;"
    pf, it = schema.pr_files, schema.items
    with store.begin() as conn:  # what `tidings sync --git` adds to an API-synced PR
        conn.execute(
            pf.update().where(pf.c.number == 4242, pf.c.path == kernel).values(patch=hunks)
        )
    fake.update_item(4242, merge_commit_sha="e" * 40)  # so the patches are asked again
    assert sync(store, fake).patched_prs == 1
    assert _patch(store, 4242, kernel) == hunks  # GitHub gave none: the clone's stays
    with store.engine.connect() as conn:
        sha = conn.execute(sa.select(it.c.patch_sha).where(it.c.number == 4242)).scalar_one()
    assert sha == "e" * 40


def test_threads_carry_resolution_and_the_commits_made_after_them(
    store: Store, fake: FakeGitHub
) -> None:
    """GraphQL's reviewThreads (isResolved, isOutdated) and commits (committedDate) reach the
    threads the model reads: "raised by X, no later commit touched it" from API data alone."""
    sync(store, fake)
    authors = {4215: "kavya-rocm"}

    def threads() -> list[Any]:
        with store.engine.connect() as conn:
            repo_id = conn.execute(sa.select(schema.repositories.c.id)).scalar_one()
            return load_threads(conn, repo_id, [4215], authors)[4215]

    before = threads()
    assert before and all(t.resolved is not None for t in before)
    # The PR's commits were all made before any review: none after a thread.
    assert all(t.commits_after == 0 and not t.outdated for t in before)
    with store.engine.connect() as conn:
        commits = conn.execute(
            sa.select(sa.func.count()).where(schema.pr_commits.c.number == 4215)
        ).scalar_one()
    served = next(x for x in fake.records() if isinstance(x, r.ItemRecord) and x.number == 4215)
    assert commits == served.commits >= 1
    # The author pushes a fix and the first thread is left unresolved.
    fake.push_commit(4215)
    fake.set_unresolved(4215, 1)
    sync(store, fake)
    after = threads()
    first = min(after, key=lambda t: t.created_at)
    assert first.resolved is False
    assert all(t.commits_after == 1 for t in after)
    card = evidence_fields(PREvidence(merged=None, threads=after))
    entry = next(x for x in card["review_threads"] if x["login"] == first.login)
    assert entry["resolved"] is False and entry["commits_after"] == 1
    # GitHub's own outdated flag is kept: the fake serves it where REST cleared `line`.
    with store.begin() as conn:
        conn.execute(
            sa.update(schema.review_threads)
            .where(schema.review_threads.c.number == 4215)
            .values(outdated=True)
        )
    assert all(t.outdated for t in threads())


def test_patches_wait_while_the_rate_limit_is_owed_to_other_repositories(
    store: Store, fake: FakeGitHub
) -> None:
    """A run over many repositories: patches are optional, so while the token's requests are
    owed to the repositories still to sync, they are deferred (each PR marked, nothing lost)
    and the next sync reads them."""
    budget = GitHubBudget([TOKEN])
    budget.expect(2_000)  # 2,000 repositories still to start: more than an hour's requests
    client = GitHubClient(
        fake.api_url, fake.graphql_url, TOKEN, timeout=10.0, sleep=lambda _s: None, budget=budget
    )
    deferred = sync(store, fake, client=client)
    merged = _merged(store)
    assert deferred.patch_requests == deferred.patched_prs == 0
    assert fake.count(path_contains="/files") == 0
    assert deferred.patches_deferred == len(merged) > 40
    assert any("deferred to the next sync" in note for note in deferred.notes)
    with store.engine.connect() as conn:
        gaps = read_gaps(conn, store.require_repo(conn, REPO))
    assert all(gaps[n][GAP] == DEFERRED for n in merged)
    assert _patch(store, 4242, "rapidinfer/model_executor/layers/quantization/awq.py") is None

    # The next day's sync has the budget to itself: every deferred PR is read once.
    again = sync(store, fake)
    assert again.patched_prs == len(merged) == fake.count(path_contains="/files")
    assert again.patches_deferred == 0
    with store.engine.connect() as conn:
        gaps = read_gaps(conn, store.require_repo(conn, REPO))
    assert not any(gaps.get(n, {}).get(GAP) == DEFERRED for n in merged)
    assert ASSERT_LINE in (
        _patch(store, 4242, "rapidinfer/model_executor/layers/quantization/awq.py") or ""
    )


def test_what_optional_work_may_spend() -> None:
    clock = [1_000.0]
    budget = GitHubBudget(["a", "b"], clock=lambda: clock[0])
    assert budget.spare("a") is None  # GitHub has not said: nothing is known to be short
    budget.state("a").limits["core"].remaining = 1_000
    budget.state("a").limits["core"].reset_at = 4_000.0
    assert budget.spare("a") == 1_000 - RESERVE
    budget.expect(5)  # three of them will fall to each token, round-robin: 15 requests owed
    assert budget.spare("a") == 1_000 - RESERVE - 3 * OWED_PER_REPOSITORY
    for position in range(5):
        budget.token_for(position)
    assert budget.spare("a") == 1_000 - RESERVE  # all started: nothing owed any more
    clock[0] = 4_000.0  # the budget reset: what GitHub said no longer holds
    assert budget.spare("a") is None
