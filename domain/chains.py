"""A match's hash chains: which chain shuffles which deal, and when the next one is published.

A chain holds a fixed number of seeds (`chain_length`, 1,000 by default), so a match that
plays more deals than that needs another chain. The next chain's tip is published as an
event (`chain_renewed`) while `RENEW_AHEAD` deals of the current chain are still to come, so
the seats have those deals' time to give fresh entropy for it: the deals of a chain use only
entropy given after its tip was published (docs/fair-deal.md, "Renewing the chain"). When a
deal needs a chain that was never published (a match older than renewals), it is published
with that deal, which then has no entropy the server could have known.
"""

from __future__ import annotations

from typing import Any, Final, Mapping

import msgspec

RENEW_AHEAD: Final = 10


class Chain(msgspec.Struct, frozen=True):
    chain: int                     # 1 for the match_created commitment, then 2, 3, ...
    tip: str
    chain_length: int
    first_deal: int                # 0-based index of the deal its element 1 shuffles

    @property
    def last_deal(self) -> int:
        return self.first_deal + self.chain_length - 1

    def element(self, deal: int) -> int:
        """The chain index (1..chain_length) of deal `deal`'s seed."""
        return deal - self.first_deal + 1


def chain_for(chains: tuple[Chain, ...], deal: int) -> Chain | None:
    """The chain whose seeds cover deal `deal` (0-based); None when none does yet."""
    for chain in chains:
        if chain.first_deal <= deal <= chain.last_deal:
            return chain
    return None


def renewal_due(chains: tuple[Chain, ...], deal: int, options: Mapping[str, Any]) -> bool:
    """Whether dealing deal `deal` must first publish the next chain: when no chain covers the
    deal, or the last chain does and fewer than RENEW_AHEAD of its deals follow this one —
    unless the match's `deals` option ends it within that chain. So one chain at most is
    published ahead of the one in use."""
    if not chains:
        return False
    covering = chain_for(chains, deal)
    if covering is None:
        return True
    if covering.chain != chains[-1].chain:
        return False
    planned = options.get("deals")
    if isinstance(planned, int) and not isinstance(planned, bool) and planned - 1 <= covering.last_deal:
        return False
    return covering.last_deal - deal < RENEW_AHEAD


def next_chain(chains: tuple[Chain, ...]) -> tuple[int, int]:
    """(number, first deal) of the chain to publish next."""
    return chains[-1].chain + 1, chains[-1].last_deal + 1


def as_record(chains: tuple[Chain, ...]) -> dict[str, Any]:
    """What a match record carries of its chains: the first chain's `tip` and `chain_length`,
    and each renewal (`chain`, `tip`, `chain_length`, `first_deal`) in order."""
    if not chains:
        return {}
    first, *renewals = chains
    return {"tip": first.tip, "chain_length": first.chain_length,
            "renewals": [{"chain": c.chain, "tip": c.tip, "chain_length": c.chain_length,
                          "first_deal": c.first_deal} for c in renewals]}
