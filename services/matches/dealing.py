"""The fair dealing of a match's deals (docs/fair-deal.md): the chains' secrets kept in the
vault, a deal's seed revealed when the deal ends, the next deal shuffled from its chain
element, the context and the players' entropy.

The game service (`services.matches.service`) calls it inside a handler, between deciding and
appending: what it draws or reads from the vault decides the events, and the vault keeps
the first secret kept for a chain, so two racing appends publish one tip.
"""

from __future__ import annotations

import secrets
from typing import Any

from domain import fair
from domain import match as rules
from domain.cards import Seat
from domain.game import StartDeal
from infra.vault import MatchVault


def latest_chain(state: rules.MatchState) -> int:
    """The newest chain whose tip is published: entropy given now is given under it."""
    return state.chains[-1].chain if state.chains else 1


class Dealing:
    """The vault's side of dealing, for chains of `chain_length` elements."""

    def __init__(self, vault: MatchVault, chain_length: int) -> None:
        self.vault = vault
        self.chain_length = chain_length

    async def follow_up(self, state: rules.MatchState, events: list[Any]) -> tuple[list[Any], rules.MatchState]:
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
            seed = (await self.seed(state, state.deal_index)).hex()
        more = rules.finish_deal(state, seed)
        for event in more:
            state = rules.evolve(state, event)
        status = state.game.status(state.game_state)
        if status.phase == "awaiting_deal":
            renewed, state = await self.renew(state, state.deal_index + 1)
            dealt = rules.decide(state, await self.next_deal(state, status.next_dealer))
            for event in dealt:
                state = rules.evolve(state, event)
            more += renewed + dealt
        return more, state

    async def renew(self, state: rules.MatchState, deal: int) -> tuple[list[Any], rules.MatchState]:
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

    async def seed(self, state: rules.MatchState, deal: int) -> bytes:
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
        seed = await self.seed(state, k - 1)
        context = fair.match_context(state.match_id, k)
        entropy = await self.vault.entropy(state.match_id, chain.chain if chain else 1)
        deck = fair.shuffle_deck(len(state.game.deck), seed, context, entropy)
        commitment = fair.sha256(seed).hex()
        return StartDeal(dealer=dealer or state.game.status(state.game_state).next_dealer or Seat.N,
                         deck=tuple(deck),
                         fair={"context": context, "entropy": entropy, "commitment": commitment})
