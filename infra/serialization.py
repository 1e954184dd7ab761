"""Events as msgspec Structs on the way in, versioned JSON in the store, Structs on the way out.

The store keeps a stable type name (the Struct's tag, `"card_played"`, never a Python path,
so classes can move and be renamed) and a schema version beside each payload. Events are
never rewritten in place: when an event's shape changes, its class gets a new
`schema_version` and an upcaster that turns the previous version's payload (a plain dict)
into the next one. Reading applies the chain `v1 -> v2 -> ... -> current` before decoding,
so the domain only ever sees current Structs and old matches still replay.

The domain declares its events; a service registers them here (the domain imports nothing
from infra):

    registry.register(CardPlayed)                  # tag "card_played", schema_version 1

    class CardPlayed(msgspec.Struct, tag="card_played"):
        schema_version: ClassVar[int] = 2
        seat: str
        card: str
        by_bot: bool

    @registry.upcaster("card_played", from_version=1)
    def _(payload: dict) -> dict:
        return {**payload, "by_bot": False}
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import msgspec

from infra.store.model import NewEvent, RecordedEvent

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
S = TypeVar("S", bound=type[msgspec.Struct])

_encoder = msgspec.json.Encoder()
_dict_decoder = msgspec.json.Decoder(dict)


class SerializationError(ValueError):
    """A payload cannot be turned into a current event (unknown type, missing upcaster...)."""


class EventRegistry:
    """Type names, schema versions and upcasters of the events a process reads and writes."""

    def __init__(self) -> None:
        self._classes: dict[str, type[msgspec.Struct]] = {}
        self._names: dict[type[msgspec.Struct], str] = {}
        self._versions: dict[str, int] = {}
        self._decoders: dict[str, msgspec.json.Decoder] = {}
        self._upcasters: dict[tuple[str, int], Upcaster] = {}

    def register(self, cls: S, *, name: str | None = None, version: int | None = None) -> S:
        """Register an event class (usable as a decorator). The name defaults to its tag,
        the version to its `schema_version` class variable, else 1."""
        type_name = name or cls.__struct_config__.tag
        if not isinstance(type_name, str):
            raise SerializationError(f"{cls.__name__} needs a string tag or an explicit name")
        known = self._classes.get(type_name)
        if known is not None and known is not cls:
            raise SerializationError(f"event type {type_name!r} is already {known.__name__}")
        self._classes[type_name] = cls
        self._names[cls] = type_name
        self._versions[type_name] = version or getattr(cls, "schema_version", 1)
        self._decoders[type_name] = msgspec.json.Decoder(cls)
        return cls

    def register_all(self, classes: Iterable[type[msgspec.Struct]]) -> None:
        for cls in classes:
            self.register(cls)

    def upcaster(self, type_name: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
        """Register `fn(payload) -> payload` turning `from_version` into `from_version + 1`."""

        def decorator(fn: Upcaster) -> Upcaster:
            key = (type_name, from_version)
            if key in self._upcasters:
                raise SerializationError(f"two upcasters for {type_name} v{from_version}")
            self._upcasters[key] = fn
            return fn

        return decorator

    def type_name(self, cls: type[msgspec.Struct]) -> str:
        try:
            return self._names[cls]
        except KeyError:
            raise SerializationError(f"{cls.__name__} is not a registered event") from None

    def current_version(self, type_name: str) -> int:
        return self._versions.get(type_name, 1)

    def encode(self, event: msgspec.Struct, metadata: dict[str, Any] | None = None) -> NewEvent:
        """The event ready for `append`, at its class's current schema version."""
        name = self.type_name(type(event))
        return NewEvent(
            type=name,
            data=_encoder.encode(event),
            schema_version=self._versions[name],
            metadata=_encoder.encode(metadata) if metadata is not None else None,
        )

    def upcast(self, type_name: str, schema_version: int, payload: dict[str, Any]) -> dict[str, Any]:
        """Bring a payload dict to the current version of its type (unknown types pass through).

        Projections use this directly: they read payloads as dicts so that they need no
        event classes, yet they still see current shapes.
        """
        current = self._versions.get(type_name)
        if current is None:
            return payload
        if schema_version > current:
            raise SerializationError(
                f"{type_name} v{schema_version} was written by newer code (this one knows v{current})"
            )
        for version in range(schema_version, current):
            fn = self._upcasters.get((type_name, version))
            if fn is None:
                raise SerializationError(f"no upcaster for {type_name} v{version} -> v{version + 1}")
            payload = fn(payload)
        return payload

    def decode(self, type_name: str, schema_version: int, data: bytes) -> msgspec.Struct:
        """A stored payload as the current Struct of its type."""
        decoder = self._decoders.get(type_name)
        if decoder is None:
            raise SerializationError(f"unknown event type {type_name!r}")
        try:
            if schema_version == self._versions[type_name]:
                return decoder.decode(data)  # the common case: no dict in between
            payload = self.upcast(type_name, schema_version, _dict_decoder.decode(data))
            return msgspec.convert(payload, self._classes[type_name])
        except msgspec.ValidationError as exc:
            raise SerializationError(f"{type_name} v{schema_version}: {exc}") from exc

    def decode_recorded(self, event: RecordedEvent) -> msgspec.Struct:
        if event.data is None:
            raise SerializationError(f"{event.type} at {event.log_position} was read without its payload")
        return self.decode(event.type, event.schema_version, event.data)

    def payload(self, event: RecordedEvent) -> dict[str, Any]:
        """A stored payload as a current-version dict (see `upcast`)."""
        if event.data is None:
            raise SerializationError(f"{event.type} at {event.log_position} was read without its payload")
        return self.upcast(event.type, event.schema_version, _dict_decoder.decode(event.data))


default_registry = EventRegistry()
"""The registry of this process: the game service registers the domain's events here."""
