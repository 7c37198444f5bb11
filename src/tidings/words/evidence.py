# ruff: noqa: E501  (a catalogue of sentences reads better unwrapped)
"""The words of the evidence marks, in each language: how a PR's review threads ended, and how
many of its files have no diff in the store (their risk tags may miss something).

Both reports' catalogues (words/daily.py, words/weekly.py) include these keys; they live apart
so the figures' sentences sit together.
"""

from __future__ import annotations

from tidings.common.config import Lang

TEXT: dict[Lang, dict[str, str]] = {
    "zh": {
        "unread_diffs": "{n} 个文件无 diff",
        "unread_diffs_one": "1 个文件无 diff",
        "unread_diffs_why": "库中没有这些文件的 diff（GitHub 未给出，二进制或过大；或下次同步才读取），风险标签没有读到它们",
        "reviews_incomplete": "审查数据不完整（未判断是否未经批准合并）",
        "threads_line": "审查线程",
        "th_unresolved": "{total} 个中 {n} 个仍未解决",
        "th_resolved": "{total} 个均已解决",
        "th_resolved_one": "唯一的 1 个已解决",
        "th_no_commit": "{n} 个已解决但之后没有新提交",
        "th_no_commit_one": "1 个已解决但之后没有新提交",
        "th_followed": "{n} 个之后有新提交",
        "th_none_followed": "提出后都没有新提交",
        "th_none_followed_one": "提出后没有新提交",
        "th_sep": "；",
    },
    "en": {
        "unread_diffs": "{n} files without a diff",
        "unread_diffs_one": "1 file without a diff",
        "unread_diffs_why": "their diff is not in the store (GitHub gave none, binary or too large to show; or the next sync reads it), so the risk tags did not read them",
        "reviews_incomplete": "review data incomplete (approval not judged)",
        "threads_line": "Review threads",
        "th_unresolved": "{n} of {total} still unresolved",
        "th_resolved": "all {total} resolved",
        "th_resolved_one": "the only one resolved",
        "th_no_commit": "{n} resolved with no commit after them",
        "th_no_commit_one": "1 resolved with no commit after it",
        "th_followed": "{n} followed by a later commit",
        "th_none_followed": "no commit after any of them",
        "th_none_followed_one": "no commit after it",
        "th_sep": "; ",
    },
}
