"""The names of the risk tags: the vocabulary the rules (facts/risk.py) decide, the config's
`[repos.risk] weights` are checked against, and the report models, words and site name. Kept
below every layer so the config can check a tag name without importing the rules."""

from __future__ import annotations

from typing import Literal, get_args

RiskTagName = Literal[
    "missing_tests",
    "tests_removed",
    "core_path",
    "large_change",
    "assert_validation",
    "revert",
    "no_approval",
    "dependency_change",
    "security_path",
    "follow_up_promised",
]
RISK_TAGS: tuple[RiskTagName, ...] = get_args(RiskTagName)
