"""Five Hundred `basic`: the view a bot reads (the suit named for a Joker led in no-trumps)
and its bidding rules, each a given view and the decision it must give."""

from __future__ import annotations

import random

import msgspec

from domain.bots import five_hundred as bot
from domain.bots import policy_for
from domain.cards import Seat
from domain.five_hundred import GAME
from domain.five_hundred.bids import find
from domain.five_hundred.commands import Play
from domain.five_hundred.options import Options
from domain.five_hundred.state import PLAY, Deal, State, make_contract
from domain.tricks import Trick

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W

JOKER_LEAD = (
    ("AS", "5C", "AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C"),   # N
    ("JK", "5H", "6H", "AD", "8S", "9S", "TS", "JS", "QS", "KS"),   # E, the 7NT contractor
    ("4H", "KD", "QD", "JD", "TD", "9D", "8D", "7D", "6D", "5D"),   # S
    ("KH", "QH", "JH", "TH", "9H", "6S", "7S", "6C", "4D", "5S"),   # W
)


def joker_led(suit: str) -> State:
    """E holds 7NT and leads the Joker naming `suit`; S is next to play."""
    deal = Deal(dealer=N, hands=JOKER_LEAD, turn=E, contract=make_contract(E, find(7, "NT", None)), high=find(7, "NT", None), trick=Trick(leader=E))
    state = State(options=Options(), phase=PLAY, deals_played=1, deal=deal)
    state, _ = GAME.apply(state, Play(E, "JK", suit))
    return state


def test_the_view_names_the_suit_a_joker_lead_called_for() -> None:
    state = joker_led("H")
    for seat in (N, E, S, W, None):
        trick = GAME.view(state, seat).trick
        assert trick["cards"] == ["JK"] and trick["leader"] == "E" and trick["led"] == "H"
    view = GAME.view(state, S)
    assert view.legal == [{"action": "play", "card": "4H"}]


def test_a_bot_reads_the_named_suit_of_a_joker_lead() -> None:
    state = joker_led("H")
    view = GAME.view(state, S)
    world = bot.determinize(view, random.Random(1))
    assert world.deal.trick.led == "H"                   # not guessed from the cards that followed
    assert {a["card"] for a in GAME.legal_actions(world, S)} == {"4H"}
    assert policy_for("five_hundred", "basic")(view, random.Random(1)) == {"seat": "S", "action": "play", "card": "4H"}
    after, _ = GAME.apply(state, Play(S, "4H"))
    view = GAME.view(after, W)
    assert bot.determinize(view, random.Random(2)).deal.trick.led == "H"
    assert policy_for("five_hundred", "basic")(view, random.Random(1))["card"] in {"KH", "QH", "JH", "TH", "9H"}


# --- bidding ------------------------------------------------------------------------------------

BID = policy_for("five_hundred", "basic")
REPRO_E = ("AS", "AD", "AC", "KH", "JD", "7H", "8H", "5S", "6C", "7D")
REPRO_W = ("JH", "QH", "TH", "9H", "6S", "7S", "8C", "9C", "5D", "6D")
REPRO_N = ("QC", "KS", "5C", "AH", "JC", "JK", "8D", "TD", "8S", "5H")
REPRO_S = ("9S", "KC", "9D", "4H", "4D", "7C", "QD", "KD", "JS", "6H")
REPRO_KITTY = ("TS", "TC", "QS")
"""The earlier `basic` bid E 6♥, W 7♥, E 8♥, W 9♥, E 10♥ on these hands."""


def auction(hands: dict[Seat, tuple[str, ...]], calls: list[dict], dealer: Seat = N) -> State:
    """An auction (E speaks first when N deals) with the given hands, the rest of the pack
    shared among the other seats and the kitty, after `calls`."""
    from domain.cards import DECK_43
    rest = [c for c in DECK_43 if not any(c in h for h in hands.values())]
    full = []
    for seat in (N, E, S, W):
        if seat in hands:
            full.append(hands[seat])
        else:
            full.append(tuple(rest[:10]))
            rest = rest[10:]
    deal = Deal(dealer=dealer, hands=tuple(full), kitty=tuple(rest[:3]), turn=SEATS_AFTER[dealer])
    state = State(options=Options(), phase="auction", deals_played=1, deal=deal)
    for call in calls:
        state, _ = GAME.apply(state, GAME.parse_action(call))
    return state


SEATS_AFTER = {N: E, E: S, S: W, W: N}


def bid(seat: Seat, tricks=None, suit=None, contract=None) -> dict:
    if contract:
        return {"seat": str(seat), "action": "bid", "contract": contract}
    return {"seat": str(seat), "action": "bid", "tricks": tricks, "suit": suit}


def pass_(seat: Seat) -> dict:
    return {"seat": str(seat), "action": "pass"}


def decide(state: State, seat: Seat) -> dict:
    return BID(GAME.view(state, seat), random.Random(0))


def test_the_hearts_war_now_stops() -> None:
    hands = {N: REPRO_N, E: REPRO_E, S: REPRO_S, W: REPRO_W}
    deal = Deal(dealer=N, hands=(REPRO_N, REPRO_E, REPRO_S, REPRO_W), kitty=REPRO_KITTY, turn=E)
    state = State(options=Options(), phase="auction", deals_played=1, deal=deal)
    calls = []
    while state.phase == "auction":
        action = decide(state, state.deal.turn)
        calls.append(action)
        state, _ = GAME.apply(state, GAME.parse_action(action))
    bids = [c for c in calls if c["action"] == "bid"]
    assert bids[0] == bid(E, 6, "H") and all(c.get("tricks", 0) < 10 for c in bids)
    partner = {N: S, S: N, E: W, W: E}
    for side in ((N, S), (E, W)):
        assert sum(1 for before, after in zip(bids, bids[1:])
                   if Seat(after["seat"]) in side and Seat(before["seat"]) == partner[Seat(after["seat"])]) <= 1
    # and had W raised, E has shown his hand already: he stops
    state = auction(hands, [bid(E, 6, "H"), pass_(S), bid(W, 7, "H"), pass_(N)])
    assert decide(state, E) == pass_(E)


def test_an_opening_bids_the_hands_whole_value() -> None:
    strong = ("JK", "JH", "JD", "AH", "KH", "9H", "AS", "KS", "5C", "6D")
    tricks = int(bot.five_hundred_auction.own_tricks(strong, "H") - 0.5)
    assert tricks >= 8
    assert decide(auction({E: strong}, []), E) == bid(E, tricks, "H")
    weak = ("5S", "6S", "7C", "8C", "5D", "6D", "7H", "8H", "9S", "TC")
    assert decide(auction({E: weak}, []), E) == pass_(E)


def test_a_partner_is_raised_with_real_support_once() -> None:
    support = ("JK", "JD", "AH", "AS", "AC", "6S", "7C", "8C", "5D", "9S")   # the Joker, the left bower, three aces
    state = auction({W: support}, [bid(E, 6, "H"), pass_(S)])
    action = decide(state, W)
    assert action["action"] == "bid" and action["suit"] == "H" and action["tricks"] >= 7
    none = ("9S", "TS", "QC", "JC", "9D", "TD", "QD", "8S", "TC", "8D")     # no heart, no ace
    assert bot.five_hundred_auction.support_tricks(none, "H") < 1
    assert decide(auction({W: none}, [bid(E, 6, "H"), pass_(S)]), W) == pass_(W)


def test_no_trumps_when_it_is_worth_more() -> None:
    balanced = ("JK", "AS", "KS", "AC", "KC", "AD", "KD", "AH", "6H", "7D")
    action = decide(auction({E: balanced}, []), E)
    assert action["action"] == "bid" and action["suit"] == "NT"


LOW = ("4H", "5H", "4D", "6D", "5S", "7S", "5C", "6C", "8C", "7H")             # nothing the defence can get under


def test_misere_over_a_seven_bid_and_open_misere_at_any_time() -> None:
    assert bot.five_hundred_auction.misere_exposure(LOW) == (0, 0)
    assert decide(auction({E: LOW}, []), E) == bid(E, contract="open_misere")
    middling = ("4H", "5H", "4D", "8D", "5S", "9S", "5C", "7C", "6C", "6H")  # two cards the defence may get under
    assert bot.five_hundred_auction.misere_exposure(middling) == (2, 2)
    assert decide(auction({E: middling}, []), E) == pass_(E)                  # not open misère
    state = auction({W: middling}, [pass_(E), bid(S, 7, "S")])
    assert decide(state, W) == bid(W, contract="misere")
    strong = ("JK", "JH", "JD", "AH", "KH", "9H", "AS", "KS", "5C", "6D")
    assert decide(auction({W: strong}, [pass_(E), bid(S, 7, "S")]), W)["suit"] == "H"


def test_misere_defenders_play_under_the_contractor() -> None:
    contract = make_contract(E, find(None, None, "misere"))
    hands = (("9H", "5H", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S"), ("8H",) + LOW[2:] + ("5D",),
             (), ("TH", "4H", "KC", "QC", "JC", "TC", "9C", "7C", "AD", "KD"))
    deal = Deal(dealer=N, hands=hands, turn=W, contract=contract, high=contract.bid, trick=Trick(leader=E, plays=((E, "8H"),), led="H"))
    state = State(options=Options(), phase=PLAY, deals_played=1, deal=deal)
    assert decide(state, W)["card"] == "4H"                                    # under the contractor's 8
    state = msgspec.structs.replace(state, deal=msgspec.structs.replace(state.deal, turn=N, trick=Trick(leader=E, plays=((E, "8H"), (W, "4H")), led="H")))
    assert decide(state, N)["card"] == "5H"                                    # still under it
