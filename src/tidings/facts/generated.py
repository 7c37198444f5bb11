"""What a reader should not be shown as "where the work was": generated and vendored files,
and PRs opened by bots.

A 9,424-line PR of machine-translated `.po` files, a regenerated lock file or a dependabot bump
is real churn, and every count still includes it, but it says nothing about where people
worked: hot files, hot directories, themes and the importance ranking leave it out.

Generated files are recognised by path (`DEFAULT_GENERATED` plus the repository's
`generated_paths` globs; GitHub's `linguist-generated` attribute is not in the store, so a
repository that marks files that way lists the same globs in its config). Bot PRs are those
whose author is a bot (facts/actors.py says who is), except reverts: a revert opened by
automation is still news.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from tidings.common.config import RepoConfig
from tidings.common.globs import any_match
from tidings.facts.actors import is_bot
from tidings.facts.reverts import is_revert

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


def is_generated(path: str, repo: RepoConfig) -> bool:
    return _generated(path, tuple(repo.generated_paths))


# A weekly asks this of the same paths thousands of times (~14k calls, 25 globs each): once per
# path and config is enough, and paths repeat across PRs, windows and the site's rebuilds.
@lru_cache(maxsize=65536)
def _generated(path: str, configured: tuple[str, ...]) -> bool:
    return any_match(_DEFAULTS, path) or (bool(configured) and any_match(configured, path))


def is_bot_pr(
    author: str | None,
    author_type: str | None,
    title: str,
    body: str | None,
    bots: Iterable[str],
) -> bool:
    """A PR a bot opened that is no revert: out of themes, clusters, hot files and the
    ranking. `bots`: the repository's config."""
    return is_bot(author, author_type, bots) and not is_revert(title, body)
