"""The PR risk rules: for every tag, a PR that must get it and a similar one that must not.

PRs are built by hand so each case changes one thing; the last tests go through the store
(reviews before and after the merge, patches from the git source, unresolved threads).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.factories import Records, seed, ts
from tidings.config import LANGS, RepoConfig, RiskConfig
from tidings.facts.risk import (
    DEFAULT_WEIGHTS,
    RISK_TAGS,
    MergedPR,
    PRFile,
    assess,
    load_merged,
    risk_score,
)
from tidings.report.weekly_model import RiskTag
from tidings.words import weekly as weekly_words

MERGED = datetime(2026, 8, 12, 10, 0, tzinfo=UTC)
REPO = RepoConfig(
    name="acme/engine",
    core_paths=["engine/core/**", "engine/worker/model_runner.py"],
    risk=RiskConfig(large_lines=500, large_files=10, missing_tests_min_lines=20),
)


def pr(*files: PRFile, title: str = "Improve things", **kw: object) -> MergedPR:
    values: dict[str, object] = {
        "number": 1,
        "title": title,
        "body": None,
        "author": "alice",
        "labels": (),
        "merged_at": MERGED,
        "source": None,
        "reviews_known": True,
        "approvers": ("bob",),
        "reviews": 1,
        "unresolved_threads": 0,
        "files": files,
    }
    values.update(kw)
    return MergedPR(**values)  # type: ignore[arg-type]


def f(path: str, additions: int = 5, deletions: int = 0, **kw: object) -> PRFile:
    return PRFile(path=path, additions=additions, deletions=deletions, **kw)  # type: ignore[arg-type]


def tags(p: MergedPR, repo: RepoConfig = REPO) -> dict[str, list]:
    return {t.tag: t.evidence for t in assess(p, repo)}


CODE_WITH_TEST = (f("engine/sampler.py", 30, 2), f("tests/test_sampler.py", 12))


def test_a_tested_reviewed_small_change_has_no_tags() -> None:
    assert tags(pr(*CODE_WITH_TEST)) == {}


def test_missing_tests() -> None:
    got = tags(pr(f("engine/sampler.py", 30, 2), f("docs/sampler.md", 40)))
    assert got["missing_tests"][0].numbers == {"code_files": 1, "code_lines": 32, "test_files": 0}
    assert got["missing_tests"][1].path == "engine/sampler.py"
    # A test file changed, or too few code lines, or only docs: no tag.
    assert "missing_tests" not in tags(pr(*CODE_WITH_TEST))
    assert "missing_tests" not in tags(pr(f("engine/sampler.py", 10, 9)))
    assert "missing_tests" not in tags(pr(f("docs/sampler.md", 400)))
    # `**/test_*.py` counts as a test file outside tests/ too.
    assert "missing_tests" not in tags(pr(f("engine/sampler.py", 30), f("engine/test_x.py", 3)))


def test_tests_removed() -> None:
    deleted = tags(pr(f("engine/a.py", 1), f("tests/test_a.py", 0, 3, status="removed")))
    assert deleted["tests_removed"][0].path == "tests/test_a.py"
    assert deleted["tests_removed"][0].numbers["deleted_file"] == 1
    shrunk = tags(pr(f("engine/a.py", 1), f("tests/test_a.py", 2, 40)))
    assert shrunk["tests_removed"][0].numbers == {"additions": 2, "deletions": 40}
    # A test rewritten at about the same size, or a small trim, is not a removal.
    assert "tests_removed" not in tags(pr(f("tests/test_a.py", 38, 40)))
    assert "tests_removed" not in tags(pr(f("tests/test_a.py", 0, 9)))
    # Deleting a non-test file is not a test removal.
    assert "tests_removed" not in tags(pr(*CODE_WITH_TEST, f("engine/old.py", 0, 90)))


def test_core_path() -> None:
    got = tags(pr(f("engine/core/scheduler.py", 4), f("tests/test_s.py", 1)))
    assert [e.path for e in got["core_path"]] == ["engine/core/scheduler.py"]
    assert "core_path" in tags(pr(f("engine/worker/model_runner.py", 1), f("tests/t.py")))
    assert "core_path" not in tags(pr(f("engine/worker/other.py", 1), f("tests/t.py")))
    # No core paths configured: the rule never fires.
    plain = RepoConfig(name="acme/engine")
    assert "core_path" not in tags(pr(f("engine/core/scheduler.py", 4)), plain)


def test_large_change_by_lines_or_files() -> None:
    by_lines = tags(pr(f("engine/big.py", 400, 100), f("tests/test_big.py", 1)))
    assert by_lines["large_change"][0].numbers["lines"] == 501
    many = [f(f"engine/conf/p{k}.yaml", 3) for k in range(10)]
    assert tags(pr(*many))["large_change"][0].numbers["files"] == 10
    assert "large_change" not in tags(pr(f("engine/big.py", 398, 100), f("tests/test_big.py", 1)))
    assert "large_change" not in tags(pr(*many[:9]))


def test_assert_used_for_validation_in_non_test_code() -> None:
    patch = "def f(m):\n    assert 0 < m <= MAX_M, 'too big'\n    return m"
    got = tags(pr(f("engine/gemm.py", 3, patch=patch), f("tests/test_gemm.py")))
    [evidence] = got["assert_validation"]
    assert (evidence.path, evidence.line) == ("engine/gemm.py", "assert 0 < m <= MAX_M, 'too big'")
    # In a test, in a comment, in a non-Python file, or with no patch known: no tag.
    assert "assert_validation" not in tags(pr(f("tests/test_gemm.py", 1, patch="assert x")))
    assert "assert_validation" not in tags(pr(f("engine/g.py", 1, patch="# assert x > 0")))
    assert "assert_validation" not in tags(pr(f("engine/g.cu", 1, patch="assert(x);")))
    assert "assert_validation" not in tags(pr(f("engine/g.py", 1, patch=None)))
    assert "assert_validation" not in tags(pr(f("engine/g.py", 1, patch="asserted = True")))


def test_revert() -> None:
    assert tags(pr(*CODE_WITH_TEST, title='Revert "[Core] Fuse norm" (#4217)'))["revert"]
    assert "revert" in tags(pr(*CODE_WITH_TEST, title="[Revert] fuse norm"))
    assert "revert" in tags(pr(*CODE_WITH_TEST, title="[Bugfix] Revert fused norm"))
    body = "Undo it.\n\nThis reverts commit 0123456789abcdef0123456789abcdef01234567."
    assert tags(pr(*CODE_WITH_TEST, body=body))["revert"][0].line.startswith("This reverts")
    assert "revert" not in tags(pr(*CODE_WITH_TEST, title="Support reverting adapters"))


def test_no_approval_only_when_reviews_are_known() -> None:
    got = tags(pr(*CODE_WITH_TEST, approvers=(), reviews=2))
    assert got["no_approval"][0].numbers == {"reviews": 2, "approvals": 0}
    assert "no_approval" not in tags(pr(*CODE_WITH_TEST))
    # From a git clone reviews are unknown: silence, not a false alarm.
    assert "no_approval" not in tags(pr(*CODE_WITH_TEST, approvers=(), reviews_known=False))


def test_dependency_change() -> None:
    for path in ("requirements/rocm.txt", "pyproject.toml", "CMakeLists.txt", "docker/Dockerfile"):
        got = tags(pr(*CODE_WITH_TEST, f(path, 1)))
        assert [e.path for e in got["dependency_change"]] == [path]
    assert "dependency_change" not in tags(pr(*CODE_WITH_TEST, f("docs/requirements.md", 1)))


def test_security_path() -> None:
    got = tags(pr(*CODE_WITH_TEST, f("engine/entrypoints/auth.py", 2)))
    assert [e.path for e in got["security_path"]] == ["engine/entrypoints/auth.py"]
    assert "security_path" in tags(pr(*CODE_WITH_TEST, f("engine/security/limits.py", 2)))
    assert "security_path" not in tags(pr(*CODE_WITH_TEST, f("tests/test_auth.py", 2)))
    assert "security_path" not in tags(pr(*CODE_WITH_TEST, f("engine/tokenizer.py", 2)))


def test_follow_up_promised_only_when_threads_are_known() -> None:
    got = tags(pr(*CODE_WITH_TEST, unresolved_threads=2))
    assert got["follow_up_promised"][0].numbers == {"unresolved_threads": 2}
    assert "follow_up_promised" not in tags(pr(*CODE_WITH_TEST, unresolved_threads=0))
    assert "follow_up_promised" not in tags(pr(*CODE_WITH_TEST, unresolved_threads=None))


def test_weights_come_from_config_and_evidence_is_bounded() -> None:
    repo = REPO.model_copy(update={"risk": RiskConfig(weights={"missing_tests": 7})})
    files = [f(f"engine/m{k}.py", 30) for k in range(12)]
    found = assess(pr(*files), repo)
    by = {t.tag: t for t in found}
    assert by["missing_tests"].weight == 7
    assert risk_score(found) == sum(t.weight for t in found)
    assert all(len(t.evidence) <= 5 for t in found)


def test_unknown_weight_tag_is_a_config_error() -> None:
    with pytest.raises(ValueError, match="unknown risk tag"):
        RiskConfig(weights={"scary": 1})


def test_every_tag_has_one_name_everywhere() -> None:
    """The rules' names (facts/risk.py) are the config's, the report model's and the words':
    each tag has a weight, is accepted by the config and the report, and has a name and a
    follow-up sentence in every language; nothing else does."""
    assert len(set(RISK_TAGS)) == len(RISK_TAGS) == 10
    assert set(DEFAULT_WEIGHTS) == set(RISK_TAGS)
    assert RiskConfig(weights=dict.fromkeys(RISK_TAGS, 1.0)).weights.keys() == set(RISK_TAGS)
    for tag in RISK_TAGS:
        assert RiskTag(tag=tag, weight=1, evidence=[]).tag == tag
    with pytest.raises(ValueError):
        RiskTag.model_validate({"tag": "follow_up", "weight": 1, "evidence": []})
    for lang in LANGS:
        assert set(weekly_words.RISK_TAG_NAMES[lang]) == set(RISK_TAGS)
        follow_ups = {k[3:] for k in weekly_words.TEXT[lang] if k.startswith("fu_")}
        assert set(RISK_TAGS) <= follow_ups


@pytest.mark.parametrize("db", ["sqlite"])
def test_load_merged_reads_reviews_before_merge_patches_and_sources(
    sqlite_store, rec: Records, db: str
) -> None:
    merged = "2026-08-12T10:00:00Z"
    seed(
        sqlite_store,
        [
            rec.repo("acme/engine"),
            # Approved before the merge by someone else: reviewed.
            rec.pr(1, merged_at=merged, detail_updated_at=ts(merged)),
            rec.review(1, "2026-08-12T09:00:00Z", author="bob", state="APPROVED"),
            # Approved only by its author, and by bob after the merge: not approved.
            rec.pr(2, merged_at=merged, detail_updated_at=ts(merged), unresolved_threads=1),
            rec.review(2, "2026-08-12T09:00:00Z", author="alice", state="APPROVED"),
            rec.review(2, "2026-08-12T11:00:00Z", author="bob", state="APPROVED"),
            rec.review(2, "2026-08-12T08:00:00Z", author="bob", state="COMMENTED"),
            # From a clone: reviews unknown, patch known.
            rec.pr(3, merged_at=merged, source="git"),
            rec.file(3, "engine/g.py", 2, 0, patch="x = 1\n    assert x"),
            # Merged outside the window.
            rec.pr(4, merged_at="2026-08-20T10:00:00Z", detail_updated_at=ts(merged)),
        ],
    )
    with sqlite_store.engine.connect() as conn:
        repo_id = sqlite_store.require_repo(conn, "acme/engine")
        prs = {
            p.number: p
            for p in load_merged(
                conn, repo_id, ts("2026-08-10T00:00:00Z"), ts("2026-08-17T00:00:00Z")
            )
        }
    assert sorted(prs) == [1, 2, 3]
    assert prs[1].approvers == ("bob",) and prs[1].reviews == 1
    assert prs[2].approvers == () and prs[2].reviews == 2
    assert prs[3].files[0].patch == "x = 1\n    assert x" and not prs[3].reviews_known
    assert "no_approval" not in tags(prs[1])
    assert set(tags(prs[2])) == {"no_approval", "follow_up_promised"}
    assert set(tags(prs[3])) == {"assert_validation"}
