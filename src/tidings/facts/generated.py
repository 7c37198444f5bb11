"""What a reader should not be shown as "where the work was": generated and vendored files,
and PRs opened by bots.

A 9,424-line PR of machine-translated `.po` files, a regenerated lock file or a dependabot bump
is real churn, and every count still includes it, but it says nothing about where people
worked: hot files, hot directories, themes and the importance ranking leave it out.

Generated files are recognised by path (`DEFAULT_GENERATED` plus the repository's
`generated_paths` globs; GitHub's `linguist-generated` attribute is not in the store, so a
repository that marks files that way lists the same globs in its config). Bot PRs are those
whose author GitHub marks as a bot, whose login ends in `[bot]` or is listed under `bots`, and,
for a history read from a git clone (names, not logins), automation names such as
`vllm-ascend-ci` or `github-actions`.
"""

from __future__ import annotations

import re

from tidings.config import RepoConfig
from tidings.facts.actors import is_bot, is_git_name
from tidings.globs import any_match

# fmt: off
DEFAULT_GENERATED = (
    # Translations (gettext catalogues, usually machine-updated).
    "**/*.po", "**/*.pot", "**/*.mo",
    # Lock files.
    "**/package-lock.json", "**/yarn.lock", "**/pnpm-lock.yaml", "**/poetry.lock",
    "**/uv.lock", "**/Pipfile.lock", "**/Cargo.lock", "**/go.sum", "**/composer.lock",
    "**/Gemfile.lock", "**/*.lock",
    # Minified and generated code.
    "**/*.min.js", "**/*.min.css", "**/*_pb2.py", "**/*_pb2_grpc.py", "**/*.pb.go",
    # Vendored trees.
    "vendor/**", "**/vendor/**", "**/_vendor/**", "third_party/**", "**/third_party/**",
)
# fmt: on
_DEFAULTS = list(DEFAULT_GENERATED)

# Automation that commits under a plain name in git histories (no GitHub account type there).
_GIT_BOT_NAME = re.compile(
    r"(?:\[bot\]|[-_ ]bot|[-_ ]ci|[-_ ]automation|^github-actions|^dependabot|^renovate|"
    r"^pre-commit-ci|^mergify)$",
    re.IGNORECASE,
)


def is_generated(path: str, repo: RepoConfig) -> bool:
    return any_match(_DEFAULTS, path) or (
        bool(repo.generated_paths) and any_match(repo.generated_paths, path)
    )


def is_bot_author(
    author: str | None, author_type: str | None, repo: RepoConfig, *, git: bool = False
) -> bool:
    """A bot by GitHub's account type, its login or the config; for a git name (`git`, or
    the git source's author type), also by the shape of the name: automation names such as
    `vllm-ascend-ci`, which no person's name has."""
    if is_bot(author, author_type, repo.bots):
        return True
    if author is None or not (git or is_git_name(author_type)):
        return False
    return _GIT_BOT_NAME.search(author.strip()) is not None
