"""The PR risk rules: for every tag, a PR that must get it and a similar one that must not.

PRs are built by hand so each case changes one thing; the last tests go through the store
(reviews before and after the merge, patches from the git source, unresolved threads).
"""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from tests.factories import Records, seed, ts
from tidings.common.config import LANGS, RepoConfig, RiskConfig
from tidings.facts.load.merged import load_merged
from tidings.facts.load.week import load_week
from tidings.facts.patch import parse_patch
from tidings.facts.reverts import RevertRef, revert_ref
from tidings.facts.risk import (
    DEFAULT_WEIGHTS,
    RISK_TAGS,
    MergedPR,
    PRFile,
    assess,
    disables_test,
    link_reverts,
    narrows_type,
    risk_score,
)
from tidings.facts.windows import weekly_window
from tidings.report.weekly_model import RiskTag
from tidings.store.gaps import write_gaps
from tidings.words import weekly as weekly_words

MERGED = datetime(2026, 8, 12, 10, 0, tzinfo=UTC)
UTC_ZONE = ZoneInfo("UTC")
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


# -- the classes of false alarms and misses judged on real PRs (tests/data/risk_eval) ------------


def hunk(removed: list[str], added: list[str]) -> str:
    """A unified zero-context patch of one hunk."""
    return hunks((removed, added))


def hunks(*pairs: tuple[list[str], list[str]]) -> str:
    """A unified zero-context patch: one hunk per (removed, added) pair."""
    out: list[str] = []
    for start, (removed, added) in enumerate(pairs, 1):
        out.append(f"@@ -{start * 10},{len(removed)} +{start * 10},{len(added)} @@ def f():")
        out += [f"-{line}" for line in removed] + [f"+{line}" for line in added]
    return "\n".join(out)


def test_parse_patch_reads_unified_hunks_and_the_older_added_lines() -> None:
    diff = parse_patch(hunk(["    x = 1"], ["    x = 2", "    y = 3"]))
    assert diff is not None and diff.removed_known
    assert (list(diff.removed), list(diff.added)) == (["    x = 1"], ["    x = 2", "    y = 3"])
    # REST patches carry context lines (a leading space): neither added nor removed.
    rest = parse_patch("@@ -1,3 +1,3 @@\n ctx\n-old\n+new\n ctx")
    assert rest is not None and (list(rest.removed), list(rest.added)) == (["old"], ["new"])
    # What git syncs stored before: added lines only, one per line.
    legacy = parse_patch("x = 1\n@@ not a header")
    assert legacy is not None and not legacy.removed_known
    assert list(legacy.added) == ["x = 1", "@@ not a header"] and list(legacy.removed) == []
    assert parse_patch(None) is None


def test_asserts_that_only_narrow_a_type_are_not_validation() -> None:
    for line in (
        "assert x is not None",
        "assert self.engine is not None, 'engine not set'",
        "assert isinstance(metric, Counter)",
        "assert a is not None and isinstance(b, (int, float))",
        "assert scheme is not None, (",  # the first line of a multi-line assert
    ):
        assert narrows_type(line), line
    for line in (
        "assert x is None",
        "assert grid is not None and grid.ndim == 2",  # a narrowing joined to a real check
        "assert 0 < m <= MAX_M",
        "assert (",
        "assert not isinstance(x, int)",
    ):
        assert not narrows_type(line), line
    patch = hunk([], ["    assert self.stream is not None", "    assert n % tp == 0"])
    [evidence] = tags(pr(f("engine/run.py", 2, patch=patch), f("tests/test_run.py")))[
        "assert_validation"
    ]
    assert evidence.line == "assert n % tp == 0"


def test_moved_reindented_and_reworded_asserts_add_no_check() -> None:
    # Re-indented under a new `if`, and moved to another file: removed as well as added.
    moved = hunk(
        ["    assert block_size % 16 == 0"],
        ["    if fast:", "        assert block_size % 16 == 0"],
    )
    assert "assert_validation" not in tags(pr(f("engine/a.py", 2, 1, patch=moved)))
    across = (
        f("engine/a.py", 0, 1, patch=hunk(["    assert n > 0"], [])),
        f("engine/b.py", 1, 0, patch=hunk([], ["    assert n > 0"])),
    )
    assert "assert_validation" not in tags(pr(*across))
    # An existing check that only gains a message, or a renamed flag, is not a new check.
    reworded = hunk(["    assert n <= MAX_SPEC_LEN"], ["    assert n <= MAX_SPEC_LEN, ("])
    assert "assert_validation" not in tags(pr(f("engine/a.py", 1, 1, patch=reworded)))
    # A new check beside a moved one still fires; so does one from a store that holds added
    # lines only (nothing to net it against).
    both = hunk(["    assert n > 0"], ["    assert n > 0", "    assert m < n"])
    [e] = tags(pr(f("engine/a.py", 2, 1, patch=both)))["assert_validation"]
    assert e.line == "assert m < n"
    assert "assert_validation" in tags(pr(f("engine/a.py", 1, patch="    assert n > 0")))


def test_asserts_in_examples_scripts_and_test_folders_are_not_product_checks() -> None:
    patch = hunk([], ["assert token_ids == expected"])
    for path in (
        "examples/offline_weight_load.py",
        "benchmarks/run.py",
        ".github/workflows/scripts/select_tests.py",
        "csrc/attention/op/tests/run_bf16_minimal.py",
    ):
        assert "assert_validation" not in tags(pr(f(path, 1, patch=patch))), path


def test_a_ci_script_named_test_star_is_neither_a_test_nor_product_code() -> None:
    selector = f(".github/workflows/scripts/test_selector.py", 90, 10)
    # It does not count as the test of a code change...
    got = tags(pr(f("engine/sampler.py", 30, 2), selector))
    assert got["missing_tests"][0].numbers["code_files"] == 1
    # ...and shrinking it removes no test; changing it alone needs no test.
    assert tags(pr(f(".github/workflows/scripts/test_selector.py", 10, 26))) == {}
    # Under tests/ a file is a test whatever its name; a folder named tests at any depth too.
    assert "missing_tests" not in tags(pr(f("engine/a.py", 30), f("csrc/op/tests/run.py", 5)))


def test_tests_moved_or_renamed_are_not_removed() -> None:
    body = ["def test_lora_tp():", "    llm = build(tp=2)", "    assert llm.run()"] + [
        f"    check({k})" for k in range(10)
    ]
    moved = (
        f("tests/e2e/test_lora_tp.py", 0, 13, status="removed", patch=hunks((body, []))),
        f("tests/e2e/lora/test_lora_tp.py", 13, 0, status="added", patch=hunks(([], body))),
    )
    assert "tests_removed" not in tags(pr(*moved))
    # Moved under a new name into a new file: the new file's tests stand for it.
    renamed_body = ["def test_lora():", *body[1:3]]
    moved_renamed = (
        moved[0],
        f("tests/e2e/test_lora.py", 3, 0, status="added", patch=hunks(([], renamed_body))),
    )
    assert "tests_removed" not in tags(pr(*moved_renamed))
    # Renamed and shortened in place: no case lost.
    rewritten = hunks((body, ["def test_lora_tp_and_ep():", "    assert build(tp=2).run()"]))
    assert "tests_removed" not in tags(pr(f("tests/test_lora.py", 2, 13, patch=rewritten)))


def test_a_dropped_test_case_is_removed_even_when_the_file_grows() -> None:
    patch = hunks(
        (["def test_kernel_format():", "    assert run(False)"], []),
        ([], ["def helper():", "    return 1"] + [f"    x{k} = {k}" for k in range(12)]),
    )
    got = tags(pr(f("tests/test_worker.py", 14, 2, patch=patch)))
    assert got["tests_removed"][0].numbers["tests_dropped"] == 1
    # A deleted test file without hunks (counts only) still counts as removed.
    assert "tests_removed" in tags(pr(f("tests/test_a.py", 0, 40, status="removed")))
    # YAML test cases are counted by the lines they lose.
    yaml = hunks(([f"  - case{k}: {k}" for k in range(12)], []))
    assert "tests_removed" in tags(pr(f("tests/e2e/configs/nightly.yaml", 0, 12, patch=yaml)))


def test_tests_switched_off_are_removed_tests() -> None:
    for line in (
        '@pytest.mark.skip(reason="broken, fix me")',
        "@pytest.mark.xfail",
        'pytestmark = pytest.mark.skip(reason="flaky")',
        '@pytest.mark.skipif(True, reason="V2 case will be fixed")',
        '@pytest.mark.skipif(not is_main(), reason="broken in main")',
        '@unittest.skip("hangs")',
    ):
        assert disables_test(line), line
        patch = hunk([], [line, "def test_x():"])
        [e] = tags(pr(f("tests/test_x.py", 2, patch=patch)))["tests_removed"]
        assert (e.line, e.numbers) == (line, {"disabled": 1})
    for line in (
        '@pytest.mark.skipif(not is_310p(), reason="Tested separately on a 310P machine.")',
        "@pytest.mark.skip_global_cleanup",
        'pytest.skip("model not in the Qwen family")',  # a run-time gate inside a test
    ):
        assert not disables_test(line), line
    # A new test file may mark its own cases xfail: no existing test is switched off.
    new_file = hunk([], ["@pytest.mark.xfail(", "def test_new():"])
    assert "tests_removed" not in tags(
        pr(f("tests/test_new.py", 2, status="added", patch=new_file))
    )
    # A skip that stays, re-worded for the next version, switches nothing off.
    old = '@pytest.mark.skip(reason="broken on v0.25.0, fix me")'
    new = '@pytest.mark.skip(reason="broken on v0.25.1, fix me")'
    assert "tests_removed" not in tags(pr(f("tests/test_x.py", 1, 1, patch=hunk([old], [new]))))


def test_a_test_file_that_only_switches_tests_off_does_not_test_the_change() -> None:
    skip = hunk([], ['@pytest.mark.skipif(True, reason="fix later")'])
    got = tags(pr(f("engine/kernel.py", 40, 10), f("tests/test_kernel.py", 1, patch=skip)))
    assert "missing_tests" in got and "tests_removed" in got


def test_code_that_is_only_deleted_needs_no_new_test() -> None:
    assert "missing_tests" not in tags(pr(f("engine/dead.py", 3, 130)))
    assert "missing_tests" in tags(pr(f("engine/revert.py", 9, 63)))


def test_pin_bumps_are_dependency_changes() -> None:
    sha = hunk(["ee0da84ab9e04ac7610e28580af62c365e898389"], ["1f486d96a17303ce8db8e02be3"])
    [e] = tags(pr(*CODE_WITH_TEST, f(".github/vllm-main-verified.commit", 1, 1, patch=sha)))[
        "dependency_change"
    ]
    assert (e.path, e.line, e.numbers) == (
        ".github/vllm-main-verified.commit",
        "1f486d96a17303ce8db8e02be3",
        {"pin": 1},
    )
    workflow = hunk(["  vllm_version: [v0.25.0, 54503ec]"], ["  vllm_version: [v0.25.1, fe784ff]"])
    assert "dependency_change" in tags(pr(*CODE_WITH_TEST, f("ci/e2e.yaml", 1, 1, patch=workflow)))
    submodule = hunk(["Subproject commit 716fd7baa7fb7f6c"], ["Subproject commit b50cad688e03281c"])
    assert "dependency_change" in tags(
        pr(*CODE_WITH_TEST, f("third_party/lib", 1, 1, patch=submodule))
    )
    # Not pins: a number tuned, a version named in docs or tested in code.
    threshold = hunk(["  baseline: 0.85"], ["  baseline: 0.86"])
    assert "dependency_change" not in tags(
        pr(*CODE_WITH_TEST, f("ci/acc.yaml", 1, 1, patch=threshold))
    )
    doc = hunk(["Install v0.25.0."], ["Install v0.25.1."])
    assert "dependency_change" not in tags(
        pr(*CODE_WITH_TEST, f("docs/install.md", 1, 1, patch=doc))
    )
    code = hunk(['if version_is("0.25.0"):'], ['if version_is("0.25.1"):'])
    assert "dependency_change" not in tags(
        pr(*CODE_WITH_TEST, f("engine/compat.py", 1, 1, patch=code))
    )


def test_a_component_cmakelists_is_not_a_dependency_change() -> None:
    for path in ("csrc/ops/new_op/CMakeLists.txt", "csrc/ops/new_op/op_host/CMakeLists.txt"):
        assert "dependency_change" not in tags(pr(*CODE_WITH_TEST, f(path, 20))), path
    for path in ("CMakeLists.txt", "csrc/cmake/third_party/secure_c.cmake"):
        assert "dependency_change" in tags(pr(*CODE_WITH_TEST, f(path, 2))), path


def test_large_change_counts_reviewable_lines_and_files() -> None:
    # Test YAML, docs and translations make a PR long, not large.
    for path in ("tests/e2e/configs/weekly.yaml", "docs/guide.md", "docs/locale/zh.po"):
        assert "large_change" not in tags(pr(*CODE_WITH_TEST, f(path, 1500))), path
    got = tags(pr(f("engine/a.py", 450, 60), f("tests/e2e/configs/w.yaml", 900)))
    assert got["large_change"][0].numbers["lines"] == 510
    assert got["large_change"][0].numbers["ignored_files"] == 1
    # Ten files changed by a line or two each (a version bump) are a sweep, not a large change.
    sweep = [f(f"docker/Dockerfile.{k}", 1, 1) for k in range(10)]
    assert "large_change" not in tags(pr(*sweep))


def test_reverts_name_the_pr_they_revert() -> None:
    cases = {
        ('Revert "[CI] add a5 nightly test #14112" (#14190)', "Revert of PR #14190."): 14190,
        ('Revert "[Perf] remove D2H sync"', "Reverts vllm-project/vllm-ascend#12536"): 12536,
        ("[Revert][Attention] Restore PA fallback (reverts #11899)", None): 11899,
        ("[Revert] Revert [feature] reduce DP padding (#11772)", None): 11772,
    }
    for (title, body), number in cases.items():
        [e] = tags(pr(*CODE_WITH_TEST, title=title, body=body))["revert"]
        assert e.numbers == {"reverts": number}, title
    # A revert that names no PR still gets the tag, without a number.
    [e] = tags(pr(*CODE_WITH_TEST, title="[CI]: revert csrc cache to hash-based cache"))["revert"]
    assert e.numbers == {} and e.line.startswith("[CI]: revert")
    ref = revert_ref('Revert "[Core] Fuse norm"', "This reverts commit 0123abcd.")
    assert ref == RevertRef(number=None, sha="0123abcd", title="[Core] Fuse norm")
    assert revert_ref("Support reverting adapters", None) is None


def test_link_reverts_asks_the_store_by_commit_then_by_title() -> None:
    a = pr(*CODE_WITH_TEST, number=2, title='Revert "[Core] Fuse norm"', body=None)
    b = pr(*CODE_WITH_TEST, number=3, title="Revert it", body="This reverts commit abc1234.")
    c = pr(*CODE_WITH_TEST, number=4, title="[Fix] Revert #9", body=None)
    asked: list[object] = []

    def by_sha(sha: str) -> int | None:
        asked.append(sha)
        return {"abc1234": 7}.get(sha)

    def by_title(title: str, before: datetime) -> int | None:
        asked.append(title)
        return {"[Core] Fuse norm": 5}.get(title)

    linked = {p.number: p.reverted for p in link_reverts([a, b, c], by_sha, by_title)}
    assert linked == {2: 5, 3: 7, 4: None}  # #4 names #9 itself: no lookup needed
    assert asked == ["[Core] Fuse norm", "abc1234"]
    assert tags(link_reverts([a], by_sha, by_title)[0])["revert"][0].numbers == {"reverts": 5}


@pytest.mark.parametrize("db", ["sqlite"])
def test_load_merged_links_a_revert_through_the_store(sqlite_store, rec: Records, db: str) -> None:
    seed(
        sqlite_store,
        [
            rec.repo("acme/engine"),
            rec.pr(
                10,
                merged_at="2026-08-10T10:00:00Z",
                title="[Core] Fuse norm",
                merge_commit_sha="abcdef0123456789abcdef0123456789abcdef01",
            ),
            rec.pr(
                11,
                merged_at="2026-08-12T10:00:00Z",
                title="Undo the fusion",
                body="This reverts commit abcdef0123.",
            ),
            rec.pr(12, merged_at="2026-08-13T10:00:00Z", title='Revert "[Core] Fuse norm"'),
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
        # The weekly reads the same links: by the reverted commit (#11), by the title (#12).
        week = load_week(conn, repo_id, REPO, weekly_window(2026, 33, UTC_ZONE))
    assert (prs[10].reverted, prs[11].reverted, prs[12].reverted) == (None, 10, 10)
    assert tags(prs[11])["revert"][0].numbers == {"reverts": 10}
    assert week.reverts == {11: 10, 12: 10}
    assert week.reverted == {10: "[Core] Fuse norm"}


def test_a_formatting_sweep_is_read_without_its_re_wrapped_lines() -> None:
    # 40 re-wrapped lines with an existing assert among them, in a core file, and the
    # formatter's exclude list shortened in pyproject.toml: no rule has anything to read.
    old = ["    assert x.shape == y.shape, f'shape {x.shape} != {y.shape}'"]
    new = ["    assert x.shape == y.shape, (", '        f"shape {x.shape} != {y.shape}"', "    )"]
    wrapped = [(old, new)] + [
        ([f"    v{k} = f(a,", "          b)"], [f"    v{k} = f(a, b)"]) for k in range(12)
    ]
    code = f("engine/core/kernel.py", 15, 25, patch=hunks(*wrapped))
    toml = f("pyproject.toml", 0, 2, patch=hunks(([' "engine/core/**",', "    # (9)"], [])))
    assert tags(pr(code, toml)) == {}
    # The same assert new in the file is a check, wherever the sweep puts it.
    changed = f("engine/core/kernel.py", 16, 25, patch=hunks(*wrapped, ([], ["    assert n > 0"])))
    assert "assert_validation" in tags(pr(changed, toml))


def test_a_sweep_that_creates_code_still_asks_for_its_tests() -> None:
    wrapped = [([f"    v{k} = f(a,", "          b)"], [f"    v{k} = f(a, b)"]) for k in range(40)]
    sweep = f("engine/sampler.py", 40, 80, patch=hunks(*wrapped))
    lint = f(
        "engine/other.py",
        3,
        3,
        patch=hunks((["a = 1", "b = 2", "c = 3"], ["a = 2", "b = 3", "c = 4"])),
    )
    assert "missing_tests" not in tags(pr(sweep, lint))
    created = f("engine/patch_new.py", 30, 0, status="added", patch=hunks(([], ["x = 1"] * 30)))
    assert tags(pr(sweep, lint, created))["missing_tests"][1].path == "engine/patch_new.py"


def test_pyproject_tool_settings_are_no_dependency_change() -> None:
    def dep(*pairs: tuple[list[str], list[str]]) -> bool:
        return "dependency_change" in tags(pr(f("pyproject.toml", 1, 1, patch=hunks(*pairs))))

    assert not dep((["[tool.ruff]", "line-length = 100"], ["[tool.ruff]", "line-length = 120"]))
    assert not dep(([], ["[tool.mypy]", "strict = true"]))
    assert dep((['    "torch>=2.1",'], ['    "torch>=2.5",']))  # a requirement, table unknown
    assert dep(([], ["[tool.setuptools.packages.find]", 'where = ["src"]']))  # the build
    assert dep(
        (
            ["[build-system]", 'requires = ["setuptools"]'],
            ["[build-system]", 'requires = ["setuptools>=70"]'],
        )
    )
    # Without hunks the file's name is all there is.
    assert "dependency_change" in tags(pr(f("pyproject.toml", 1, 1)))


def test_a_pr_read_with_reviews_missing_fires_no_review_rule(sqlite_store, rec: Records) -> None:
    """A transient FORBIDDEN on reviews (store/gaps.py) once left a reviewed PR "merged without
    approval" in the weekly: incomplete review data is judged by no rule, and said (#25)."""
    merged = "2026-08-12T10:00:00Z"
    seed(
        sqlite_store,
        [
            rec.repo("acme/engine"),
            # GitHub has bob's approval; the sync that read this PR was refused its reviews.
            rec.pr(5, merged_at=merged, detail_updated_at=ts(merged), unresolved_threads=2),
        ],
    )
    with sqlite_store.begin() as conn:
        repo_id = sqlite_store.require_repo(conn, "acme/engine")
        write_gaps(
            sqlite_store,
            conn,
            repo_id,
            5,
            {
                "reviews": "reviews not readable (FORBIDDEN)",
                "reviewThreads": "reviewThreads not readable (FORBIDDEN)",
            },
        )
    with sqlite_store.engine.connect() as conn:
        [pr5] = load_merged(conn, repo_id, ts("2026-08-10T00:00:00Z"), ts("2026-08-17T00:00:00Z"))
    assert pr5.reviews_incomplete and not pr5.reviews_known and pr5.unresolved_threads is None
    assert not {"no_approval", "follow_up_promised"} & set(tags(pr5))
    # The weekly says why it is silent, in both languages.
    import tidings

    for lang, words in (("en", "review data incomplete"), ("zh", "审查数据不完整")):
        weekly = tidings.build_weekly(
            sqlite_store, "acme/engine", "2026-W33", lang, llm=False, allow_partial=True
        )
        [line] = [p for p in weekly.merged if p.item.number == 5]
        assert line.reviews_incomplete and not line.risk_tags
        assert words in tidings.render_report(weekly, "md")
