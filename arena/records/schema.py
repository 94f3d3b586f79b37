"""Checking a record against its format's schema (``arena/schemas/record.schema.json`` for format 4,
:data:`SCHEMA_FILES`) with the standard library only.

``arena check-record`` runs where arena's dependencies may not be installed (``scripts/check_record.py``
runs it with ``python -S``), so it does not use the ``jsonschema`` package: this is a validator of
the JSON Schema keywords the record schema uses (``type``, ``enum``, ``const``, ``required``,
``properties``, ``additionalProperties`` (a boolean), ``items``, ``prefixItems``, ``minItems``,
``maxItems``, ``minimum``, ``pattern``, local ``$ref`` and ``if``/``then``/``else``), following
draft 2020-12. A keyword it does not know raises :class:`SchemaError` the first time it is met, so
a schema change that needs more is caught by the tests (which also compare its verdicts with
``jsonschema``'s, tests/records/test_schema.py), never silently ignored.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

from arena.errors import ArenaError

_ANNOTATIONS = frozenset({"$schema", "$id", "title", "description", "$defs", "$comment"})
_TYPES: dict[str, Any] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer()),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


class SchemaError(ArenaError):
    """The schema itself cannot be used (a keyword this validator does not implement, a bad $ref)."""


#: The schema file of each record format (formats 1 and 2 share one).
SCHEMA_FILES = {1: "record-v2.schema.json", 2: "record-v2.schema.json", 3: "seat-record.schema.json",
                4: "record.schema.json"}


@cache
def record_schema(fmt: int = 4) -> Mapping[str, Any]:
    """The schema of record format ``fmt`` shipped in the package (:data:`SCHEMA_FILES`; default:
    the format arena writes), read once."""
    from arena.records.format import load_schema

    return load_schema(SCHEMA_FILES[fmt])


def schema_errors(value: Any, schema: Mapping[str, Any] | None = None) -> Iterator[tuple[str, str]]:
    """``(JSON pointer, message)`` for each place ``value`` breaks ``schema`` (default: the record
    schema), in document order; nothing when it matches."""
    root = record_schema() if schema is None else schema
    yield from _errors(value, root, root, "")


def _errors(value: Any, schema: Mapping[str, Any], root: Mapping[str, Any], where: str) -> Iterator[tuple[str, str]]:
    unknown = set(schema) - _ANNOTATIONS - _KNOWN
    if unknown:
        raise SchemaError(f"record schema keyword(s) {sorted(unknown)} not supported by arena.records.schema")
    if "$ref" in schema:
        yield from _errors(value, _resolve(schema["$ref"], root), root, where)
    if "type" in schema:
        kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_TYPES[kind](value) for kind in kinds):
            yield where, f"{_short(value)} is not of type {' or '.join(repr(k) for k in kinds)}"
            return
    if "const" in schema and not _equal(value, schema["const"]):
        yield where, f"{_short(schema['const'])} was expected"
    if "enum" in schema and not any(_equal(value, option) for option in schema["enum"]):
        yield where, f"{_short(value)} is not one of {_short(schema['enum'])}"
    if isinstance(value, (int, float)) and not isinstance(value, bool) and "minimum" in schema \
            and value < schema["minimum"]:
        yield where, f"{value} is less than the minimum of {schema['minimum']}"
    if isinstance(value, str) and "pattern" in schema and not re.search(schema["pattern"], value):
        yield where, f"{_short(value)} does not match {schema['pattern']!r}"
    if isinstance(value, dict):
        yield from _object_errors(value, schema, root, where)
    if isinstance(value, list):
        yield from _array_errors(value, schema, root, where)
    if "if" in schema:
        matched = next(_errors(value, schema["if"], root, where), None) is None
        branch = schema.get("then" if matched else "else")
        if branch is not None:
            yield from _errors(value, branch, root, where)


def _object_errors(value: dict[str, Any], schema: Mapping[str, Any], root: Mapping[str, Any],
                   where: str) -> Iterator[tuple[str, str]]:
    for key in schema.get("required", ()):
        if key not in value:
            yield where, f"{key!r} is a required property"
    properties = schema.get("properties", {})
    for key, item in value.items():
        if key in properties:
            yield from _errors(item, properties[key], root, f"{where}/{_escape(key)}")
        elif schema.get("additionalProperties", True) is False:
            yield where, f"additional property {key!r} is not allowed"


def _array_errors(value: list[Any], schema: Mapping[str, Any], root: Mapping[str, Any],
                  where: str) -> Iterator[tuple[str, str]]:
    if "minItems" in schema and len(value) < schema["minItems"]:
        yield where, f"{_short(value)} should have at least {schema['minItems']} items"
    if "maxItems" in schema and len(value) > schema["maxItems"]:
        yield where, f"{_short(value)} should have at most {schema['maxItems']} items"
    prefix = schema.get("prefixItems", [])
    for index, item in enumerate(value):
        below = prefix[index] if index < len(prefix) else schema.get("items")
        if below is not None:
            yield from _errors(item, below, root, f"{where}/{index}")


_KNOWN = frozenset({"$ref", "type", "const", "enum", "minimum", "pattern", "required", "properties",
                    "additionalProperties", "minItems", "maxItems", "prefixItems", "items", "if", "then", "else"})


def _resolve(ref: str, root: Mapping[str, Any]) -> Mapping[str, Any]:
    if not ref.startswith("#/"):
        raise SchemaError(f"record schema $ref {ref!r}: only references inside the schema are supported")
    node: Any = root
    for part in ref[2:].split("/"):
        node = node.get(part.replace("~1", "/").replace("~0", "~")) if isinstance(node, Mapping) else None
    if not isinstance(node, Mapping):
        raise SchemaError(f"record schema $ref {ref!r} points at nothing")
    return node


def _equal(a: Any, b: Any) -> bool:
    """JSON equality: ``true`` is not ``1``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return bool(a == b)


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _short(value: Any) -> str:
    text = json.dumps(value, default=repr)
    return text if len(text) <= 40 else text[:37] + "..."


__all__ = ["SchemaError", "record_schema", "schema_errors"]
