"""Examples that keep their nulls in the served OpenAPI document.

Litestar renders its spec objects by dropping every None it meets, inside an example's value
too: `{"name": null}` is served as `{}`, and an example of a body whose field is required and
nullable no longer validates against its own schema. `ex` here is `services.http.schemas.ex`
with the value served as written.
"""

from __future__ import annotations

import copy
from typing import Any

from litestar.openapi.spec import Example


class ExactExample(Example):
    """An Example whose value is rendered as given, nulls included."""

    def to_schema(self) -> dict[str, Any]:
        schema = super().to_schema()
        if self.value is not None:
            schema["value"] = copy.deepcopy(self.value)
        return schema


def ex(summary: str, value: Any) -> Example:
    return ExactExample(summary=summary, value=value)
