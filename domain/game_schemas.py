"""Each game's wire shapes (`domain/<game>/schema.py`), by game name, beside the list of games:
the API's documents read them to type a game's view and legal actions."""

from __future__ import annotations

from types import ModuleType
from typing import Final, Mapping

from domain.belote import schema as belote
from domain.cinch import schema as cinch
from domain.five_hundred import schema as five_hundred

SCHEMAS: Final[Mapping[str, ModuleType]] = {"belote": belote, "cinch": cinch, "five_hundred": five_hundred}
