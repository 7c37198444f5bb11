"""Stage 4: PR details by GraphQL, for every PR whose stored copy is stale.

Reviews, files, merge data, closing references and review threads' resolution have no
repository-wide listing, so PRs whose details are older than their `updated_at` are fetched
~25 per query (pr_fetch.py). The batch shrinks when GitHub finds a query too heavy (first fewer
PRs, then smaller pages) or an answer keeps failing (to find the one PR it is about), and grows
back after successes. A PR that fails even alone is quarantined (store/quarantine.py): noted,
retried on later runs with a growing gap, while the rest go on. Each batch commits in one
transaction, and the work list comes from the store, so an interrupted sync resumes with no gap.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from tidings.sources.github import normalize as nz
from tidings.sources.github import queries, shapes
from tidings.sources.github.client import GraphQLTooLarge, RequestFailed
from tidings.sources.github.context import SyncContext, log
from tidings.sources.github.deletions import proven_gone
from tidings.sources.github.pr import FIELD_COLUMNS, FILES_CAP_NOTE, PRAnswer
from tidings.sources.github.pr_fetch import fetch_prs
from tidings.sources.github.writers import write_plain
from tidings.store import Connection, comments, files, items, quarantine
from tidings.store.gaps import PATCHES, UNREAD_DIFFS, read_gaps, write_gaps

PR_BATCH = 25
# PRs whose details failed alone, in a row with no success between, before the sync concludes
# that GitHub (or the query) is broken rather than those PRs, and stops.
MAX_SUSPECTS = 3


def _runs(n: int) -> str:
    return "run" if n == 1 else "runs"


class _Details:
    def __init__(self, ctx: SyncContext) -> None:
        self.ctx = ctx
        self.quarantined: dict[int, quarantine.Quarantined] = {}
        # Items with a recorded gap (store/gaps.py): number -> {part: what is missing}.
        self.gapped: dict[int, dict[str, str]] = {}
        # PRs read incomplete before, to read again (store/quarantine.py, REREAD).
        self.rereads: dict[int, quarantine.Quarantined] = {}

    def run(self) -> None:
        ctx = self.ctx
        store = ctx.store
        with store.begin() as conn:
            pending = items.stale_prs(conn, ctx.repo_id)
            self.gapped = read_gaps(conn, ctx.repo_id)
            held = quarantine.load(conn, ctx.repo_id)
            for number in set(held) - set(pending):
                # Current (details came another way) or deleted: nothing left to retry.
                quarantine.release(store, conn, ctx.repo_id, number)
                del held[number]
            waiting = {n: q for n, q in held.items() if not q.due}
            for entry in waiting.values():
                entry.wait -= 1
                quarantine.save(store, conn, ctx.repo_id, entry)
            pending += self.due_rereads(conn, set(pending))
        for entry in waiting.values():
            ctx.note(
                f"#{entry.number}: details set aside after {entry.failures} failed "
                f"{'try' if entry.failures == 1 else 'tries'} ({entry.reason}); "
                f"next try in {entry.wait + 1} {_runs(entry.wait + 1)}"
            )
        pending = [n for n in pending if n not in waiting]
        self.quarantined = held
        total = len(pending)
        ctx.progress("pull request details", 0, total)
        full_page = max(queries.CONNECTIONS.values())
        size, page, streak, done = ctx.pr_batch, full_page, 0, 0
        suspects: list[tuple[int, RequestFailed]] = []
        while done < total:
            batch = pending[done : done + size]
            alone = len(batch) == 1
            try:
                prs = fetch_prs(ctx, batch, page, shrinkable=not alone or page > queries.MIN_PAGE)
            except GraphQLTooLarge as exc:
                if size > 1:
                    size = max(1, len(batch) // 2)
                else:
                    page = max(queries.MIN_PAGE, page // 2)
                streak = 0
                log.info(
                    "PR details of %s too heavy (%s); trying %d PRs, pages of %d",
                    batch,
                    exc,
                    size,
                    page,
                )
                continue
            except RequestFailed as exc:
                streak = 0
                if not alone:
                    # Narrow it down: most likely one PR's answer is at fault.
                    size = max(1, len(batch) // 2)
                    continue
                suspects.append((batch[0], exc))
                done += 1
                if len(suspects) >= MAX_SUSPECTS:
                    # Several PRs in a row failing alone, nothing succeeding between: the
                    # trouble is GitHub's (or the query's), not theirs. Nothing set aside.
                    raise exc
                continue
            if suspects:
                self.set_aside(suspects)
                suspects = []
            with store.begin() as conn:
                stored = items.updated_times(conn, ctx.repo_id, prs)
                children = files.ChildBatch(ctx.repo_id)
                children.read_patches(conn, list(prs))
                for number, pr in prs.items():
                    self.write_pr(conn, number, pr, stored.get(number), children)
                    if number in held:
                        quarantine.release(store, conn, ctx.repo_id, number)
                children.flush(store, conn)
            done += len(batch)
            ctx.report.pr_details += len(batch)
            ctx.progress("pull request details", done, total)
            streak += 1
            if streak >= 2 and (page < full_page or size < ctx.pr_batch):
                if page < full_page:
                    page = min(full_page, page * 2)
                else:
                    size = min(ctx.pr_batch, size + max(1, size // 2))
                streak = 0
        if suspects:
            # No later success showed GitHub answering: ask it something cheap first.
            ctx.client.graphql(
                queries.REPO_TOTALS, ctx.vars, check=shapes.repo_totals, what="repository totals"
            )
            self.set_aside(suspects)

    def due_rereads(self, conn: Connection, pending: set[int]) -> list[int]:
        """Current PRs whose last read left a part out that a later read may well get (a
        refused field, a short page): due again on every run, at most MAX_REREADS times in
        a row, so the first clean answer after a bad spell fills the gap."""
        ctx, store = self.ctx, self.ctx.store
        self.rereads = quarantine.load(conn, ctx.repo_id, quarantine.REREAD)
        for number in set(self.rereads) - {n for n, g in self.gapped.items() if _rereadable(g)}:
            quarantine.release(store, conn, ctx.repo_id, number, quarantine.REREAD)
            del self.rereads[number]
        due = []
        for number, gaps in self.gapped.items():
            if number in pending or not _rereadable(gaps):
                continue
            entry = self.rereads.get(number)
            if entry is None or (entry.due and entry.failures < quarantine.MAX_REREADS):
                due.append(number)
            elif not entry.due:
                entry.wait -= 1
                quarantine.save(store, conn, ctx.repo_id, entry, quarantine.REREAD)
        return sorted(due)

    def schedule_reread(self, conn: Connection, number: int, gaps: dict[str, str]) -> None:
        """After a read of PR `number`: read it again later if it came back incomplete."""
        ctx = self.ctx
        before = self.rereads.pop(number, None)
        wanted = {k: v for k, v in gaps.items() if _rereadable({k: v})}
        if not wanted:
            if before is not None:
                quarantine.release(ctx.store, conn, ctx.repo_id, number, quarantine.REREAD)
            return
        failures = (before.failures if before else 0) + 1
        # No growing gap here, unlike a quarantined PR: one PR's details cost a share of one
        # query, and waiting would leave the gap open through the first clean sync.
        entry = quarantine.Quarantined(
            number=number, failures=failures, wait=0, reason="; ".join(wanted.values())
        )
        quarantine.save(ctx.store, conn, ctx.repo_id, entry, quarantine.REREAD)
        if failures >= quarantine.MAX_REREADS:
            ctx.note(f"#{number}: read incomplete {failures} times in a row; no more re-reads")

    def set_aside(self, suspects: Sequence[tuple[int, RequestFailed]]) -> None:
        """Quarantine PRs whose details failed alone while GitHub answered other requests."""
        ctx = self.ctx
        with ctx.store.begin() as conn:
            for number, exc in suspects:
                before = self.quarantined.get(number)
                failures = (before.failures if before else 0) + 1
                entry = quarantine.Quarantined(
                    number=number,
                    failures=failures,
                    wait=quarantine.gap_after(failures),
                    reason=exc.cause,
                )
                quarantine.save(ctx.store, conn, ctx.repo_id, entry)
                ctx.note(
                    f"#{number}: details failed even alone ({exc.cause}); set aside, next try "
                    f"in {entry.wait + 1} {_runs(entry.wait + 1)}"
                )

    def write_pr(
        self,
        conn: Connection,
        number: int,
        pr: PRAnswer | None,
        stored: datetime | None = None,
        batch: files.ChildBatch | None = None,
    ) -> None:
        """Write one PR's details; `stored` is its stored `updated_at`; its child rows go to
        `batch` when given (written when the caller flushes it)."""
        ctx = self.ctx
        repo_id = ctx.repo_id
        if pr is None:
            # GitHub has no PR under this number any more: stop asking on every sync.
            items.details_current(conn, repo_id, number)
            ctx.say(f"#{number}: GitHub returned no pull request details", warn=False)
            return
        # What GitHub refused keeps what the store holds.
        details = nz.pr_details_from_graphql(pr.node).keeping(
            c for name, columns in FIELD_COLUMNS.items() if name in pr.refused for c in columns
        )
        if not pr.rest_files:
            details = replace(details, changed_files=pr.changed_files)
        elif pr.rest_sizes is not None:
            sizes = pr.rest_sizes
            details = replace(
                details,
                changed_files=sizes.changed_files,
                additions=sizes.additions,
                deletions=sizes.deletions,
            )
        # A PR has two update times on GitHub, its issue record's (the REST listing's) and its
        # pull request record's (GraphQL's), and a comment moves only the first. Keep the
        # newer, never roll back, and mark the details current for it, so the two differing
        # does not make every sync fetch them again.
        if stored is not None and stored > details.updated_at:
            details = replace(details, updated_at=stored)
        if not pr.skipped("labels"):
            details = replace(
                details, labels=[n["name"] for n in pr.nodes.get("labels", {}).values()]
            )
        reviews = [nz.review_from_graphql(n, number) for n in pr.nodes.get("reviews", {}).values()]
        if not pr.skipped("reviews"):
            details = replace(details, review_comments_count=sum(r.comments_count for r in reviews))
        threads = [nz.thread_from_graphql(n) for n in pr.nodes.get("reviewThreads", {}).values()]
        if not pr.skipped("reviewThreads"):
            unresolved = nz.unresolved_threads(pr.nodes.get("reviewThreads", {}).values())
            details = replace(details, unresolved_threads=unresolved)
        problem = items.details_problem(details)
        if problem is not None:
            ctx.note(f"skipped the details of #{number}: {problem}")
            items.details_current(conn, repo_id, number)
            return
        items.write_details(conn, repo_id, number, details)
        ctx.report.items += 1
        for why in sorted(set(pr.refused.values())):
            # GitHub's reason once (it is long, and the same for every PR it applies to).
            ctx.note(f"GitHub refused this token parts of some pull requests: {why}")
        gaps = pr.gaps()
        for part, what in gaps.items():
            if part not in pr.noted:
                kept = "; kept what the store holds" if pr.skipped(part) else ""
                ctx.note(f"#{number}: {what}{kept}")
        if gaps or number in self.gapped:
            # The patch stage's parts stay: details read again do not read patches again.
            held = {
                k: v for k, v in self.gapped.pop(number, {}).items() if k in (PATCHES, UNREAD_DIFFS)
            }
            write_gaps(ctx.store, conn, repo_id, number, {**held, **gaps})
        self.schedule_reread(conn, number, gaps)

        if not pr.skipped("reviews"):
            ctx.report.reviews += write_plain(ctx)(conn, reviews)
            verdict = proven_gone(
                comments.live_ids(conn, repo_id, "review", number),
                {r.id for r in reviews},
                what=f"reviews of #{number}",
                complete=pr.complete("reviews"),
                expected=pr.totals.get("reviews"),
            )
            if verdict.refused:
                ctx.note(verdict.refused)
            ctx.report.marked_deleted += comments.mark_deleted(
                ctx.store, conn, repo_id, "review", verdict.gone
            )

        if not pr.skipped("files"):
            pr_files = pr.files()
            ctx.report.pr_files += files.write_pr_files(
                ctx.store, conn, repo_id, number, pr_files, pr.complete("files"), ctx.note, batch
            )
        if not pr.skipped("reviewThreads"):
            # A thread whose first comment GitHub gives no id cannot be tied to its comments.
            known = [(c, r, o) for c, r, o in threads if c is not None]
            complete = pr.complete("reviewThreads") and len(known) == len(threads)
            files.write_threads(ctx.store, conn, repo_id, number, known, complete, batch)
        if not pr.skipped("commits"):
            commits = [nz.commit_from_graphql(n) for n in pr.nodes.get("commits", {}).values()]
            complete = pr.complete("commits")
            files.write_commits(ctx.store, conn, repo_id, number, commits, complete, batch)
        if not pr.skipped("closingIssuesReferences"):
            refs = [
                nz.closing_ref_from_graphql(n, number)
                for n in pr.nodes.get("closingIssuesReferences", {}).values()
            ]
            ctx.report.closing_refs += files.write_closing_refs(
                ctx.store,
                conn,
                repo_id,
                number,
                refs,
                pr.complete("closingIssuesReferences"),
                ctx.note,
                batch,
            )


def _rereadable(gaps: dict[str, str]) -> bool:
    """Whether a later read may fill a gap: not the patch stage's (it reads patches itself),
    nor a file list at GitHub's cap, which no read passes."""
    return any(
        part not in (PATCHES, UNREAD_DIFFS) and FILES_CAP_NOTE not in what
        for part, what in gaps.items()
    )


def read_details(ctx: SyncContext) -> None:
    """Fetch and write the details of every PR whose stored copy is stale."""
    _Details(ctx).run()
