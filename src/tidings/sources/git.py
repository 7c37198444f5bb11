"""A local git clone as a source: merged PRs from the first-parent history, offline, no token.

`git log --first-parent` of the default branch is the list of merges into it. A squash merge's
subject ends in `(#N)` (GitHub's default), a merge commit reads `Merge pull request #N from
...`; every other commit (direct pushes, the initial commit) is not a PR and is skipped. One
`git log` run gives, per commit, the author, the dates, the message, `--numstat` (lines added
and deleted per file, renames with their previous path) and the zero-context patch, kept per
file as its hunks (`@@` headers, removed `-` and added `+` lines): the risk rules read the
added lines and net those the PR only moved against the removed ones.

What a clone cannot tell: the PR's author login (git records a name and an email, not a
GitHub login), labels, comments, reviews, and when the PR was opened. PRs from git are stored
with `source = "git"`, `author_type = "GitAuthor"` (the name is not a login; "GitBot" when the
author's email is an automation address, tidings.common.bots), state closed and
merged at the commit time. An API sync later replaces the item with GitHub's richer copy and
keeps the clone's hunks; a git sync never overwrites an item the API wrote, it only adds the
hunks to its files (or its files, when the API gave none). This module reads the clone and
makes records; store/git.py writes them.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from tidings.common.bots import GIT_BOT, is_bot_email
from tidings.common.progress import Progress
from tidings.common.records import GIT_AUTHOR, ItemRecord, PRFileRecord
from tidings.errors import SourceError
from tidings.sources.hunks import bound
from tidings.store import Store
from tidings.store.git import write_git_prs
from tidings.store.history import write_git_root
from tidings.store.limits import TIME_RANGE
from tidings.store.rows import record_problem

STREAM = "git"  # sync_state stream holding the newest commit read
BATCH = 500  # commits per store transaction

# At most 20 digits: a longer run is no PR reference, and int() of thousands of digits fails.
_SQUASH = re.compile(r"\s*\(#(\d{1,20})\)\s*$")
_MERGE = re.compile(r"^Merge pull request #(\d{1,20}) from \S+")
# Field separator and record start in the --format below; they never occur in messages in
# practice, and patch lines never start with one (each has a +, -, space or header prefix).
_FS, _RS = b"\x1f", b"\x1e"
LOG_FORMAT = "%x1e%H%x1f%an%x1f%ae%x1f%aI%x1f%cI%x1f%P%x1f%B%x1f"


def log_command(repo: Path | str, revisions: Sequence[str] = ("HEAD",)) -> list[str]:
    """The one `git log` whose output `parse_log` reads."""
    return [
        "git",
        "-C",
        str(repo),
        "-c",
        "core.quotePath=false",
        "log",
        "--first-parent",
        # A merge commit's diff against its first parent is what the PR brought in.
        "--diff-merges=first-parent",
        "-z",
        "-M",
        "--numstat",
        "-p",
        "--unified=0",
        "--no-color",
        "--no-ext-diff",
        "--no-textconv",
        f"--format={LOG_FORMAT}",
        *revisions,
        "--",
    ]


@dataclass
class GitFile:
    path: str
    previous_path: str | None = None
    status: str = "modified"  # added, modified, removed, renamed
    additions: int | None = None  # None: binary
    deletions: int | None = None
    # The zero-context hunks: `@@` headers and `-`/`+` lines; None when the diff showed none.
    hunks: list[str] | None = None

    def patch(self) -> str | None:
        if self.hunks is None:
            return None
        return bound("\n".join(self.hunks))


@dataclass
class GitCommit:
    sha: str
    author_name: str
    author_email: str
    authored_at: datetime
    committed_at: datetime
    parents: list[str]
    message: str
    files: list[GitFile] = field(default_factory=list)
    # A date no datetime can hold, as git printed it (git takes years past 9999); the two
    # times are then the epoch, and the sync skips the commit with a note.
    bad_date: str | None = None

    @property
    def subject(self) -> str:
        return self.message.split("\n", 1)[0].strip()

    @property
    def body(self) -> str:
        return self.message.split("\n", 1)[1].strip() if "\n" in self.message else ""


# -- parsing -----------------------------------------------------------------------------------


def _chunks(stream: Iterable[bytes]) -> Iterator[bytes]:
    """Split git's output into one byte string per commit (each starts with the record mark).

    A record mark starts a commit when it follows a newline (after a patch) or a NUL (after
    a commit with no diff); only the newly read bytes are searched, so a huge commit costs
    linear time.
    """
    buffer = bytearray()
    scan = 0
    for data in stream:
        buffer += data
        while True:
            cut = -1
            pos = buffer.find(_RS, max(scan, 1))
            while pos != -1:
                if buffer[pos - 1] in (0x0A, 0x00):
                    cut = pos
                    break
                pos = buffer.find(_RS, pos + 1)
            if cut == -1:
                scan = max(len(buffer) - 1, 1)
                break
            yield bytes(buffer[:cut])
            del buffer[:cut]
            scan = 1
    if bytes(buffer).strip(b"\n\x00"):
        yield bytes(buffer)


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", errors="replace")


def _unquote(path: str) -> str:
    """Undo git's C-style quoting of unusual paths (`"a\\tb"`); plain paths pass through."""
    if len(path) < 2 or not (path.startswith('"') and path.endswith('"')):
        return path
    raw = path[1:-1].encode("latin-1", errors="backslashreplace")
    return raw.decode("unicode_escape").encode("latin-1").decode("utf-8", errors="replace")


def _time(value: str) -> datetime | None:
    try:
        return datetime.fromisoformat(value).astimezone(UTC).replace(microsecond=0)
    except (ValueError, OverflowError):  # year 10000 and later, or past it once in UTC
        return None


def _numstat(block: bytes) -> list[GitFile]:
    files: list[GitFile] = []
    tokens = block.split(b"\x00")
    i = 0
    while i < len(tokens):
        token = tokens[i]
        i += 1
        if not token.strip(b"\n"):
            continue
        adds, dels, path = token.lstrip(b"\n").split(b"\t", 2)
        binary = adds == b"-"
        entry = GitFile(
            path="",
            additions=None if binary else int(adds),
            deletions=None if binary else int(dels),
        )
        if path:
            entry.path = _text(path)
        else:  # a rename: the old and the new path follow as their own fields
            entry.previous_path, entry.path = _text(tokens[i]), _text(tokens[i + 1])
            entry.status = "renamed"
            i += 2
        files.append(entry)
    return files


def _apply_patch(files: list[GitFile], patch: bytes) -> None:
    """Statuses and hunks from the zero-context patch, matched to numstat by path."""
    by_path = {f.path: f for f in files}
    current: GitFile | None = None
    in_hunk = False
    old_path: str | None = None
    for raw in patch.split(b"\n"):
        if raw.startswith(b"diff --git "):
            current, in_hunk, old_path = None, False, None
            # Binary or mode-only changes have no ---/+++ lines: "a/X b/X" names the file.
            rest = _text(raw[len(b"diff --git ") :])
            half = (len(rest) - 1) // 2
            if rest[:half].startswith("a/") and rest[half + 1 :] == "b/" + rest[2:half]:
                current = by_path.get(rest[2:half])
            continue
        if in_hunk:
            # With --unified=0 a hunk holds only added (+) and removed (-) lines; "+++ x"
            # here is an added line reading "++ x", not a header.
            if raw.startswith((b"+", b"-", b"@@")):
                if current is not None and current.hunks is not None:
                    current.hunks.append(_text(raw))
                continue
            if raw.startswith(b"\\"):  # "\ No newline at end of file"
                continue
            in_hunk = False
        line = _text(raw)
        if line.startswith("@@"):
            in_hunk = True
            if current is not None:
                if current.hunks is None:
                    current.hunks = []
                current.hunks.append(line)
        elif line.startswith("new file mode") and current is not None:
            current.status = "added"
        elif line.startswith("deleted file mode") and current is not None:
            current.status = "removed"
        elif line.startswith("rename to "):
            current = by_path.get(_unquote(line[len("rename to ") :]), current)
        elif line.startswith("--- "):
            old = _unquote(line[4:])
            old_path = old[2:] if old.startswith("a/") else None
        elif line.startswith("+++ "):
            new = _unquote(line[4:])
            if new.startswith("b/"):
                current = by_path.get(new[2:], current)
            elif old_path is not None:  # +++ /dev/null: the file was deleted
                current = by_path.get(old_path, current)
                if current is not None:
                    current.status = "removed"


def parse_log(stream: Iterable[bytes]) -> Iterator[GitCommit]:
    """Commits from the output of `log_command`, newest first, as git prints them."""
    for chunk in _chunks(stream):
        head, _, rest = chunk.partition(_FS + b"\x00")
        fields = head.lstrip(b"\n").removeprefix(_RS).split(_FS)
        if len(fields) != 7:
            raise SourceError(
                f"unexpected git log output near {head[:60]!r}",
                "use git 2.31 or newer and a clone that `git log` can read",
            )
        sha, name, email, authored, committed, parents, message = (_text(x) for x in fields)
        numstat, _, patch = rest.partition(b"\x00\x00")
        files = _numstat(numstat)
        if patch:
            _apply_patch(files, patch)
        authored_at, committed_at = _time(authored), _time(committed)
        bad_date = None
        if authored_at is None or committed_at is None:
            bad_date = authored if authored_at is None else committed
        epoch = datetime(1970, 1, 1, tzinfo=UTC)
        yield GitCommit(
            sha=sha,
            author_name=name,
            author_email=email,
            authored_at=authored_at or epoch,
            committed_at=committed_at or epoch,
            parents=parents.split(),
            message=message.strip("\n"),
            files=files,
            bad_date=bad_date,
        )


# -- commits to records ------------------------------------------------------------------------


def pr_number(commit: GitCommit) -> tuple[int, str] | None:
    """(PR number, PR title) of a merge into the branch, or None for a direct commit."""
    merge = _MERGE.match(commit.subject)
    if merge and len(commit.parents) > 1:
        body = commit.body.strip()
        title = body.split("\n", 1)[0].strip() if body else commit.subject
        return int(merge.group(1)), title
    squash = _SQUASH.search(commit.subject)
    if squash:
        return int(squash.group(1)), commit.subject[: squash.start()].strip()
    return None


def commit_records(commit: GitCommit) -> tuple[ItemRecord, list[PRFileRecord]] | None:
    found = pr_number(commit)
    if found is None:
        return None
    number, title = found
    merge = len(commit.parents) > 1
    body = "\n".join(commit.body.split("\n")[1:]).strip() if merge else commit.body
    files = [
        PRFileRecord(
            number=number,
            path=f.path,
            previous_path=f.previous_path,
            status=f.status,
            additions=f.additions,
            deletions=f.deletions,
            patch=f.patch(),
        )
        for f in commit.files
    ]
    item = ItemRecord(
        number=number,
        kind="pr",
        title=title or commit.subject,
        body=body or None,
        author=_fitted(commit.author_name),
        # The email is read here and not stored: an address only automation uses marks the
        # name a bot's (tidings.common.bots), whatever the name says.
        author_type=GIT_BOT if is_bot_email(commit.author_email) else GIT_AUTHOR,
        state="closed",
        draft=False,
        # A clone does not know when the PR was opened (a commit's dates are not it): unknown,
        # until a GitHub sync fills it in.
        created_at=None,
        updated_at=commit.committed_at,
        closed_at=commit.committed_at,
        merged_at=commit.committed_at,
        merged=True,
        merge_commit_sha=commit.sha,
        additions=sum(f.additions or 0 for f in commit.files),
        deletions=sum(f.deletions or 0 for f in commit.files),
        changed_files=len(commit.files),
        source="git",
    )
    return item, files


# The store's author column (a GitHub login is at most 39 characters; git names are free).
AUTHOR_CHARS = 100


def _fitted(name: str | None) -> str | None:
    """A git author name as the store holds it: a name past AUTHOR_CHARS is cut, with "…",
    rather than the whole PR skipped for it."""
    if not name:
        return None
    return name if len(name) <= AUTHOR_CHARS else name[: AUTHOR_CHARS - 1] + "…"


# -- into the store ----------------------------------------------------------------------------


@dataclass
class GitSyncReport:
    repository: str
    path: str
    commits: int = 0  # first-parent commits read
    prs: int = 0  # of which merged PRs
    skipped: int = 0  # commits that are not PRs (direct pushes, the initial commit)
    rejected: int = 0  # PR commits with a value the store cannot hold (see notes)
    items_written: int = 0  # PR items inserted or updated from git
    api_items_kept: int = 0  # PRs the API already holds: only their hunks were added
    pr_files: int = 0
    head: str | None = None
    # The repository's first commit, when the log reached it (store/history.py); None for a
    # shallow clone, whose oldest commit git prints without parents too.
    root: str | None = None
    incremental: bool = False
    elapsed: float = 0.0
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["elapsed"] = round(self.elapsed, 3)
        return data


_NOT_A_CLONE = "pass --git the folder of a clone (the one holding .git) with at least one commit"


def _git(
    repo: Path,
    *args: str,
    failed: str = "cannot read the git clone at {repo}",
    fix: str = _NOT_A_CLONE,
) -> str:
    """git's output; a failure is one line: `failed` (with {repo}), git's last word, `fix`."""
    try:
        done = subprocess.run(
            ["git", "-C", str(repo), *args], capture_output=True, text=True, check=False
        )
    except FileNotFoundError as exc:
        raise SourceError("git is not installed", "install git (e.g. apt-get install git)") from exc
    if done.returncode != 0:
        reason = (done.stderr.strip().splitlines() or ["git failed"])[-1]
        raise SourceError(f"{failed.format(repo=repo)}: {reason}", fix)
    return done.stdout.strip()


def sync_git(
    store: Store,
    full_name: str,
    repo_path: Path | str,
    *,
    progress: Progress | None = None,
    rev: str = "HEAD",
) -> GitSyncReport:
    """Read the clone's first-parent history into the store; later runs read only new commits."""
    path = Path(repo_path).expanduser()
    if not path.is_dir():
        raise SourceError(f"git clone {path} not found", "pass --git the folder of a local clone")
    with store.sync_lock(full_name):
        return _sync_git(store, full_name, path, progress, rev)


def _sync_git(
    store: Store, full_name: str, path: Path, progress: Progress | None, rev: str
) -> GitSyncReport:
    head = _git(path, "rev-parse", "--verify", f"{rev}^{{commit}}")
    with store.begin() as conn:
        # Not created here: a clone with no PR merges must leave the store untouched.
        repo_id = store.repo_id(conn, full_name)
        cursor = store.get_cursor(conn, repo_id, STREAM) if repo_id is not None else None
    revisions = [head]
    incremental = False
    if cursor and cursor != head:
        known = subprocess.run(
            ["git", "-C", str(path), "merge-base", "--is-ancestor", cursor, head],
            capture_output=True,
            check=False,
        )
        if known.returncode == 0:  # history only grew: read the new commits only
            revisions = [head, f"^{cursor}"]
            incremental = True
    elif cursor == head:
        revisions = []
    started = time.monotonic()
    if not revisions:
        with store.begin() as conn:  # still a sync: its time says how fresh the data is
            store.set_cursor(conn, repo_id or 0, STREAM, head)
        report = GitSyncReport(full_name, str(path), head=head, incremental=True)
        report.notes.append("no new commits since the last git sync")
        return report
    # stderr goes to a file: a pipe nobody reads while stdout streams could fill and stall git.
    with tempfile.TemporaryFile() as errors:
        proc = subprocess.Popen(log_command(path, revisions), stdout=subprocess.PIPE, stderr=errors)
        assert proc.stdout is not None
        try:
            # No cursor yet: a git log that dies half-way must not mark its commits as read.
            report = ingest(store, full_name, parse_log(_read(proc.stdout)), None, progress)
        finally:
            proc.stdout.close()
            code = proc.wait()
        errors.seek(0)
        error = errors.read().decode("utf-8", errors="replace").strip()
    if code != 0:
        reason = (error.splitlines() or [f"exit {code}"])[-1]
        raise SourceError(
            f"git log failed in {path}: {reason}", "check the clone with `git log`, then re-run"
        )
    if not incremental and report.prs == 0:
        # Nothing was written (ingest makes the repository row with its first PR), so the
        # store holds no empty repository whose every window would read as "quiet".
        raise SourceError(
            f"no merged PRs in the first-parent history of {path} ({report.commits} commits "
            'read, none a squash merge ending in "(#N)" or a "Merge pull request #N" commit)',
            "check out the branch PRs merge into; for a project that rebase-merges, sync from "
            "GitHub instead: tidings sync OWNER/REPO with a token",
        )
    if report.root is not None and _shallow(path):
        # Its oldest commit only looks like the first: nothing tells a first merge.
        report.root = None
        report.notes.append(
            "shallow clone: its history does not reach the repository's first commit, so "
            "reports cannot tell first-time contributors (git fetch --unshallow, then sync "
            "into a new store)"
        )
    with store.begin() as conn:
        target = store.repo_id(conn, full_name, create=True) or 0
        store.set_cursor(conn, target, STREAM, head)
        if report.root is not None:
            write_git_root(store, conn, target, report.root)
    report.head = head
    report.path = str(path)
    report.incremental = incremental
    report.elapsed = time.monotonic() - started
    return report


def fetch_default_branch(path: Path | str) -> str:
    """`git fetch` the remote's default branch into the clone; the commit it points at. A
    clone without a remote is read as it is (its HEAD)."""
    path = Path(path).expanduser()
    if not path.is_dir():
        raise SourceError(f"git clone {path} not found", "set `clone` to a local clone's folder")
    if not _git(path, "remote"):
        return "HEAD"
    _git(
        path,
        "fetch",
        "--quiet",
        "origin",
        "HEAD",
        failed="git fetch failed in {repo}",
        fix=f"check the clone's remote with `git -C {path} fetch`, or drop `clone` from the "
        "repository's config to read diffs from GitHub",
    )
    return _git(path, "rev-parse", "--verify", "FETCH_HEAD^{commit}")


def _shallow(path: Path) -> bool:
    """A shallow clone prints its oldest commit with no parents, as if it were the first."""
    return _git(path, "rev-parse", "--is-shallow-repository") == "true"


def _read(handle: IO[bytes], size: int = 1 << 16) -> Iterator[bytes]:
    while data := handle.read(size):
        yield data


def ingest(
    store: Store,
    full_name: str,
    commits: Iterable[GitCommit],
    head: str | None,
    progress: Progress | None = None,
    *,
    shallow: bool = False,
) -> GitSyncReport:
    """Write the PRs among `commits` (any order); set the git cursor to `head` at the end,
    and, when they reached a parentless commit of a history that is not `shallow`, record it
    as the repository's first (store/history.py).

    Each batch commits on its own and every write is an idempotent upsert, so an interrupted
    run leaves a consistent store and re-running it gives the same result.
    """
    started = time.monotonic()
    report = GitSyncReport(repository=full_name, path="", head=head)
    tick = progress or (lambda _stage, _done, _total: None)
    with store.begin() as conn:
        known = store.repo_id(conn, full_name)

    def repo_id() -> int:
        # The repository row is made with the first write, so reading commits that hold no
        # PR writes nothing at all.
        nonlocal known
        if known is None:
            with store.begin() as conn:
                known = store.repo_id(conn, full_name, create=True) or 0
        return known

    batch: dict[int, tuple[ItemRecord, list[PRFileRecord]]] = {}
    tick("git commits", 0, None)
    for commit in commits:
        report.commits += 1
        if not commit.parents:
            report.root = commit.sha
        records = commit_records(commit)
        if records is None:
            report.skipped += 1
        elif (problem := _out_of_range(commit, *records)) is not None:
            # One bad commit must not stop every later git sync: note it and go on.
            report.rejected += 1
            report.notes.append(
                f"commit {commit.sha[:12]} (PR #{records[0].number}) skipped: {problem}"
            )
        else:
            # The newest merge of a number wins: git log prints newest first.
            batch.setdefault(records[0].number, records)
            report.prs += 1
        if len(batch) >= BATCH:
            _write(store, repo_id(), list(batch.values()), report)
            batch = {}
            tick("git commits", report.commits, None)
    if batch:
        _write(store, repo_id(), list(batch.values()), report)
    if head is not None:
        target = repo_id()
        with store.begin() as conn:
            store.set_cursor(conn, target, STREAM, head)
            if report.root is not None and not shallow:
                write_git_root(store, conn, target, report.root)
    tick("git commits", report.commits, report.commits)
    report.elapsed = time.monotonic() - started
    return report


def _out_of_range(commit: GitCommit, item: ItemRecord, files: list[PRFileRecord]) -> str | None:
    if commit.bad_date is not None:
        return f"its date {commit.bad_date} is out of range (the store holds years {TIME_RANGE})"
    problem = record_problem(item)
    for record in files:
        problem = problem or record_problem(record)
    return problem


def _write(
    store: Store,
    repo_id: int,
    prs: list[tuple[ItemRecord, list[PRFileRecord]]],
    report: GitSyncReport,
) -> None:
    if not prs:
        return
    with store.begin() as conn:
        done = write_git_prs(store, conn, repo_id, prs)
    report.pr_files += done.pr_files
    report.api_items_kept += done.api_items_kept
    report.items_written += done.items_written
