"""Loaders: the only part of facts/ that reads the store. Each builds the typed records the
pure fact modules compute over (facts/activity_data.py's `WindowData`, facts/risk.py's
`MergedPR`, facts/threads.py's `InlineComment`...), and nothing else in facts/ imports
SQLAlchemy or tidings.store (pyproject's import-linter contracts "facts-pure" and
"facts-load-on-top" hold it).

Why here and not in the store's read modules: a loader decides what to read next from what it
has read, by the facts' own rules. A window's items name other items (`#N`, facts/mentions.py)
and reverted PRs (facts/reverts.py) that are read next; a revert whose text names only a
commit is linked through the store; who counts as a maintainer (facts/roles.py) picks which
replies count. The store sits below facts in the pipeline and cannot call those rules or build
their records, so a loader split between the layers would move the decisions into the store
or send every intermediate result up and down. Here, a loader states its queries beside the
records they fill, and the rules stay testable on hand-built records.
"""
