"""The git source on a real repository built here with git: what `git log` really prints.

The repository has squash merges `(#N)`, a `Merge pull request #N` merge commit, a direct push,
an empty commit, a rename, a binary file, a deleted test, a path with a space and one with
non-ASCII characters, an added line that starts with `++`, and an `assert` in library code.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
import sqlalchemy as sa

from tests.factories import Records, seed, ts
from tidings.common.config import RepoConfig
from tidings.common.records import PRFileRecord
from tidings.errors import SourceError
from tidings.facts.load.merged import load_merged
from tidings.facts.risk import assess
from tidings.sources.git import fetch_default_branch, log_command, parse_log, sync_git
from tidings.store import Store, files, items, schema
from tidings.store.rows import read_records

REPO = "acme/engine"


class Clone:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.clock = 1_786_000_000  # 2026-08-06T07:06:40Z; each commit adds an hour
        path.mkdir(parents=True)
        self.git("init", "-q", "-b", "main")

    def git(self, *args: str) -> str:
        env = {
            **os.environ,
            "GIT_AUTHOR_NAME": "Wang Wei",
            "GIT_AUTHOR_EMAIL": "wei@example.com",
            "GIT_COMMITTER_NAME": "GitHub",
            "GIT_COMMITTER_EMAIL": "noreply@github.com",
            # "@": a raw Unix time, which git otherwise reads only up to a certain size.
            "GIT_AUTHOR_DATE": f"@{self.clock} +0800",
            "GIT_COMMITTER_DATE": f"@{self.clock} +0800",
        }
        done = subprocess.run(
            ["git", "-C", str(self.path), "-c", "commit.gpgsign=false", *args],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        return done.stdout.strip()

    def write(self, path: str, text: str | bytes) -> None:
        target = self.path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            target.write_bytes(text)
        else:
            target.write_text(text, encoding="utf-8")

    def commit(self, message: str, *extra: str) -> str:
        self.clock += 3600
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message, *extra)
        return self.git("rev-parse", "HEAD")


def synced_git_day(root: Path) -> Store:
    """A store whose only data is a clone's two merged PRs of 2026-08-06 (#11, #12): a
    git-only day, for what a report may say of it. The caller closes the store."""
    clone = Clone(root / "clone")
    clone.write("engine/gemm.py", "def gemm(m):\n    return m\n")
    clone.commit("[Kernel] Fused GEMM (#11)")
    clone.write("docs/x.md", "hello\n")
    clone.commit("[Doc] Hello (#12)")
    store = Store.open(f"sqlite:///{root / 'git.db'}")
    sync_git(store, "acme/engine", clone.path)
    return store


@pytest.fixture
def clone(tmp_path: Path) -> Clone:
    c = Clone(tmp_path / "clone")
    c.write("engine/core.py", "".join(f"line {k}\n" for k in range(40)))
    c.write("tests/test_core.py", "def test_a():\n    pass\n" * 10)
    c.write("logo.png", b"\x89PNG\x00\x01\x02")
    c.commit("Initial commit")  # a direct push: not a PR
    c.write("engine/gemm.py", "def gemm(m):\n    assert 0 < m <= 64, 'm'\n    return m\n")
    c.write("engine/core.py", "".join(f"line {k}\n" for k in range(38)) + "++ not a header\n")
    c.commit("[Kernel] Fused GEMM (#11)", "-m", "Adds a fused GEMM.\n\nSigned-off-by: Wang Wei")
    c.git("rm", "-q", "tests/test_core.py")
    c.git("mv", "engine/core.py", "engine/kernel core.py")
    c.write("docs/指南.md", "你好\n")
    c.commit("[Test] Drop old core tests (#12)")
    c.git("checkout", "-q", "-b", "feature")
    c.write("engine/extra.py", "x = 1\n")
    c.commit("extra work")
    c.git("checkout", "-q", "main")
    c.clock += 3600
    c.git("merge", "-q", "--no-ff", "feature", "-m", "Merge pull request #13 from wei/feature",
          "-m", "[Feature] Extra module\n\nWhy it matters.")  # fmt: skip
    c.commit("[CI] Nothing changed (#14)")  # empty
    return c


@pytest.fixture
def store(tmp_path: Path) -> Store:
    s = Store.open(f"sqlite:///{tmp_path / 'git.db'}")
    yield s
    s.close()


def _items(store: Store) -> dict[int, dict]:
    with store.engine.connect() as conn:
        rows = conn.execute(sa.select(schema.items)).mappings().all()
    return {r["number"]: dict(r) for r in rows}


def _files(store: Store) -> dict[tuple[int, str], dict]:
    with store.engine.connect() as conn:
        rows = conn.execute(sa.select(schema.pr_files)).mappings().all()
    return {(r["number"], r["path"]): dict(r) for r in rows}


def test_parser_reads_real_git_output(clone: Clone) -> None:
    out = subprocess.run(log_command(clone.path), capture_output=True, check=True).stdout
    # Fed in 5-byte pieces: commit boundaries must not depend on how reads fall.
    commits = list(parse_log(out[k : k + 5] for k in range(0, len(out), 5)))
    assert [c.subject for c in commits] == [
        "[CI] Nothing changed (#14)",
        "Merge pull request #13 from wei/feature",
        "[Test] Drop old core tests (#12)",
        "[Kernel] Fused GEMM (#11)",
        "Initial commit",
    ]
    empty, merge, drop, gemm, first = commits
    assert empty.files == [] and len(merge.parents) == 2
    assert [(f.path, f.status, f.additions) for f in merge.files] == [
        ("engine/extra.py", "added", 1)
    ]
    by = {f.path: f for f in drop.files}
    assert by["engine/kernel core.py"].previous_path == "engine/core.py"
    assert by["engine/kernel core.py"].status == "renamed"
    assert by["tests/test_core.py"].status == "removed"
    assert (by["tests/test_core.py"].additions, by["tests/test_core.py"].deletions) == (0, 20)
    assert by["docs/指南.md"].hunks == ["@@ -0,0 +1 @@", "+你好"]
    g = {f.path: f for f in gemm.files}
    assert g["engine/gemm.py"].hunks == [
        "@@ -0,0 +1,3 @@",
        "+def gemm(m):",
        "+    assert 0 < m <= 64, 'm'",
        "+    return m",
    ]
    # The removed lines are kept too (the risk rules net moved lines); "+++ x" inside a hunk
    # is an added line reading "++ x", not a header.
    assert g["engine/core.py"].hunks == [
        "@@ -39,2 +39 @@ line 37",  # git names the hunk by the line before it
        "-line 38",
        "-line 39",
        "+++ not a header",
    ]
    assert (g["engine/core.py"].additions, g["engine/core.py"].deletions) == (1, 2)
    binary = {f.path: f for f in first.files}["logo.png"]
    assert (binary.additions, binary.deletions, binary.hunks) == (None, None, None)
    assert gemm.author_name == "Wang Wei" and gemm.committed_at == ts("2026-08-06T09:06:40Z")


def test_sync_stores_merged_prs_with_files_and_added_lines(clone: Clone, store: Store) -> None:
    report = sync_git(store, REPO, clone.path)
    assert (report.commits, report.prs, report.skipped) == (5, 4, 1)
    items = _items(store)
    assert sorted(items) == [11, 12, 13, 14]
    gemm = items[11]
    assert gemm["title"] == "[Kernel] Fused GEMM" and gemm["source"] == "git"
    assert gemm["author"] == "Wang Wei" and gemm["author_type"] == "GitAuthor"
    assert gemm["state"] == "closed" and gemm["merged"] is True
    assert gemm["merged_at"] == gemm["closed_at"] == ts("2026-08-06T09:06:40Z")
    assert (gemm["additions"], gemm["deletions"], gemm["changed_files"]) == (4, 2, 2)
    assert gemm["body"].startswith("Adds a fused GEMM.") and gemm["labels"] == []
    assert items[13]["title"] == "[Feature] Extra module"
    assert items[13]["body"] == "Why it matters."
    files = _files(store)
    assert files[(11, "engine/gemm.py")]["patch"].splitlines()[2] == "+    assert 0 < m <= 64, 'm'"
    assert files[(12, "engine/kernel core.py")]["previous_path"] == "engine/core.py"
    assert files[(12, "tests/test_core.py")]["status"] == "removed"
    # The risk rules see what the clone gave: the assert, the deleted test file.
    repo = RepoConfig(name=REPO)
    with store.engine.connect() as conn:
        repo_id = store.require_repo(conn, REPO)
        prs = {
            p.number: p
            for p in load_merged(
                conn, repo_id, ts("2026-08-01T00:00:00Z"), ts("2026-09-01T00:00:00Z")
            )
        }
    tags11 = {t.tag: t for t in assess(prs[11], repo)}
    assert tags11["assert_validation"].evidence[0].path == "engine/gemm.py"
    assert "no_approval" not in tags11  # reviews are unknown from git: no false alarm
    assert "tests_removed" in {t.tag for t in assess(prs[12], repo)}


def test_resync_reads_only_new_commits_and_is_idempotent(clone: Clone, store: Store) -> None:
    sync_git(store, REPO, clone.path)
    with store.engine.connect() as conn:
        before = [r.model_dump_json() for r in read_records(conn, 1)]
    again = sync_git(store, REPO, clone.path)
    assert again.commits == 0 and again.notes == ["no new commits since the last git sync"]
    clone.write("engine/new.py", "y = 2\n")
    clone.commit("[Misc] New module (#15)")
    more = sync_git(store, REPO, clone.path)
    assert (more.commits, more.prs, more.incremental) == (1, 1, True)
    assert sorted(_items(store)) == [11, 12, 13, 14, 15]
    with store.engine.connect() as conn:
        after = [r.model_dump_json() for r in read_records(conn, 1)]
    assert [line for line in after if '"number":15' not in line and "sync_state" not in line] == [
        line for line in before if "sync_state" not in line
    ]


def test_git_never_overwrites_what_the_api_wrote(clone: Clone, store: Store, rec: Records) -> None:
    seed(
        store,
        [
            rec.repo(REPO),
            rec.pr(
                11,
                "2026-08-01T00:00:00Z",
                merged_at="2026-08-06T09:06:40Z",
                author="wangwei-gh",
                labels=["kernel"],
                detail_updated_at=ts("2026-08-06T09:06:40Z"),
            ),
            PRFileRecord(
                number=11, path="engine/gemm.py", status="added", additions=3, deletions=0
            ),
            PRFileRecord(
                number=11, path="engine/core.py", status="modified", additions=1, deletions=2
            ),
        ],
    )
    report = sync_git(store, REPO, clone.path)
    assert report.api_items_kept == 1
    item = _items(store)[11]
    assert (item["author"], item["labels"], item["source"]) == ("wangwei-gh", ["kernel"], None)
    files = _files(store)
    assert "assert 0 < m" in files[(11, "engine/gemm.py")]["patch"]
    assert files[(11, "engine/core.py")]["patch"].endswith("\n+++ not a header")


def test_not_a_clone_is_one_clear_error(tmp_path: Path, store: Store) -> None:
    with pytest.raises(SourceError) as err:
        sync_git(store, REPO, tmp_path)
    assert "cannot read the git clone" in err.value.one_line()
    with pytest.raises(SourceError, match="not found"):
        sync_git(store, REPO, tmp_path / "missing")


def test_git_sync_gives_the_same_store_on_every_backend(clone: Clone, db_url: str) -> None:
    other = Store.open(db_url)
    try:
        sync_git(other, REPO, clone.path)
        files = {(r["number"], r["path"]): r["patch"] for r in _files(other).values()}
        assert sorted(_items(other)) == [11, 12, 13, 14]
        assert "assert 0 < m <= 64" in files[(11, "engine/gemm.py")]
        assert files[(12, "docs/指南.md")] == "@@ -0,0 +1 @@\n+你好"
    finally:
        other.close()


def test_a_failing_git_log_leaves_no_cursor(clone: Clone, store: Store, monkeypatch) -> None:
    import tidings.sources.git as git_source

    real = git_source.log_command

    def broken(repo: Path | str, revisions=("HEAD",)) -> list[str]:
        # The history is read, then git exits non-zero (as a killed or failing git would).
        return ["sh", "-c", '"$0" "$@"; exit 3', *real(repo, revisions)]

    monkeypatch.setattr(git_source, "log_command", broken)
    with pytest.raises(SourceError, match="git log failed"):
        sync_git(store, REPO, clone.path)
    with store.engine.connect() as conn:
        assert store.get_cursor(conn, store.require_repo(conn, REPO), "git") is None
    monkeypatch.setattr(git_source, "log_command", real)
    assert sync_git(store, REPO, clone.path).prs == 4  # the next run reads everything again


def test_out_of_range_commits_are_skipped_with_a_note_and_the_rest_synced(
    clone: Clone, db_url: str
) -> None:
    """A PR number or a date the store cannot hold is one note naming the commit; it used to
    fail every git sync for good (PostgreSQL: integer out of range; any: a traceback)."""
    clone.write("engine/a.py", "a = 1\n")
    huge = clone.commit("[Misc] Number too big (#3000000000)")
    saved = clone.clock
    # commit() adds an hour first. 9999-12-31T23:59:59Z is year 10000 at +08:00, which git
    # prints and no datetime holds; 2100-01-01T00:00:00Z parses but is past the store's range.
    clone.clock = 253_402_300_799 - 3600
    clone.write("engine/b.py", "b = 1\n")
    year_10000 = clone.commit("[Misc] From year 10000 (#15)")
    clone.clock = 4_102_444_800 - 3600
    clone.write("engine/c.py", "c = 1\n")
    year_2100 = clone.commit("[Misc] From 2100 (#16)")
    clone.clock = saved
    clone.write("engine/d.py", "d = 1\n")
    clone.commit("[Misc] Fine (#17)")

    store = Store.open(db_url)
    try:
        report = sync_git(store, REPO, clone.path)
        assert (report.prs, report.rejected, report.skipped) == (5, 3, 1)
        assert sorted(_items(store)) == [11, 12, 13, 14, 17]
        assert report.notes == [
            f"commit {year_2100[:12]} (PR #16) skipped: updated_at 2100-01-01T00:00:00Z is out "
            "of range (the store holds years 1970–2099)",
            f"commit {year_10000[:12]} (PR #15) skipped: its date 10000-01-01T07:59:59+08:00 is "
            "out of range (the store holds years 1970–2099)",
            f"commit {huge[:12]} (PR #3000000000) skipped: number 3000000000 is out of range "
            "(the store holds -2147483648 to 2147483647)",
        ]
        # The next sync goes on from there: the bad commits are behind the cursor.
        clone.write("engine/e.py", "e = 1\n")
        clone.commit("[Misc] Later (#18)")
        again = sync_git(store, REPO, clone.path)
        assert again.incremental and (again.prs, again.rejected) == (1, 0)
        assert sorted(_items(store)) == [11, 12, 13, 14, 17, 18]
    finally:
        store.close()


def test_a_git_author_name_past_the_column_is_cut_not_the_pr_skipped(
    clone: Clone, store: Store
) -> None:
    # A 150-character author name once skipped the whole PR (#25).
    long_name = "Very " * 30
    clone.write("engine/long.py", "x = 1\n")
    clone.commit("[Misc] Long name (#20)", "--author", f"{long_name.strip()} <long@example.com>")
    report = sync_git(store, "acme/engine", clone.path)
    items = _items(store)
    assert 20 in items and not [n for n in report.notes if "#20" in n]
    author = items[20]["author"]
    assert len(author) == schema.items.c.author.type.length and author.endswith("…")
    assert author.startswith("Very Very")


def test_the_clones_diff_of_a_merge_commit_spares_the_rest_listing_of_its_files(
    clone: Clone, store: Store, rec: Records
) -> None:
    # #11 stored by the API with the merge commit the clone holds; #12 with another commit
    # (say the branch was rewritten since): only #11's diff is the one GitHub would list.
    sha_11 = clone.git("log", "--format=%H", "--grep", r"(#11)", "-1").strip()
    merged = "2026-08-06T09:06:40Z"
    seed(
        store,
        [
            rec.repo(REPO),
            rec.pr(11, merged_at=merged, merged=True, merge_commit_sha=sha_11),
            rec.pr(12, merged_at=merged, merged=True, merge_commit_sha="f" * 40),
        ],
    )
    since = ts("2026-08-01T00:00:00Z")
    with store.begin() as conn:
        repo_id = store.require_repo(conn, REPO)
        assert [w.number for w in files.patch_work(conn, repo_id, since)] == [11, 12]
    sync_git(store, REPO, clone.path)
    with store.begin() as conn:
        assert [w.number for w in files.patch_work(conn, repo_id, since)] == [12]
    # A PR the clone gave first keeps the mark when the API's listing replaces it with the
    # same commit.
    git_items = _items(store)
    sha_13 = git_items[13]["merge_commit_sha"]
    assert git_items[13]["source"] == "git" and git_items[13]["patch_sha"] == sha_13
    listed = rec.pr(
        13,
        merged_at=merged,
        merged=True,
        merge_commit_sha=sha_13,
        updated_at="2026-09-01T00:00:00Z",
    )
    with store.begin() as conn:
        assert items.write_listed(store, conn, repo_id, [listed], lambda _: None) == 1
    item = _items(store)[13]
    assert item["source"] is None and item["patch_sha"] == sha_13
    with store.begin() as conn:
        assert 13 not in [w.number for w in files.patch_work(conn, repo_id, since)]


def test_fetching_the_default_branch_reads_the_remotes_new_commits(
    clone: Clone, tmp_path: Path
) -> None:
    # `clone` in a repository's config: `tidings run` fetches the remote's default branch and
    # reads from there, whatever the local checkout holds.
    assert fetch_default_branch(clone.path) == "HEAD"  # no remote: the clone as it is
    local = tmp_path / "local"
    subprocess.run(["git", "clone", "-q", str(clone.path), str(local)], check=True)
    newest = clone.commit("[Doc] After the clone (#15)")
    assert fetch_default_branch(local) == newest
    subprocess.run(
        ["git", "-C", str(local), "remote", "set-url", "origin", str(tmp_path / "gone")], check=True
    )
    with pytest.raises(SourceError, match="git fetch failed in") as failed:
        fetch_default_branch(local)
    assert "drop `clone`" in failed.value.fix
