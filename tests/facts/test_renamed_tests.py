"""Tests a PR drops, net of the ones it re-adds renamed, moved or parametrized
(facts/renamed_tests.py)."""

from __future__ import annotations

from tidings.facts.renamed_tests import TestFile, dropped_tests

BODY = [
    "    builder = make_builder(graph=True)",
    "    meta = builder.build(pad=4)",
    "    assert meta.mask.sum() == 4",
]


def defn(name: str, body: list[str] = BODY, indent: str = "") -> list[str]:
    return [f"{indent}def {name}() -> None:", *body]


def test_a_test_renamed_into_another_file_is_not_dropped() -> None:
    files = [
        TestFile(0, False, defn("test_dsa_cp_metadata_builder_masks_graph_padding"), []),
        TestFile(1, False, [], defn("test_sfa_dsa_cp_metadata_builder_masks_graph_padding")),
    ]
    assert dropped_tests(files, {"test_sfa_dsa_cp_metadata_builder_masks_graph_padding"}) == {}


def test_a_test_moved_under_an_unrelated_name_matches_by_its_body() -> None:
    files = [
        TestFile(0, False, defn("test_old"), []),
        TestFile(1, False, [], defn("test_new_flow")),
    ]
    assert dropped_tests(files, {"test_new_flow"}) == {}
    other = ["    x = 1", "    y = compute(x)", "    assert y"]
    files = [
        TestFile(0, False, defn("test_old"), []),
        TestFile(1, False, [], defn("test_new_flow", other)),
    ]
    assert dropped_tests(files, {"test_new_flow"}) == {0: 1}


def test_two_tests_become_cases_of_one_parametrized_test() -> None:
    removed = defn("test_extract_hidden_states_eager_mode") + defn(
        "test_extract_hidden_states_aclgraph_mode"
    )
    added = ['@pytest.mark.parametrize("case", CASES)', *defn("test_extract_hidden_states")]
    assert dropped_tests([TestFile(0, False, removed, added)], {"test_extract_hidden_states"}) == {}
    # Without the parametrize, one of the two is gone.
    plain = defn("test_extract_hidden_states")
    assert dropped_tests([TestFile(0, False, removed, plain)], {"test_extract_hidden_states"}) == {
        0: 1
    }


def test_a_dropped_test_with_no_counterpart_is_dropped() -> None:
    files = [TestFile(0, False, defn("test_profile_execute_duration"), [])]
    assert dropped_tests(files, set()) == {0: 1}
    # A new test elsewhere that replaced nothing there and resembles nothing is no match.
    files.append(TestFile(1, False, [], defn("test_rope_cache", ["    pass"])))
    assert dropped_tests(files, {"test_rope_cache"}) == {0: 1}
