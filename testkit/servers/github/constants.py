"""What GitHub says and the limits it keeps: documentation links, error messages, reaction
and change-type names, page and size caps, the ghost user."""

from __future__ import annotations

WEB = "https://github.com"
REST_DOCS = "https://docs.github.com/rest"
GRAPHQL_DOCS = "https://docs.github.com/graphql"
RATE_DOCS = (
    "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"
)
SECONDARY_MESSAGE = (
    "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."
)
PRIMARY_MESSAGE = "API rate limit exceeded for user ID 1."
TIMEOUT_MESSAGE = (
    "We couldn't respond to your request in time. Sorry about that. Please try resubmitting "
    "your request and contact us if the problem persists."
)
RESOURCE_LIMITS_MESSAGE = "Resource limits for this query exceeded."
PAGE_TOO_DEEP_MESSAGE = (
    "Pagination with the page parameter is not supported for large datasets, please use cursor "
    "based pagination (after/before)"
)


def oauth_restricted(org: str) -> str:
    """GitHub's FORBIDDEN message for an organisation restricting OAuth apps."""
    return (
        "Although you appear to have the correct authorization credentials, the "
        f"`{org}` organization has enabled OAuth App access restrictions, meaning that data "
        "access to third-parties is limited. For more information on these restrictions, "
        "including how to enable this app, visit "
        "https://docs.github.com/articles/restricting-access-to-your-organization-s-data/"
    )


GRAPHQL_TIMEOUT_MESSAGE = (
    "Something went wrong while executing your query. This may be the result of a timeout, or "
    "it could be a GitHub bug. Please include `0400:3E5A:1F2B3C:2A4B5C:67A0B1C2` when reporting "
    "this issue."
)
UNICORN_HTML = (
    "<!DOCTYPE html>\n<html>\n<head><title>Unicorn! &middot; GitHub</title></head>\n<body>\n"
    "<p><strong>We couldn't respond to your request in time.</strong></p>\n"
    "<p>Sorry about that. Please try refreshing and contact us if the problem persists.</p>\n"
    "</body>\n</html>\n"
)

# REST reaction keys, and GraphQL's ReactionContent in the order GitHub lists reactionGroups.
REACTION_KEYS = ("+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes")
REACTION_CONTENTS = (
    ("THUMBS_UP", "+1"),
    ("THUMBS_DOWN", "-1"),
    ("LAUGH", "laugh"),
    ("HOORAY", "hooray"),
    ("CONFUSED", "confused"),
    ("HEART", "heart"),
    ("ROCKET", "rocket"),
    ("EYES", "eyes"),
)
# REST file status -> GraphQL PatchStatus.
CHANGE_TYPES = {
    "added": "ADDED",
    "removed": "DELETED",
    "modified": "MODIFIED",
    "renamed": "RENAMED",
    "copied": "COPIED",
    "changed": "CHANGED",
    "unchanged": "CHANGED",
}
ACTOR_TYPES = ("User", "Bot", "Organization", "Mannequin")
MAX_PR_FILES = 3000  # GitHub lists at most 3,000 files of a PR, in REST and in GraphQL
DISCUSSION_BODY_MAX = 65536  # GitHub refuses a longer discussion body
CONNECTION_LIMIT = 100
GHOST = {
    "login": "ghost",
    "id": 10137,
    "node_id": "MDQ6VXNlcjEwMTM3",
    "avatar_url": "https://avatars.githubusercontent.com/u/10137?v=4",
    "gravatar_id": "",
    "url": "https://api.github.com/users/ghost",
    "html_url": f"{WEB}/ghost",
    "type": "User",
    "site_admin": False,
}
