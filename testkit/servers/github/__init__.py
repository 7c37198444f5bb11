"""A loopback GitHub for tests and benchmarks: REST v3 and GraphQL v4 rendered from records.

`FakeGitHub` holds repositories as tidings records (the snapshot form), renders them back into
the JSON GitHub sends (docs/github-mapping.md is the contract), serves them on 127.0.0.1 from a
background thread, logs every request, and injects the faults a real sync meets: rate limits,
502s, hung and truncated answers, and data changing between two pages.

    with FakeGitHub(records) as gh:              # or FakeGitHub.from_snapshot(path)
        client = GitHubClient(gh.api_url, gh.graphql_url, "test-token")
        ...
        assert gh.count(api="graphql") == 2
        assert export(store) == records_of(gh)   # modulo sync bookkeeping

- Log: `requests`, `count(api=, status=, path_contains=, not_modified=)`, `reset_log()`;
  `new_hour()` starts fresh rate-limit windows.
- Faults: `inject(kind, api=, path_contains=, body_contains=, times=1, skip=0, ...)` with kinds
  "429", "secondary" (`status=200` for GitHub's 200-with-a-message form), "primary", "502",
  "timeout", "truncated", "mutate", "graphql_heavy", "not_found" (a 404), GitHub's partial
  GraphQL answers "resource_limits" (RESOURCE_LIMITS_EXCEEDED, optionally only above `max_prs`
  PRs or `max_nodes` nodes) and "forbidden" (FORBIDDEN on named fields, left null), and the
  well-formed-HTTP-but-wrong answers "bad_body", "null_repository", "zero_totals",
  "null_connections" and "stale" (a cache keyed by path alone: an old body with the real
  ETag); `graphql_max_prs = N` as a standing rule; `on_request(callback)`;
  `clear_faults()`.
- Data variants real GitHub sends: `null_review_ids` (reviews whose `fullDatabaseId` and
  `databaseId` answer null), `label_strings` (REST labels as bare names), `null_rest_users`
  (`user: null` for a deleted account), `max_page` (REST listings answer 422 beyond that
  page), `graphql_files_limit` (a PR with more files answers GraphQL `files: null,
  changedFiles: 0`), `split_update_times` (a comment moves a PR's issue record's `updated_at`,
  not its pull request record's); `set_team(org, slug, logins)` for team listings. GitHub's
  3,000-file cap (list and `totalCount`) is always on.
- Mutations at `clock` (default: newest timestamp in the data + 1 h; `advance(seconds)`):
  `update_item`, `add_item`, `delete_item`, `add_comment`, `edit_comment`, `delete_comment`,
  `add_review`, `add_review_comment`, `delete_review_comment`, `push_commit`, and of the
  repository `push`, `star`, `fork`, `update_repository`. The repository argument may be left
  out when the fake holds one repository: `gh.add_comment(5, "hi")`.
- GraphQL `search(type: ISSUE) { issueCount }` for `repo:`, `is:`, `type:` and `created:`
  qualifiers (search.py; anything else is refused, not guessed); `search_lag` (seconds) makes
  its index trail the clock, as GitHub's does.
- Conditional requests as GitHub answers them (etags.py): an ETag is bound to the token that
  asked (`extra_tokens` are others), so another token's If-None-Match is a paid 200; the
  repository object sends `Last-Modified` (its `updated_at`, moved by stars, forks and
  settings) and honours If-Modified-Since for any token; its ETag moves with nearly every
  activity (`pushed_at`, `size`, `open_issues_count`, `forks_count`...: state.py).

Records are normalised on the way in to what GitHub would report (node ids and urls filled in,
zero reactions dropped, PR-only fields cleared on issues, PR refs and sizes defaulted), so
`records_of` is exactly what a faithful client can read back.

GraphQL queries are validated and executed for real by graphql-core against GitHub's real public
schema, read from ../shared at run time (`schema()`, testkit/servers/real_schema.py): a query GitHub
would refuse is refused here with GraphQL's own message. A field of the real schema the fake has
no data for resolves to null (an error where the field is non-null), never to invented data.
Where ../shared is absent, `subset_schema.graphql` stands in, a hand-written subset with the same
names, nullability and connection shapes (tests/sources/github/test_github_real_schema.py holds
it to the real one).

The package is cut along the fake's seams: `core` (state, data in and out, the clock), `state` (one
repository), `normalise`, `mutations`, `rest_json` and `rest` (REST v3), `graphql_schema`,
`graphql_endpoint`, `graphql_nodes`, `graphql_connections`, `graphql_values`, `graphql_cost` and
`discussions` (GraphQL v4), `search`, `faults`, `etags`, `rate_limits`, `log`, `wire` (requests and
responses), `server` (HTTP) and `fake` (`FakeGitHub`, which puts the sides together).
"""

from testkit.servers.github.constants import (
    ACTOR_TYPES,
    CHANGE_TYPES,
    CONNECTION_LIMIT,
    DISCUSSION_BODY_MAX,
    GHOST,
    GRAPHQL_DOCS,
    GRAPHQL_TIMEOUT_MESSAGE,
    MAX_PR_FILES,
    PAGE_TOO_DEEP_MESSAGE,
    PRIMARY_MESSAGE,
    RATE_DOCS,
    REACTION_CONTENTS,
    REACTION_KEYS,
    RESOURCE_LIMITS_MESSAGE,
    REST_DOCS,
    SECONDARY_MESSAGE,
    TIMEOUT_MESSAGE,
    UNICORN_HTML,
    WEB,
    oauth_restricted,
)
from testkit.servers.github.fake import FakeGitHub, records_of
from testkit.servers.github.faults import CORRUPTIONS, FAULT_KINDS, GRAPHQL_ONLY, Fault
from testkit.servers.github.graphql_schema import SUBSET_PATH, schema
from testkit.servers.github.rate_limits import RATE_LIMIT
from testkit.servers.github.snapshot import _iter_records
from testkit.servers.github.wire import Api, LoggedRequest, Request

__all__ = [
    "ACTOR_TYPES",
    "CHANGE_TYPES",
    "CONNECTION_LIMIT",
    "CORRUPTIONS",
    "DISCUSSION_BODY_MAX",
    "FAULT_KINDS",
    "GHOST",
    "GRAPHQL_DOCS",
    "GRAPHQL_ONLY",
    "GRAPHQL_TIMEOUT_MESSAGE",
    "MAX_PR_FILES",
    "PAGE_TOO_DEEP_MESSAGE",
    "PRIMARY_MESSAGE",
    "RATE_DOCS",
    "RATE_LIMIT",
    "REACTION_CONTENTS",
    "REACTION_KEYS",
    "RESOURCE_LIMITS_MESSAGE",
    "REST_DOCS",
    "SECONDARY_MESSAGE",
    "SUBSET_PATH",
    "TIMEOUT_MESSAGE",
    "UNICORN_HTML",
    "WEB",
    "Api",
    "FakeGitHub",
    "Fault",
    "LoggedRequest",
    "Request",
    "_iter_records",
    "oauth_restricted",
    "records_of",
    "schema",
]
