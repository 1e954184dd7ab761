"""`atout admin create NAME`: register an admin and print its bearer token;
`atout admin grant PLAYER ROLE`: give a player (by id, or by a name only one player has) a role.

The first admin cannot come from the API (only an admin grants roles), so it comes from
whoever can reach the database. The token is printed once, alone on stdout, so that
`TOKEN=$(atout admin create root)` works; `--json` prints the player id too. Migrations
are applied first (idempotent), since this is often the first command on a new install.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

import msgspec

from domain import text as shown_text
from infra.players import ROLES
from infra.settings import SettingsError, load_settings
from infra.store.connection import database_url_for_cli


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("admin", help="administration: create an admin")
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)
    create = verbs.add_parser("create", help="register an admin player and print its token")
    create.add_argument("name", help="the admin's display name")
    create.add_argument("--database-url", help="Postgres URL (default: ATOUT_DATABASE_URL, else embedded)")
    create.add_argument("--json", action="store_true", help="print {player_id, token} as JSON")
    create.set_defaults(func=run_create)
    grant = verbs.add_parser("grant", help="give a player a role (player, organiser, admin)")
    grant.add_argument("player", help="the player's id, or a display name that exactly one player has")
    grant.add_argument("role", choices=ROLES)
    grant.add_argument("--database-url", help="Postgres URL (default: ATOUT_DATABASE_URL, else embedded)")
    grant.set_defaults(func=run_grant)


async def _create(url: str, name: str) -> tuple[str, str]:
    from services.bootstrap import open_runtime

    settings = msgspec.structs.replace(load_settings(), database_url=url, redis_url=None)
    async with open_runtime(settings, apply_migrations=True, pool_size=2) as runtime:
        return await runtime.players.register(name, role="admin")


def run_create(args: argparse.Namespace) -> int:
    name = args.name.strip()
    if not name or len(name) > 64:
        print("atout admin create: NAME must be 1 to 64 characters", file=sys.stderr)
        return 2
    if (why := shown_text.refusal(name)) is not None:      # the rule of every name others are shown
        print(f"atout admin create: NAME {why[1]} ({why[0]})", file=sys.stderr)
        return 2
    try:
        with database_url_for_cli(args.database_url) as url:
            player_id, token = asyncio.run(_create(url, name))
    except SettingsError as error:
        print(f"atout admin create: {error}", file=sys.stderr)
        return 2
    except (OSError, RuntimeError) as error:
        print(f"atout admin create: {error}", file=sys.stderr)
        return 2
    print(json.dumps({"player_id": player_id, "token": token}) if args.json else token)
    return 0


async def _grant(url: str, who: str, role: str) -> tuple[list[str], bool]:
    from services.bootstrap import open_runtime

    settings = msgspec.structs.replace(load_settings(), database_url=url, redis_url=None)
    async with open_runtime(settings, pool_size=2) as runtime:
        found = await runtime.players.named(who)
        return found, len(found) == 1 and await runtime.players.set_role(found[0], role)


def run_grant(args: argparse.Namespace) -> int:
    try:
        with database_url_for_cli(args.database_url) as url:
            found, done = asyncio.run(_grant(url, args.player, args.role))
    except SettingsError as error:
        print(f"atout admin grant: {error}", file=sys.stderr)
        return 2
    except (OSError, RuntimeError) as error:
        print(f"atout admin grant: {error}", file=sys.stderr)
        return 2
    if not found:
        print(f"atout admin grant: no player has the id or the name {args.player!r}", file=sys.stderr)
        return 1
    if len(found) > 1:
        print(f"atout admin grant: {len(found)} players are called {args.player!r}; name one by id:", file=sys.stderr)
        for player_id in found:
            print(player_id, file=sys.stderr)
        return 1
    print(json.dumps({"player_id": found[0], "role": args.role, "granted": done}))
    return 0 if done else 1
