"""The examples the OpenAPI document shows for `/v1/tournaments` (kept apart from the routes so
those stay readable). Values are shaped exactly as the routes answer them."""

from __future__ import annotations

from typing import Any

from litestar.openapi.datastructures import ResponseSpec

from services.http.schemas import ERRORS, PLAYER_ID, ErrorOut, ex

TOURNAMENT_ID = "7d4f4f5e-2b0a-4c53-9a59-3f0e5c6b1a20"
MATCH_ID = "0b5f9ff8-f249-434d-9b87-f7f0b3b46c28"
ENTRY_A, ENTRY_B = "1c9e0a52-6f0e-4c41-8a2e-61c8f1d5b7aa", "5a3d2b70-9e1c-4d4f-b6a1-0f2e8c7d9b11"

CREATE_EXAMPLES = [
    ex("a Swiss of one-deal Belote boards, at 8 pm", {
        "name": "Friday Swiss", "game": "belote", "format": "swiss", "rounds": 3,
        "options": {"variant": "classic", "deals": 4}, "schedule": "2026-12-04T20:00:00Z",
        "bots": {"level": "basic"}, "no_show_grace": 600}),
    ex("duplicate Coinche", {"name": "Duplicate night", "game": "belote", "format": "duplicate", "rounds": 5,
                             "options": {"variant": "coinche", "deals": 2}}),
    ex("teams of four, a Swiss", {"name": "Teams Swiss", "game": "belote", "format": "teams", "rounds": 4,
                                  "options": {"variant": "coinche", "deals": 4}}),
    ex("a Butler pairs event", {"name": "Butler pairs", "game": "belote", "format": "duplicate", "rounds": 3,
                                "options": {"variant": "coinche", "deals": 3}, "scoring": "butler"}),
    ex("robot duplicate for a day", {"name": "Daily Coinche", "game": "belote", "format": "robot",
                                     "options": {"variant": "coinche", "deals": 8}, "bots": {"level": "basic"},
                                     "scoring": "neuberg", "closes_at": "2026-12-05T00:00:00Z"}),
]

VIEW = {
    "tournament_id": TOURNAMENT_ID, "name": "Friday Swiss", "organiser": PLAYER_ID, "game": "belote",
    "options": {"variant": "classic", "deals": 4}, "format": "swiss", "status": "running", "scoring": None,
    "closes_at": None,
    "closed_reason": None, "schedule": "2026-12-04T20:00:00Z", "bots": {"level": "basic"}, "no_show_grace": 600,
    "rounds_planned": 3,
    "individual": False, "commitment": "4be1…", "board_count": 12, "boards": "shuffle", "board_digests": [],
    "entries": [{"entry_id": ENTRY_A, "players": [PLAYER_ID, "bot:basic"], "name": "Ada & bot", "withdrawn": False},
                {"entry_id": ENTRY_B, "players": ["bot:random", "bot:random"], "name": "House", "withdrawn": False}],
    "rounds": [{"round": 1, "closed": False, "boards": [1, 2, 3, 4], "byes": [], "manual": False,
                "tables": [{"table": 1, "room": None, "ns": ENTRY_A, "ew": ENTRY_B, "seats": None, "match_id": MATCH_ID,
                            "result": None}],
                "seeds": {}}],
    "version": 9,
}

ENTRY_EXAMPLES = [ex("a partnership", {"players": [PLAYER_ID, "3e1f…"], "name": "Ada & Bob"}),
                  ex("one player, partnered by the bot policy", {"players": [PLAYER_ID]}),
                  ex("house bots (the organiser)", {"players": ["bot:expert", "bot:expert"], "name": "House"}),
                  ex("a team of four with a bot pair", {"players": [PLAYER_ID, "3e1f…", "bot:expert", "bot:expert"],
                                                        "name": "Ada, Bob and the bots"})]

PAIRING_EXAMPLES = [ex("round 2 by hand", {"round": 2, "tables": [[ENTRY_A, ENTRY_B]], "byes": []})]

RESULTS = [{"round": 1, "table": 1, "ns": ENTRY_A, "ew": ENTRY_B, "seats": None, "score": {"NS": 412, "EW": 236},
            "boards": {"1": {"NS": 162, "EW": 0}, "2": {"NS": 90, "EW": 72}}, "forfeit": None}]

LINE = {"place": 1, "entry": ENTRY_A, "points": 2, "tiebreak": 0, "diff": 176, "played": 1, "wins": 1, "byes": 0,
        "bots": True}
STANDINGS = {"tournament_id": TOURNAMENT_ID, "format": "swiss", "status": "running", "overall": [LINE],
             "by_round": {"1": [LINE]}, "scoring": None, "tie_breaks": ["points", "buchholz", "diff"]}

LIVE = ('{"type":"snapshot","version":9,"tournament":{…},"standings":{…}}\n'
        '{"type":"event","version":10,"event":{"type":"result_recorded","round":1,"table":1,"hidden":true}}\n')

UNKNOWN = ex("unknown tournament", {"code": "unknown_tournament", "message": f"no tournament '{TOURNAMENT_ID}'",
                                    "details": {"tournament_id": TOURNAMENT_ID}})
REFUSED = ex("a rule refuses it", {"code": "bad_pairing", "message": "entries left out: " + ENTRY_B,
                                   "details": {}})
CONFLICT = ex("already started", {"code": "already_started", "message": "the tournament has started",
                                  "details": {}})


def answers(status: int, container: Any, examples: list, description: str, *errors: int,
            media_type: str = "application/json") -> dict[int, ResponseSpec]:
    """The success response with its examples, and the errors a tournament route answers (a
    bare `list` is a list of objects, as in `schemas.responses`)."""
    container = list[dict[str, Any]] if container is list else container
    out = {status: ResponseSpec(data_container=container, description=description, examples=examples,
                                generate_examples=False, media_type=media_type)}
    own = {404: ("No such tournament", [UNKNOWN]), 409: ("A conflict with the tournament's state", [CONFLICT]),
           422: ("The tournament's rules refuse it; `code` says which", [REFUSED])}
    for code in errors:
        text, error_examples = own.get(code) or ERRORS[code]
        out[code] = ResponseSpec(data_container=ErrorOut, description=text, examples=error_examples,
                                 generate_examples=False)
    return out
