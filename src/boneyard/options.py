"""Typed rule options: frozen dataclasses whose fields are the config keys of RULES.md.

Each field's type says what it accepts (``bool``, ``int``, ``int | None``, a ``Literal`` of
allowed values, or the deal-size list); :func:`parse_options` turns a JSON object or
``KEY=VALUE`` strings into an options value with errors that name the key.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from dataclasses import dataclass
from typing import Any, Literal, get_args, get_origin

from boneyard.errors import OptionError, did_you_mean

DealSizes = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class OptionSpec:
    name: str
    kind: str  #: "bool", "int", "choice" or "sizes"
    default: object
    choices: tuple[object, ...]
    optional: bool
    help: str
    low: int = 0  #: the least a whole-number option may be
    high: int | None = None  #: the most it may be (``None``: no bound)
    #: values of the option's type that are not offered, each with why it is refused (left out of ``choices``)
    withheld: tuple[tuple[object, str], ...] = ()

    def as_json(self) -> dict[str, object]:
        return {"name": self.name, "type": self.kind, "default": encode_value(self.default),
                "allowed": [encode_value(c) for c in self.choices] or None,
                "nullable": self.optional, "help": self.help, "min": self.low, "max": self.high}


#: the highest target a game may be played to (a million points: far beyond any real game, and a
#: number every display shows whole)
MAX_TARGET = 1_000_000


def option(default: object, help: str, *, low: int = 0, high: int | None = None,
           withheld: dict[str, str] | None = None) -> Any:
    """A rule option field with its help text (and, for a whole number, its bounds).  ``withheld``: values its type
    names that are not offered (``variants`` does not list them), each with the reason its refusal gives."""
    return dataclasses.field(default=default, metadata={"help": help, "low": low, "high": high,
                                                        "withheld": tuple((withheld or {}).items())})


def target_option(default: int | None, help: str) -> Any:
    """The points a game is played to: a whole number from 1 to :data:`MAX_TARGET`."""
    return option(default, help, low=1, high=MAX_TARGET)


def encode_value(value: object) -> object:
    if isinstance(value, tuple):
        return list(value)
    return value


def value_text(value: object) -> str:
    """An option value as it is typed after ``-o NAME=`` (``true``, ``none``, ``7/5/5``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "/".join(map(str, value))
    return "none" if value is None else str(value)


def specs(cls: type) -> list[OptionSpec]:
    """The options of a variant's ``Options`` dataclass, in field order (worked out once per class)."""
    return list(_specs(cls))


@functools.cache
def _specs(cls: type) -> tuple[OptionSpec, ...]:
    hints = typing.get_type_hints(cls)
    result = []
    for fld in dataclasses.fields(cls):
        hint = hints[fld.name]
        optional = False
        args = get_args(hint)
        if get_origin(hint) in (typing.Union, types.UnionType) and type(None) in args:
            optional = True
            hint = next(arg for arg in args if arg is not type(None))
        if hint is bool:
            kind, choices = "bool", ()
        elif hint is int:
            kind, choices = "int", ()
        elif get_origin(hint) is Literal:
            withheld = {value for value, _ in fld.metadata.get("withheld", ())}
            kind, choices = "choice", tuple(value for value in get_args(hint) if value not in withheld)
        elif get_origin(hint) is tuple:
            kind, choices = "sizes", ()
        else:  # pragma: no cover - a programming error in a variant module
            raise TypeError(f"option {fld.name} has an unsupported type {hint}")
        result.append(OptionSpec(fld.name, kind, fld.default, choices, optional, fld.metadata.get("help", ""),
                                 fld.metadata.get("low", 0), fld.metadata.get("high"),
                                 fld.metadata.get("withheld", ())))
    return tuple(result)


def _convert(spec: OptionSpec, value: object, where: str) -> object:
    name = f"{where}option {spec.name!r}"
    given = repr(value)  # as the user typed it (or as the record holds it), before any conversion
    if isinstance(value, str):
        text = value.strip().lower()
        if spec.optional and text in ("none", "null", "default", ""):
            return None
        if spec.kind == "bool":
            if text in ("true", "on", "yes", "1"):
                return True
            if text in ("false", "off", "no", "0"):
                return False
            raise OptionError(f"{name}: {value!r} is not true or false")
        if spec.kind == "int" or (spec.kind == "choice" and all(isinstance(c, int) for c in spec.choices)):
            try:
                value = int(text)
            except ValueError:
                raise OptionError(f"{name}: {value!r} is not a whole number") from None
        elif spec.kind == "sizes":
            try:
                value = [int(part) for part in text.replace(",", "/").split("/")]
            except ValueError:
                raise OptionError(f"{name}: {value!r} is not a hand size like 7 or 7/5/5") from None
        else:
            value = text
    if value is None:
        if spec.optional:
            return None
        raise OptionError(f"{name}: may not be null")
    if spec.kind == "bool":
        if not isinstance(value, bool):
            raise OptionError(f"{name}: {value!r} is not true or false")
        return value
    if spec.kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise OptionError(f"{name}: {value!r} is not a whole number")
        if value < spec.low or (spec.high is not None and value > spec.high):
            bounds = f"from {spec.low:,} to {spec.high:,}" if spec.high is not None else f"of at least {spec.low:,}"
            raise OptionError(f"{name}: {value!r} is not a whole number {bounds}")
        return value
    if spec.kind == "sizes":
        if isinstance(value, int) and not isinstance(value, bool):
            value = [value]
        if (not isinstance(value, (list, tuple)) or not value
                or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value)):
            raise OptionError(f"{name}: {given} is not a hand size (7) or one per player count (7/5/5), "
                              "each at least 1")
        return tuple(value)
    reason = next((why for withheld, why in spec.withheld if withheld == value), None)
    if reason is not None:
        raise OptionError(f"{name}: {value!r} {reason}")
    # (a choice's own type only: 6.0 == 6 and True == 1 in Python, but neither is the whole number 6 or 1)
    if type(value) not in {type(c) for c in spec.choices} or value not in spec.choices:
        allowed = ", ".join([str(c) for c in spec.choices] + (["none"] if spec.optional else []))
        raise OptionError(f"{name}: {value!r} is not allowed (choose from {allowed})")
    return value


def parse_options(cls: type[Any], given: object, where: str = "") -> Any:
    """Build an options value from a mapping, rejecting unknown keys and bad values."""
    if given is None:
        return cls()
    if isinstance(given, cls):
        return given
    if not isinstance(given, dict):
        raise OptionError(f"{where}options must be an object of KEY: VALUE, got {type(given).__name__}")
    table = {spec.name: spec for spec in specs(cls)}
    values = {}
    for key, value in given.items():
        name = str(key).replace("-", "_")
        spec = table.get(name)
        if spec is None:
            known = ", ".join(sorted(table))
            guess = did_you_mean(name, table.keys())
            raise OptionError(f"{where}unknown option {key!r} ({guess}this variant has: {known})")
        values[spec.name] = _convert(spec, value, where)
    return cls(**values)


def parse_assignments(cls: type[Any], assignments: list[str]) -> Any:
    """Options from ``KEY=VALUE`` strings, as given on the command line."""
    mapping: dict[str, object] = {}
    for text in assignments:
        key, equals, value = text.partition("=")
        if not equals or not key.strip():
            raise OptionError(f"--option {text!r}: expected KEY=VALUE, e.g. target=150")
        mapping[key.strip()] = value
    return parse_options(cls, mapping)


def non_defaults(options: object) -> dict[str, object]:
    """The options that differ from their defaults, JSON-ready (for records)."""
    assert dataclasses.is_dataclass(options) and not isinstance(options, type)
    result = {}
    for fld in dataclasses.fields(options):
        value = getattr(options, fld.name)
        if value != fld.default:
            result[fld.name] = encode_value(value)
    return result
