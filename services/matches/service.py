"""The game service: one small handler per command — load, decide, append.

Every handler loads the match (from an in-process cache brought up to date with the
events appended since, so a cache hit costs one indexed read; an action at the cached
version costs none, see `act`), asks the pure rules in
`domain.match` to decide, appends the events with the expected version and the command's
id in one short transaction, and answers with the new version and the events. Nothing is
awaited inside the append's transaction: publishing happens in the store's after-commit hook.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, Mapping

import msgspec

from domain import fair
from domain import match as rules
from domain.cards import SEATS, Seat
from domain.game import RuleViolation
from infra.lru import Lru
from infra.match_registry import registry_for
from infra.store import AppendResult, ConcurrencyError, EventStore
from infra.vault import MatchVault
from services.matches.dealing import Dealing, latest_chain
from services.matches.outcome import (
    Outcome,
    UnknownMatch,
    Unsure,
    command_fingerprint,
    stream_of,
)
from services.matches.requests import check_entropy, check_predefined, seat_holder


class MatchService:
    def __init__(self, store: EventStore, vault: MatchVault, *, chain_length: int = fair.DEFAULT_CHAIN_LENGTH,
                 cache_size: int = 10_000, rng: secrets.SystemRandom | None = None,
                 on_stuck: Callable[[MatchService, str, int, Exception], Awaitable[bool]] | None = None) -> None:
        self.store, self.vault = store, vault
        self.on_stuck = on_stuck
        self.chain_length = chain_length
        self.dealing = Dealing(vault, chain_length)
        self.rng = rng or secrets.SystemRandom()
        self._cache: Lru[str, rules.MatchState] = Lru(cache_size)
        self._folding: dict[str, tuple[bytes, rules.MatchState]] = {}   # appends in flight: see `advance_cache`

    # --- loading --------------------------------------------------------------------------

    async def find(self, match_id: str) -> rules.MatchState | None:
        """The match, or None where the store has none (a row naming a match it never had)."""
        try:
            return await self.load(match_id)
        except UnknownMatch:
            return None

    async def load(self, match_id: str) -> rules.MatchState:
        state = self._cache.get(match_id) or rules.initial()
        recorded = await self.store.read_stream(stream_of(match_id), state.version)
        if state.version == 0 and not recorded:
            raise UnknownMatch(match_id)
        for event in recorded:
            state = rules.evolve(state, registry_for(state.game_name or None).decode_recorded(event))
        self._remember(match_id, state)
        return state

    async def peek(self, match_id: str) -> rules.MatchState:
        """The cached state when there is one, else a load: for what does not change during
        play (the game, the seats), where a fresh read would be a wasted round trip."""
        return self._cache.get(match_id) or await self.load(match_id)

    def advance_cache(self, match_id: str, result: AppendResult) -> rules.MatchState | None:
        """Fold a just-committed append into the cached state, without reading the store;
        None when the cache is not exactly one append behind (then `load`). An append of this
        service's own, which folded its events before appending, hands over its state."""
        folded = self._folding.get(match_id)
        if folded is not None and not result.replayed and result.events and result.events[0].data is folded[0]:
            cached = self._cache.get(match_id)
            if cached is None or cached.version < folded[1].version:
                self._remember(match_id, folded[1])
            return folded[1]
        state = self._cache.get(match_id)
        if state is None or state.version != result.first_version - 1 or result.replayed:
            return None
        registry = registry_for(state.game_name or None)
        for event in result.events:
            state = rules.evolve(state, registry.decode_recorded(event))
        self._remember(match_id, state)
        return state

    def _remember(self, match_id: str, state: rules.MatchState) -> None:
        self._cache.put(match_id, state)

    async def events(self, match_id: str, after_version: int = 0) -> list[tuple[int, Any, Any]]:
        """(version, event, recorded) after `after_version`, decoded; for readers and replay."""
        state = await self.load(match_id)
        registry = registry_for(state.game_name)
        return [(r.stream_version, registry.decode_recorded(r), r)
                for r in await self.store.read_stream(stream_of(match_id), after_version)]

    # --- handlers -----------------------------------------------------------------------------

    async def create_match(self, game: str, options: Mapping[str, Any], seats: Mapping[str, str],
                           *, player_id: str | None = None, entropy: str | None = None,
                           predefined: list[dict[str, Any]] | None = None, sealed: bool = False,
                           rated: bool = False, private: bool = False,
                           tournament: rules.TournamentRound | None = None,
                           command_id: uuid.UUID | None = None) -> Outcome:
        """seats: {"N": "open" | "me" | "bot:LEVEL"}. The secret behind the commitment is kept
        in the vault before the match exists, so no deal can ever lack one."""
        match_id = str(uuid.uuid4()) if command_id is None else str(uuid.uuid5(command_id, "match"))
        if entropy is not None:
            check_entropy(entropy)
            if player_id is None or "me" not in seats.values():
                raise RuleViolation("bad_entropy", "entropy goes to the creator's seat: this request takes none "
                                    "(seat 'me')", {"field": "entropy"})
        if predefined:
            predefined = check_predefined(game, predefined)
        holders = {seat: seat_holder(seat, spec, player_id) for seat, spec in seats.items()}
        rules.create(match_id, game, options, holders, None, self.chain_length,  # validate before keeping
                     predefined_deals=len(predefined or ()), sealed=sealed, rated=rated, private=private)
        # Two racing retries of one command share the match id: whichever secret the vault
        # kept first is the one both commit to, so the published commitment always fits it.
        kept = await self.vault.keep(match_id, secrets.token_bytes(fair.SEED_BYTES), self.chain_length, predefined)
        commitment = fair.make_chain_tip(kept.secret, kept.chain_length).hex()
        events = rules.create(match_id, game, options, holders, commitment, kept.chain_length,
                              predefined_deals=len(predefined or ()), created_by=player_id, sealed=sealed, rated=rated,
                              private=private, tournament=tournament)
        body = {"game": game, "options": dict(options), "seats": dict(seats), "player": player_id,
                "predefined": predefined, "sealed": sealed, **({"rated": True} if rated else {}),
                **({"private": True} if private else {}),
                **({"tournament": msgspec.to_builtins(tournament)} if tournament else {})}
        outcome = await self._append(match_id, rules.initial(), 0, events, command_id,
                                     command_fingerprint("create", body))
        if entropy is not None and not outcome.replayed:
            for seat, holder in holders.items():
                if holder is not None and holder.player_id == player_id:
                    await self.vault.give_entropy(match_id, seat, entropy, chain=1)
        return outcome

    async def take_seat(self, match_id: str, seat: Seat, *, player_id: str | None, bot_level: str | None = None,
                        entropy: str | None = None, command_id: uuid.UUID | None = None) -> Outcome:
        if entropy is not None:
            check_entropy(entropy)
        state = await self.load(match_id)
        holder = rules.SeatHolder(kind="bot", level=bot_level) if bot_level else \
            rules.SeatHolder(kind="player", player_id=player_id)
        events = rules.decide(state, rules.TakeSeat(seat=seat, holder=holder))
        outcome = await self._append(match_id, state, state.version, events, command_id,
                                     command_fingerprint("take", [match_id, seat, player_id, bot_level]))
        # Only the seat's winner gives entropy, and before anyone can start the match: the
        # start is a later command. A lost race raised above and wrote nothing.
        if entropy is not None and not outcome.replayed:
            await self.vault.give_entropy(match_id, str(seat), entropy, chain=latest_chain(state))
        return outcome

    async def give_entropy(self, match_id: str, seat: Seat, *, player_id: str, entropy: str) -> int:
        """A seated player's (new) entropy, for the deals dealt from now on, under the newest
        published chain; returns that chain's number. Refused once the match is over."""
        check_entropy(entropy)
        state = await self.load(match_id)
        holder = state.seats.get(str(seat))
        if holder is None or holder.player_id != player_id:
            raise RuleViolation("not_your_seat", f"you do not hold seat {seat}", {"seat": str(seat)})
        if state.status not in ("open", "playing", "suspended"):
            raise RuleViolation("match_over", "the match is over: no deal will use entropy any more")
        chain = latest_chain(state)
        await self.vault.give_entropy(match_id, str(seat), entropy, chain=chain)
        return chain

    async def leave_seat(self, match_id: str, seat: Seat, *, player_id: str | None,
                         command_id: uuid.UUID | None = None) -> Outcome:
        state = await self.load(match_id)
        events = rules.decide(state, rules.LeaveSeat(seat=seat, player_id=player_id))
        outcome = await self._append(match_id, state, state.version, events, command_id,
                                     command_fingerprint("leave", [match_id, seat, player_id]))
        if not outcome.replayed:
            await self.vault.forget_entropy(match_id, str(seat))
        return outcome

    async def start(self, match_id: str, *, command_id: uuid.UUID | None = None) -> Outcome:
        """Start a fully seated match: the first dealer is drawn here (randomness stays out of
        the domain) and the first deal is dealt from the verifiable shuffle."""
        state = await self.load(match_id)
        renewed, after = await self.dealing.renew(state, 0)
        first = await self.dealing.next_deal(after, self.rng.choice(SEATS))
        events = renewed + rules.decide(after, rules.StartMatch(first_dealer=first.dealer, first_deal=first))
        return await self._append(match_id, state, state.version, events, command_id,
                                  command_fingerprint("start", [match_id]))

    async def command(self, match_id: str, command: Any, *, kind: str, command_id: uuid.UUID,
                      expected_version: int | None = None) -> Outcome:
        """Any other command of the match layer (suspend, resume, void, an admin's abandon):
        load, decide, append; a retried command id gets its first answer."""
        state = await self.load(match_id)
        fingerprint = command_fingerprint(kind, [match_id, msgspec.to_builtins(command), expected_version])
        try:
            if expected_version is not None and expected_version != state.version:
                raise ConcurrencyError(stream_of(match_id), expected_version, state.version)
            events = rules.decide(state, command)
        except (ConcurrencyError, RuleViolation):
            first = await self._first_answer(match_id, command_id, fingerprint)
            if first is not None:
                return first
            raise
        return await self._append(match_id, state, state.version, events, command_id, fingerprint)

    async def act(self, match_id: str, action: Mapping[str, Any], *, player_id: str | None,
                  expected_version: int | None = None, command_id: uuid.UUID | None = None,
                  by: str = "player") -> Outcome:
        """A decision of a seat. Order of answers: a retried command gets its first answer;
        a stale expected version a ConcurrencyError; an illegal action the rules' violation.

        When the cached state is at the caller's expected version the action is decided on it
        without reading the store: the append at that version succeeds only if nothing came
        after it, which proves the cache was the match, and a cache behind another process's
        append is refused there. Any refusal on the cached state (stale, a rule, a follow-up
        that failed) is decided again on a fresh load, so every answer is the fresh one's."""
        fingerprint = command_fingerprint("act", [match_id, dict(action), player_id, expected_version, by])
        cached = self._cache.get(match_id)
        if cached is not None and expected_version is not None and cached.version == expected_version:
            try:
                return await self._act(match_id, cached, action, player_id, expected_version, command_id, by,
                                       fingerprint, fresh=False)
            except (ConcurrencyError, RuleViolation, Unsure):
                pass
        return await self._act(match_id, await self.load(match_id), action, player_id, expected_version, command_id,
                               by, fingerprint, fresh=True)

    async def _act(self, match_id: str, state: rules.MatchState, action: Mapping[str, Any], player_id: str | None,
                   expected_version: int | None, command_id: uuid.UUID | None, by: str, fingerprint: bytes,
                   *, fresh: bool) -> Outcome:
        try:
            if expected_version is not None and expected_version != state.version:
                raise ConcurrencyError(stream_of(match_id), expected_version, state.version)
            events = rules.decide(state, rules.Act(action=dict(action), player_id=player_id, by=by))
        except (ConcurrencyError, RuleViolation):
            if not fresh:
                raise
            first = await self._first_answer(match_id, command_id, fingerprint)
            if first is not None:
                return first
            raise
        try:
            more, after = await self.dealing.follow_up(state, events)
        except Exception as error:
            if not fresh:
                raise Unsure() from error
            # What follows the action (the seed revealed, the next deal) is the server's work:
            # when it cannot be done no action can end this deal, so `on_stuck` (the composition
            # root's: services.matches.suspensions.on_stuck) suspends the match, and the caller is told.
            if self.on_stuck is None or not await self.on_stuck(self, match_id, state.version, error):
                raise
            suspended = await self.load(match_id)
            raise RuleViolation("match_suspended", "the match is suspended until an admin resumes it",
                                {"reason": (suspended.suspension or {}).get("reason")}) from None
        return await self._append(match_id, state, state.version, events + more, command_id, fingerprint, after)

    async def abandon(self, match_id: str, *, expected_version: int, idle_seconds: float) -> Outcome:
        """The sweeper's: the match nobody acted in since `expected_version` is abandoned
        (a ConcurrencyError when somebody did meanwhile)."""
        state = await self.load(match_id)
        if expected_version != state.version:
            raise ConcurrencyError(stream_of(match_id), expected_version, state.version)
        events = rules.decide(state, rules.Abandon(idle_seconds=idle_seconds))
        return await self._append(match_id, state, state.version, events,
                                  uuid.uuid5(uuid.NAMESPACE_URL, f"atout:abandon:{match_id}/{expected_version}"),
                                  command_fingerprint("abandon", [match_id, expected_version]))

    # --- the steps a handler shares -----------------------------------------------------------

    async def _first_answer(self, match_id: str, command_id: uuid.UUID | None,
                            fingerprint: bytes) -> Outcome | None:
        if command_id is None:
            return None
        result = await self.store.command_result(stream_of(match_id), command_id, fingerprint)
        return None if result is None else self._outcome(match_id, result)

    async def _append(self, match_id: str, state: rules.MatchState, expected: int, events: list[Any],
                      command_id: uuid.UUID | None, fingerprint: bytes,
                      after: rules.MatchState | None = None) -> Outcome:
        """Append `events` decided on `state`; `after` is the state they lead to when the
        caller has already folded them."""
        game_name = state.game_name or (events[0].game if isinstance(events[0], rules.MatchCreated) else None)
        registry = registry_for(game_name)
        meta = {"command_id": str(command_id)} if command_id else None
        encoded = [registry.encode(e, meta) for e in events]
        if after is not None:   # for the after-commit hooks: this very append (its bytes) leads to `after`
            self._folding[match_id] = (encoded[0].data, after)
        try:
            result = await self.store.append(stream_of(match_id), expected, encoded,
                                             command_id=command_id or uuid.uuid4(), request_hash=fingerprint)
        finally:
            if after is not None and self._folding.get(match_id, (None,))[0] is encoded[0].data:
                del self._folding[match_id]
        if result.replayed:
            return self._outcome(match_id, result)
        cached = self._cache.get(match_id)
        if cached is None or cached.version != result.last_version:  # an after-commit hook may have advanced it
            if after is None:
                for event in events:
                    state = rules.evolve(state, event)
                after = state
            self._remember(match_id, after)
        return Outcome(match_id=match_id, version=result.last_version,
                       events=[(r.stream_version, e) for r, e in zip(result.events, events)])

    def _outcome(self, match_id: str, result: AppendResult) -> Outcome:
        cached = self._cache.get(match_id)
        registry = registry_for(cached.game_name if cached else None)
        return Outcome(match_id=match_id, version=result.last_version, replayed=result.replayed,
                       events=[(r.stream_version, registry.decode_recorded(r)) for r in result.events])
