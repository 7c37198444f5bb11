"""GitHub's real public GraphQL schema, read from `../shared` at run time and built once a process.

The schema file (`../shared/data/github/schema.graphql`, see its README there) is GitHub's own
published schema; it is never copied into this repository. Two quirks keep graphql-core from
building it as is, and both are mended on the parsed document, not on the text:

- `EnterpriseOwnerInfo` defines two fields twice; the second definition is dropped.
- graphql-core 3.3 enforces a newer spec rule (an interface field that is not deprecated may not
  be deprecated on an implementation) that GitHub's schema breaks, e.g. `PullRequestReview.
  databaseId` is deprecated while `Reactable.databaseId` is not. The deprecation is taken off
  the implementation; deprecated fields stay valid to query either way, so no query's validity
  changes.

testkit/shared.py says where `../shared` is (`TIDINGS_SHARED` overrides).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, TypeVar

from graphql import DocumentNode, GraphQLSchema, build_ast_schema, parse
from graphql.language import (
    DefinitionNode,
    FieldDefinitionNode,
    InterfaceTypeDefinitionNode,
    Node,
    ObjectTypeDefinitionNode,
)

from testkit.shared import shared_dir

SCHEMA_FILE = Path("data") / "github" / "schema.graphql"

_N = TypeVar("_N", bound=Node)
_TypeNode = TypeVar("_TypeNode", ObjectTypeDefinitionNode, InterfaceTypeDefinitionNode)

_CACHE: dict[Path, GraphQLSchema] = {}
_LOCK = threading.Lock()


def schema_path() -> Path:
    return shared_dir() / SCHEMA_FILE


def real_schema(path: Path | None = None) -> GraphQLSchema | None:
    """The built schema, or None when the file is absent. Built once per process and path:
    parsing 1.2 MB of SDL takes about a second."""
    path = path or schema_path()
    with _LOCK:
        if path not in _CACHE:
            if not path.is_file():
                return None
            _CACHE[path] = build(path.read_text(encoding="utf-8"))
        return _CACHE[path]


def build(sdl: str) -> GraphQLSchema:
    return build_ast_schema(_mended(parse(sdl, no_location=True)))


def _mended(document: DocumentNode) -> DocumentNode:
    """The document with each type's repeated fields dropped (the first definition is kept) and
    implementations undeprecated where their interface's field is not deprecated."""
    live: dict[str, set[str]] = {}  # interface -> its fields that are not deprecated
    for definition in document.definitions:
        if isinstance(definition, InterfaceTypeDefinitionNode):
            live[definition.name.value] = {
                f.name.value for f in definition.fields or () if not _deprecated(f)
            }
    definitions: list[DefinitionNode] = []
    for definition in document.definitions:
        if isinstance(definition, ObjectTypeDefinitionNode | InterfaceTypeDefinitionNode):
            definition = _mend_type(definition, live)
        definitions.append(definition)
    return DocumentNode(definitions=tuple(definitions))


def _mend_type(definition: _TypeNode, live: dict[str, set[str]]) -> _TypeNode:
    undeprecate = set().union(*(live.get(i.name.value, set()) for i in definition.interfaces or ()))
    seen: set[str] = set()
    fields: list[FieldDefinitionNode] = []
    changed = False
    for item in definition.fields or ():
        name = item.name.value
        if name in seen:
            changed = True
            continue
        seen.add(name)
        if name in undeprecate and _deprecated(item):
            directives = tuple(d for d in item.directives or () if d.name.value != "deprecated")
            item = _replace(item, directives=directives)
            changed = True
        fields.append(item)
    return _replace(definition, fields=tuple(fields)) if changed else definition


def _deprecated(field: FieldDefinitionNode) -> bool:
    return any(d.name.value == "deprecated" for d in field.directives or ())


def _replace(node: _N, **changes: Any) -> _N:
    """A copy of an AST node with some attributes changed (graphql-core 3.2 and 3.3 alike)."""
    values = {key: getattr(node, key, None) for key in node.keys}
    values.update(changes)
    return type(node)(**values)
