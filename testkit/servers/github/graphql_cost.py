"""What a GraphQL query costs (GitHub's documented points and node count), read from its text."""

from __future__ import annotations

from typing import Any

from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    InlineFragmentNode,
    IntValueNode,
    OperationDefinitionNode,
    SelectionSetNode,
    VariableNode,
)


def _count_fields(document: DocumentNode, name: str) -> int:
    """How many fields called `name` (aliases counted apart) the document selects."""
    count = 0

    def walk(selection_set: SelectionSetNode | None) -> None:
        nonlocal count
        if selection_set is None:
            return
        for selection in selection_set.selections:
            if isinstance(selection, FieldNode) and selection.name.value == name:
                count += 1
            if isinstance(selection, FieldNode | InlineFragmentNode):
                walk(selection.selection_set)

    for definition in document.definitions:
        if isinstance(definition, OperationDefinitionNode | FragmentDefinitionNode):
            walk(definition.selection_set)
    return count


def _query_cost(document: DocumentNode, variables: dict[str, Any]) -> tuple[int, int]:
    """GitHub's documented cost (connection requests / 100, at least 1) and node count."""
    fragments = {
        d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
    }
    requests = 0
    nodes = 0

    def size(node: FieldNode) -> int | None:
        for argument in node.arguments or ():
            if argument.name.value not in ("first", "last"):
                continue
            value = argument.value
            if isinstance(value, IntValueNode):
                return int(value.value)
            if isinstance(value, VariableNode):
                found = variables.get(value.name.value)
                return found if isinstance(found, int) else None
        return None

    def walk(selection_set: SelectionSetNode | None, multiplier: int, depth: int) -> None:
        nonlocal requests, nodes
        if selection_set is None or depth > 20:
            return
        for selection in selection_set.selections:
            if isinstance(selection, FieldNode):
                n = size(selection)
                if n is not None:
                    requests += multiplier
                    nodes += multiplier * n
                    walk(selection.selection_set, multiplier * max(n, 1), depth + 1)
                else:
                    walk(selection.selection_set, multiplier, depth + 1)
            elif isinstance(selection, InlineFragmentNode):
                walk(selection.selection_set, multiplier, depth + 1)
            elif isinstance(selection, FragmentSpreadNode):
                fragment = fragments.get(selection.name.value)
                if fragment is not None:
                    walk(fragment.selection_set, multiplier, depth + 1)

    for definition in document.definitions:
        if isinstance(definition, OperationDefinitionNode):
            walk(definition.selection_set, 1, 0)
    return max(1, round(requests / 100)), nodes
