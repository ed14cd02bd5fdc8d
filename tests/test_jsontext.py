"""Nesting limits on JSON read from outside (records, web messages)."""

from __future__ import annotations

import json

import pytest

from boneyard import jsontext, record
from boneyard.errors import RecordError


def test_deep_nesting_is_refused_with_its_place() -> None:
    with pytest.raises(jsontext.JSONDepthError) as caught:
        jsontext.loads("[" * 2000 + "]" * 2000)
    assert caught.value.offset == jsontext.MAX_DEPTH
    assert "nested deeper than 32" in str(caught.value)


def test_brackets_inside_strings_do_not_count() -> None:
    text = json.dumps({"name": "[" * 500 + '\\"{' * 100})
    assert jsontext.loads(text) == json.loads(text)


def test_the_limit_itself_is_accepted() -> None:
    depth = jsontext.MAX_DEPTH
    assert jsontext.loads("[" * depth + "]" * depth) is not None


def test_a_deep_record_is_a_record_error_not_a_recursion_error() -> None:
    with pytest.raises(RecordError, match=r"game\.json: JSON nested deeper"):
        record.loads('{"hands": ' + "[" * 1000 + "]" * 1000 + "}", "game.json")


def test_bytes_are_read_as_utf8() -> None:
    assert jsontext.loads(b'{"a": [1, 2]}') == {"a": [1, 2]}
