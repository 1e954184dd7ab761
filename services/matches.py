"""The game service: one small handler per command — load, decide, append.

Every handler loads the match (from an in-process cache brought up to date with the
events appended since, so a cache hit costs one indexed read), asks the pure rules in
`domain.match` to decide, appends the events with the expected version and the command's
id in one short transaction, and answers with the new version and the events. Nothing is
awaited inside the append's transaction: publishing happens in the store's after-commit hook.
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, Mapping

import msgspec

from domain import fair
from domain import match as rules
from domain.cards import SEATS, Seat
from domain.game import RuleViolation, StartDeal
from domain.games import load
from infra.lru import Lru
from infra.match_registry import registry_for
from infra.streams import match_stream
from infra.store import AppendResult, ConcurrencyError, PostgresEventStore
from infra.vault import Vault


class UnknownMatch(LookupError):
    def __init__(self, match_id: str) -> None:
        super().__init__(f"no match {match_id!r}")
        self.match_id = match_id


class Outcome(msgspec.Struct, frozen=True):
    """What a command produced: the stream version after it and its events with versions.
    `replayed` marks the first answer given again to a retried command."""

    match_id: str
    version: int
    events: list[tuple[int, Any]]
    replayed: bool = False


def stream_of(match_id: str) -> str:
    return match_stream(match_id)


def _fingerprint(kind: str, body: Any) -> bytes:
    return hashlib.sha256(kind.encode() + b"\0" + msgspec.json.encode(body)).digest()


class MatchService:
    def __init__(self, store: PostgresEventStore, vault: Vault, *, chain_length: int = fair.DEFAULT_CHAIN_LENGTH,
                 cache_size: int = 10_000, rng: secrets.SystemRandom | None = None,
                 on_stuck: Callable[[MatchService, str, int, Exception], Awaitable[bool]] | None = None) -> None:
        self.store, self.vault = store, vault
        self.on_stuck = on_stuck
        self.chain_length = chain_length
        self.rng = rng or secrets.SystemRandom()
        self._cache: Lru[str, rules.MatchState] = Lru(cache_size)

    # --- loading --------------------------------------------------------------------------

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
        None when the cache is not exactly one append behind (then `load`)."""
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
        holders = {seat: _holder(seat, spec, player_id) for seat, spec in seats.items()}
        rules.create(match_id, game, options, holders, None, self.chain_length,  # validate before keeping
                     predefined_deals=len(predefined or ()), sealed=sealed, rated=rated, private=private)
        # Two racing retries of one command share the match id: whichever secret the vault
        # kept first is the one both commit to, so the published commitment always fits it.
        kept = await self.vault.keep(match_id, secrets.token_bytes(fair.SEED_BYTES), self.chain_length, predefined)
        commitment = fair.make_chain_tip(kept.secret, kept.chain_length).hex()
        events = rules.create(match_id, game, options, holders, commitment, kept.chain_length,
                              predefined_deals=len(predefined or ()), created_by=player_id, sealed=sealed, rated=rated,
                              private=private)
        body = {"game": game, "options": dict(options), "seats": dict(seats), "player": player_id,
                "predefined": predefined, "sealed": sealed, **({"rated": True} if rated else {}),
                **({"private": True} if private else {})}
        outcome = await self._append(match_id, rules.initial(), 0, events, command_id,
                                     _fingerprint("create", body))
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
                                     _fingerprint("take", [match_id, seat, player_id, bot_level]))
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
                                     _fingerprint("leave", [match_id, seat, player_id]))
        if not outcome.replayed:
            await self.vault.forget_entropy(match_id, str(seat))
        return outcome

    async def start(self, match_id: str, *, command_id: uuid.UUID | None = None) -> Outcome:
        """Start a fully seated match: the first dealer is drawn here (randomness stays out of
        the domain) and the first deal is dealt from the verifiable shuffle."""
        state = await self.load(match_id)
        renewed, after = await self._renew(state, 0)
        first = await self.next_deal(after, self.rng.choice(SEATS))
        events = renewed + rules.decide(after, rules.StartMatch(first_dealer=first.dealer, first_deal=first))
        return await self._append(match_id, state, state.version, events, command_id,
                                  _fingerprint("start", [match_id]))

    async def command(self, match_id: str, command: Any, *, kind: str, command_id: uuid.UUID,
                      expected_version: int | None = None) -> Outcome:
        """Any other command of the match layer (suspend, resume, void, an admin's abandon):
        load, decide, append; a retried command id gets its first answer."""
        state = await self.load(match_id)
        fingerprint = _fingerprint(kind, [match_id, msgspec.to_builtins(command), expected_version])
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
        a stale expected version a ConcurrencyError; an illegal action the rules' violation."""
        state = await self.load(match_id)
        fingerprint = _fingerprint("act", [match_id, dict(action), player_id, expected_version, by])
        try:
            if expected_version is not None and expected_version != state.version:
                raise ConcurrencyError(stream_of(match_id), expected_version, state.version)
            events = rules.decide(state, rules.Act(action=dict(action), player_id=player_id, by=by))
        except (ConcurrencyError, RuleViolation):
            first = await self._first_answer(match_id, command_id, fingerprint)
            if first is not None:
                return first
            raise
        try:
            more, after = await self._follow_up(state, events)
        except Exception as error:
            # What follows the action (the seed revealed, the next deal) is the server's work:
            # when it cannot be done no action can end this deal, so `on_stuck` (the composition
            # root's: services.suspensions.on_stuck) suspends the match, and the caller is told.
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
                                  _fingerprint("abandon", [match_id, expected_version]))

    # --- the steps a handler shares -----------------------------------------------------------

    async def _follow_up(self, state: rules.MatchState, events: list[Any]) -> tuple[list[Any], rules.MatchState]:
        """When an action ends a deal: reveal its seed and record it, then deal the next one
        (unless the match is over). Returns those events and the state after all of them, so
        the action's events are folded once on the hot path."""
        before = state.game.status(state.game_state).phase
        for event in events:
            state = rules.evolve(state, event)
        if before != "in_deal" or state.game.status(state.game_state).phase == "in_deal":
            return [], state
        seed = None
        if state.deal_index >= state.predefined_deals and state.replay_of is None:
            seed = (await self._seed(state, state.deal_index)).hex()
        more = rules.finish_deal(state, seed)
        for event in more:
            state = rules.evolve(state, event)
        status = state.game.status(state.game_state)
        if status.phase == "awaiting_deal":
            renewed, state = await self._renew(state, state.deal_index + 1)
            dealt = rules.decide(state, await self.next_deal(state, status.next_dealer))
            for event in dealt:
                state = rules.evolve(state, event)
            more += renewed + dealt
        return more, state

    async def _renew(self, state: rules.MatchState, deal: int) -> tuple[list[Any], rules.MatchState]:
        """The `chain_renewed` events due before dealing deal `deal` (0-based), and the state
        after them: the next chain's secret is drawn and kept (the first kept wins, so racing
        appends publish one tip), and its tip published before any deal or entropy uses it."""
        events: list[Any] = []
        while rules.renewal_due(state.chains, deal, state.raw_options):
            number, _ = rules.next_chain(state.chains)
            kept = await self.vault.keep_chain(state.match_id, number, secrets.token_bytes(fair.SEED_BYTES),
                                               self.chain_length)
            tip = fair.make_chain_tip(kept.secret, kept.chain_length).hex()
            renewed = rules.decide(state, rules.RenewChain(tip=tip, chain_length=kept.chain_length))
            for event in renewed:
                state = rules.evolve(state, event)
            events += renewed
        return events, state

    async def _seed(self, state: rules.MatchState, deal: int) -> bytes:
        """The seed of deal `deal` (0-based): its element of the chain that covers it."""
        chain = rules.chain_for(state.chains, deal)
        if chain is None:
            raise fair.FairDealError(f"no published chain covers deal {deal} of match {state.match_id}")
        kept = await self.vault.chain_secret(state.match_id, chain.chain)
        return fair.chain_element(kept.secret, kept.chain_length, chain.element(deal))

    async def next_deal(self, state: rules.MatchState, dealer: Seat | None) -> StartDeal:
        """Deal number k (from 1) uses its chain's element for it (c_k in the first chain), or
        the k-th predefined deal; and only the entropy given under that chain."""
        k = state.deal_index + 2
        if state.predefined_deals and k <= state.predefined_deals:
            vault = await self.vault.secret(state.match_id)
            if vault.predefined and k <= len(vault.predefined):
                deal = vault.predefined[k - 1]
                return StartDeal(dealer=Seat(deal["dealer"]), deck=tuple(deal["deck"]), fair=None)
        chain = rules.chain_for(state.chains, k - 1)
        seed = await self._seed(state, k - 1)
        context = fair.match_context(state.match_id, k)
        entropy = await self.vault.entropy(state.match_id, chain.chain if chain else 1)
        deck = fair.shuffle_deck(len(state.game.deck), seed, context, entropy)
        commitment = fair.sha256(seed).hex()
        return StartDeal(dealer=dealer or state.game.status(state.game_state).next_dealer or Seat.N,
                         deck=tuple(deck),
                         fair={"context": context, "entropy": entropy, "commitment": commitment})

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
        result = await self.store.append(stream_of(match_id), expected, [registry.encode(e, meta) for e in events],
                                         command_id=command_id or uuid.uuid4(), request_hash=fingerprint)
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


def latest_chain(state: rules.MatchState) -> int:
    """The newest chain whose tip is published: entropy given now is given under it."""
    return state.chains[-1].chain if state.chains else 1


def check_entropy(entropy: Any) -> str:
    """The one limit on entropy (docs/fair-deal.md): a RuleViolation `bad_entropy` naming it."""
    try:
        return fair.check_entropy(entropy)
    except fair.FairDealError as error:
        raise RuleViolation("bad_entropy", str(error), {"field": "entropy"}) from None


def check_predefined(game_name: str, deals: list[Any]) -> list[dict[str, Any]]:
    """Predefined deals (an imported record's boards): each deck a permutation of the game's
    deck, each dealer the one the rotation gives after the previous deal."""
    from domain.cards import CardCodeError, check_deck, next_seat

    game = load(game_name)
    out: list[dict[str, Any]] = []
    for d, deal in enumerate(deals):
        try:
            dealer = Seat(deal["dealer"])
            deck = check_deck(deal["deck"], game.deck)
        except (KeyError, TypeError, ValueError, CardCodeError) as error:
            raise RuleViolation("bad_deck", f"deal {d}: {error}", {"deal": d}) from None
        if out and dealer != next_seat(Seat(out[-1]["dealer"]), game.direction):
            raise RuleViolation("wrong_dealer", f"deal {d}: the dealer must be the one the rotation gives",
                                {"deal": d})
        out.append({"dealer": str(dealer), "deck": deck})
    return out


def _holder(seat: str, spec: Any, player_id: str | None) -> rules.SeatHolder | None:
    """One seat of a creation request: "open", "me" or "bot:LEVEL" (details name the seat)."""
    if spec == "open":
        return None
    if spec == "me":
        if player_id is None:
            raise RuleViolation("bad_seats", "a seat 'me' needs a signed-in player", {"seat": seat})
        return rules.SeatHolder(kind="player", player_id=player_id)
    if isinstance(spec, str) and spec.startswith("bot:") and spec[4:] in ("random", "basic", "expert"):
        return rules.SeatHolder(kind="bot", level=spec[4:])
    raise RuleViolation("bad_seats", f"bad seat {spec!r}: use 'open', 'me' or 'bot:random|basic|expert'",
                        {"seat": seat})
