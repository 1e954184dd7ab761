"""The tournament as a decider: initial / decide / evolve over the tournament stream.

Who may issue a command (the organiser for most) is checked by the service; the decider
checks the rules of the tournament itself. Nothing random happens here: the service brings
the board commitment and, when a round closes, the seeds it reveals.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.game import RuleViolation, verify
from domain.tournaments import elimination, forfeits, individual, pairing, robot, scoring, teams
from domain.tournaments.finish import closing, finish
from domain.tournaments.standing import lines
from domain.tournaments.events import (FORMATS, MAX_NO_SHOW_GRACE, NO_SHOW_GRACE, Cancel, CloseWindow, Create, Enter,
                                       EntryRegistered,
                                       EntryWithdrawn, Finish, Forfeit, OpenTable, PairingSubmitted, PairNext, Register,
                                       RecordResult, ResultRecorded, RoundClosed, RoundPaired, Start, SubmitPairing,
                                       Table, TableAdded, TableOpened, TournamentClosed, TournamentCreated,
                                       TournamentShortened, TournamentStarted, Withdraw)

MAX_ROUNDS = 50
SEEDINGS = ("registration", "rating")


class Round(msgspec.Struct, frozen=True):
    number: int
    tables: list[Table]
    byes: list[str]
    boards: list[int]
    manual: bool = False
    order: list[str] = []
    matches: dict[int, str] = {}
    opened: dict[int, str] = {}    # table -> when it opened (ISO 8601), for the no-show grace
    results: dict[int, ResultRecorded] = {}
    closed: bool = False
    seeds: dict[str, str] = {}


class State(msgspec.Struct, frozen=True):
    tournament_id: str = ""
    organiser: str = ""
    name: str = ""
    game: str = ""
    options: dict[str, Any] = {}
    format: str = ""
    rounds_wanted: int | None = None
    schedule: str | None = None
    bots: dict[str, Any] = {}
    no_show_grace: int = 0         # seconds; 0: no forfeits
    imported_boards: int = 0       # boards from a match record (0: the verifiable shuffle)
    individual: bool = False       # one player an entry, four entries a table
    rated: bool = False            # tables with four human seats are rated matches
    seeding: str = "registration"  # or "rating" (Swiss and elimination)
    scoring: str = "matchpoints"   # a duplicate's method (scoring.METHODS)
    closes_at: str | None = None   # robot duplicate: the window's end
    board_digests: list[str] = []
    status: str = "new"            # new, registering, running, closed
    closed_reason: str | None = None   # "completed", or why it closed without playing ("too_few_entries")
    entries: dict[str, list[str]] = {}
    names: dict[str, str] = {}
    withdrawn: list[str] = []
    rounds: int = 0
    shortened: bool = False        # its organiser made the round in play the last
    boards_per_round: int = 0
    board_count: int = 0
    commitment: str | None = None
    played: list[Round] = []
    manual: dict[int, PairingSubmitted] = {}
    version: int = 0

    @property
    def active(self) -> list[str]:
        return [e for e in self.entries if e not in self.withdrawn]

    @property
    def current(self) -> Round | None:
        return self.played[-1] if self.played else None

    @property
    def duplicate(self) -> bool:
        return self.format in ("duplicate", "robot")

    @property
    def teams(self) -> bool:
        return self.format == "teams"

    @property
    def robot(self) -> bool:
        return self.format == "robot"


def initial() -> State:
    return State()


def plan(state: State) -> tuple[int, int]:
    """(rounds, boards per round) the tournament will have if it starts now."""
    n = len(state.active)
    if state.format == "round_robin" or (state.teams and not state.rounds_wanted):
        rounds = n - 1 if n % 2 == 0 else n
    elif state.format == "elimination":
        rounds = pairing.elimination_rounds(n)
    elif state.robot:
        rounds = 1
    else:
        rounds = state.rounds_wanted or 1
    return rounds, int(state.options.get("deals") or 0)


def decide(state: State, command: Any) -> list[Any]:
    if isinstance(command, Create):
        verify(state.status == "new", "tournament_exists", "this tournament already exists")
        verify(command.format in FORMATS, "bad_format", f"format must be one of {', '.join(FORMATS)}")
        verify(command.rounds is None or 1 <= command.rounds <= MAX_ROUNDS, "bad_rounds",
               f"rounds must be 1..{MAX_ROUNDS}")
        if command.format == "robot":
            robot.check_create(command)
        verify(command.format not in ("duplicate", "teams") or bool(command.options.get("deals")), "bad_option",
               f"a {command.format} tournament needs the 'deals' option: each round is that many boards")
        verify(not command.individual or command.format != "teams", "bad_format",
               "teams of four are partnerships; this way of playing is every player for himself")
        verify(not command.individual or command.format == "swiss", "bad_format",
               "an individual tournament is a Swiss (the other formats pair partnerships)")
        verify(command.seeding in SEEDINGS, "bad_seeding", f"seeding must be one of {', '.join(SEEDINGS)}")
        verify(command.seeding == "registration" or command.format in ("swiss", "elimination"), "bad_seeding",
               "only a Swiss or an elimination seeds its entries by rating")
        verify(command.scoring in scoring.METHODS, "bad_scoring",
               f"scoring must be one of {', '.join(scoring.METHODS)}")
        verify(command.scoring == "matchpoints" or command.format in ("duplicate", "robot"), "bad_scoring",
               "only a duplicate tournament is scored by matchpoints or IMPs")
        grace = NO_SHOW_GRACE if command.no_show_grace is None else command.no_show_grace
        grace = 0 if command.format == "robot" else grace     # each entrant plays at his own pace
        verify(0 <= grace <= MAX_NO_SHOW_GRACE, "bad_option", f"no_show_grace must be 0..{MAX_NO_SHOW_GRACE} seconds")
        return [TournamentCreated(**{**msgspec.structs.asdict(command), "no_show_grace": grace,
                                     **({"rounds": 1} if command.format == "robot" else {})})]
    verify(state.status != "new", "unknown_tournament", "no such tournament")
    verify(state.status != "closed", "tournament_closed", "the tournament is closed")
    if isinstance(command, Enter):
        return robot.enter(state, command)
    if isinstance(command, Register):
        verify(not state.robot, "bad_entry", "a robot duplicate event is entered by its players themselves")
        verify(state.status == "registering", "registration_closed", "registration is closed")
        verify(command.entry_id not in state.entries, "entry_exists", "this entry is already registered")
        if state.teams:
            teams.check_entry(command.players)
        else:
            verify(1 <= len(command.players) <= (1 if state.individual else 2), "bad_entry",
                   "an entry is one player" if state.individual else "an entry is a partnership of two (or one with "
                                                                      "a bot)")
        taken = {p for e in state.active for p in state.entries[e] if not p.startswith("bot:")}
        clash = [p for p in command.players if p in taken]
        verify(not clash, "already_registered", "a player is already in another entry", players=clash)
        return [EntryRegistered(entry_id=command.entry_id, players=list(command.players), name=command.name)]
    if isinstance(command, Cancel):
        verify(state.status == "registering", "already_started", "the tournament has started")
        return [TournamentClosed(reason=command.reason)]
    if isinstance(command, Withdraw):
        verify(command.entry_id in state.active, "unknown_entry", "no such active entry")
        return [EntryWithdrawn(entry_id=command.entry_id)]
    if isinstance(command, Start):
        verify(state.status == "registering", "already_started", "the tournament has started")
        verify(state.robot or len(state.active) >= (4 if state.individual else 2), "too_few_entries",
               f"a tournament needs at least {4 if state.individual else 2} entries")
        rounds, boards = plan(state)
        verify(not boards or bool(command.commitment), "no_commitment", "boards need their commitment at the start")
        if state.imported_boards:
            verify(rounds * boards <= state.imported_boards, "not_enough_boards",
                   f"{rounds} rounds of {boards} boards need {rounds * boards}; the record has {state.imported_boards}",
                   needed=rounds * boards, given=state.imported_boards)
            verify(len(command.board_digests) == rounds * boards, "no_commitment", "each imported board needs its digest")
        return [TournamentStarted(rounds=rounds, boards_per_round=boards, board_count=rounds * boards,
                                  commitment=command.commitment, board_digests=list(command.board_digests),
                                  seeds=[e for e in command.seeds if e in state.active])]
    if isinstance(command, SubmitPairing):
        verify(state.format != "elimination" and not state.individual, "bad_pairing",
               "an elimination bracket (or an individual Swiss) is not paired by hand")
        verify(command.round == len(state.played) + 1 and (state.status == "registering" or command.round <= state.rounds),
               "bad_round", f"only the next round ({len(state.played) + 1}) can be paired", round=command.round)
        pairing.check_manual(command.tables, command.byes, state.active)
        return [PairingSubmitted(round=command.round, tables=[list(t) for t in command.tables],
                                 byes=list(command.byes))]
    if isinstance(command, Finish):
        verify(state.status != "registering", "not_started", "a tournament not started is cancelled, not finished")
        verify(state.status != "closed", "tournament_closed", "the tournament is closed")
        return finish(state)
    verify(state.status == "running", "not_running", "the tournament is not running")
    if isinstance(command, PairNext):
        return _pair_next(state, command.round)
    if isinstance(command, OpenTable):
        rnd = state.current
        verify(rnd is not None and rnd.number == command.round and any(t.table == command.table for t in rnd.tables),
               "unknown_table", "no such table in the current round")
        assert rnd is not None
        verify(command.table not in rnd.matches, "table_open", "this table already has its match")
        return [TableOpened(round=command.round, table=command.table, match_id=command.match_id,
                            opened_at=command.opened_at)]
    if isinstance(command, RecordResult):
        return _record(state, command)
    if isinstance(command, CloseWindow):
        return robot.close(state, command)
    if isinstance(command, Forfeit):
        return _close(state, forfeits.result(state, command), command.seeds)
    raise RuleViolation("bad_command", f"unknown command {type(command).__name__}")


def _pair_next(state: State, number: int) -> list[Any]:
    current = state.current
    verify(number == len(state.played) + 1, "bad_round", "that round is already paired", round=number)
    verify(current is None or current.closed, "round_open", "the current round has not closed")
    verify(number <= state.rounds, "no_more_rounds", "every round has been played")
    boards = list(range((number - 1) * state.boards_per_round + 1, number * state.boards_per_round + 1))
    submitted = state.manual.get(number)
    order: list[str] = []
    seated: list[Table] = []                 # an individual round's tables of four
    if state.robot:
        return robot.pair(boards)
    if submitted is not None:
        active = set(state.active)
        verify(all(e in active for t in submitted.tables for e in t) and set(submitted.byes) <= active,
               "bad_pairing", "the submitted pairing names a withdrawn entry: submit it again")
        pairs, byes = [(t[0], t[1]) for t in submitted.tables], list(submitted.byes)
    elif state.format == "elimination":
        pairs, byes, order = elimination.pairing(state, number)
    elif state.format in ("round_robin", "duplicate") or (state.teams and not state.rounds_wanted):
        schedule = pairing.berger_rounds(state.active)   # duplicate cycles the Berger rounds
        pairs, byes = schedule[(number - 1) % len(schedule)]
    elif state.format == "manual":
        raise RuleViolation("awaiting_pairing", f"round {number} waits for the organiser's pairing")
    else:
        ln = lines(state)
        had_bye = {b for rnd in state.played for b in rnd.byes}
        second = {e: (ln[e].diff if state.individual else ln[e].tiebreak) for e in ln}
        ranked = pairing.rank(state.active, {e: ln[e].points for e in ln}, second)
        if state.individual:                 # tables of four (domain/tournaments/individual.py)
            (seated, byes), pairs = individual.swiss(ranked, had_bye, number), []
        else:
            played = {frozenset((t.home, t.away)) for rnd in state.played for t in rnd.tables}
            pairs, byes = pairing.swiss_pairing(ranked, played, had_bye)
    tables = list(seated) if not state.teams else teams.tables(pairs)
    for i, (home, away) in enumerate([] if state.teams else pairs, 1):
        if state.duplicate and i % 2 == 0:
            home, away = away, home        # paired tables swap directions: the home side holds EW here
        tables.append(Table(table=i, home=home, away=away))
    events: list[Any] = [RoundPaired(round=number, tables=tables, byes=byes, boards=boards,
                                     manual=submitted is not None, order=order)]
    if not tables:  # only byes (one entry left): the round closes at once
        events.append(RoundClosed(round=number, seeds={}))
        if number >= state.rounds:
            events.append(closing(state))
    return events


def _record(state: State, command: RecordResult) -> list[Any]:
    rnd = state.current
    verify(rnd is not None and rnd.number == command.round and rnd.matches.get(command.table) == command.match_id,
           "unknown_table", "this match is not a table of the current round")
    assert rnd is not None
    verify(command.table not in rnd.results, "result_recorded", "this table's result is already recorded")
    return _close(state, ResultRecorded(round=command.round, table=command.table, match_id=command.match_id,
                                        score=dict(command.score), boards=dict(command.boards),
                                        forfeit=command.forfeit), command.seeds)


def _close(state: State, result: ResultRecorded, seeds_known: dict[str, str]) -> list[Any]:
    """A table's result; the round's close (its seeds revealed) when it was the last table."""
    rnd = state.current
    assert rnd is not None
    events: list[Any] = [result]
    if len(rnd.results) + 1 == len(rnd.tables) and not state.robot:   # a robot round closes with its window
        seeds = {str(b): seeds_known[str(b)] for b in rnd.boards if str(b) in seeds_known}
        events.append(RoundClosed(round=rnd.number, seeds=seeds))
        if rnd.number >= state.rounds:
            events.append(closing(state))
    return events


def evolve(state: State, event: Any) -> State:
    s = msgspec.structs.replace
    state = s(state, version=state.version + 1)
    if isinstance(event, TournamentCreated):
        return s(state, tournament_id=event.tournament_id, organiser=event.organiser, name=event.name,
                 game=event.game, options=event.options, format=event.format, rounds_wanted=event.rounds,
                 schedule=event.schedule, bots=event.bots, no_show_grace=event.no_show_grace or 0,
                 imported_boards=event.imported_boards, individual=event.individual, rated=event.rated,
                 seeding=event.seeding, scoring=event.scoring, closes_at=event.closes_at, status="registering")
    if isinstance(event, EntryRegistered):
        return s(state, entries={**state.entries, event.entry_id: list(event.players)},
                 names={**state.names, event.entry_id: event.name or event.entry_id})
    if isinstance(event, EntryWithdrawn):
        return s(state, withdrawn=[*state.withdrawn, event.entry_id])
    if isinstance(event, TournamentStarted):
        seeded = [e for e in event.seeds if e in state.entries]     # then the rest in registration order
        entries = {e: state.entries[e] for e in [*seeded, *(e for e in state.entries if e not in seeded)]}
        return s(state, status="running", rounds=event.rounds, boards_per_round=event.boards_per_round,
                 board_count=event.board_count, commitment=event.commitment, board_digests=list(event.board_digests),
                 entries=entries)
    if isinstance(event, PairingSubmitted):
        return s(state, manual={**state.manual, event.round: event})
    if isinstance(event, RoundPaired):
        rnd = Round(number=event.round, tables=list(event.tables), byes=list(event.byes), boards=list(event.boards),
                    manual=event.manual, order=list(event.order))
        return s(state, played=[*state.played, rnd])
    rnd = state.current
    if isinstance(event, TableAdded) and rnd is not None:
        return _with_round(state, s(rnd, tables=[*rnd.tables, event.table]))
    if isinstance(event, TableOpened) and rnd is not None:
        opened = {**rnd.opened, event.table: event.opened_at} if event.opened_at else rnd.opened
        return _with_round(state, s(rnd, matches={**rnd.matches, event.table: event.match_id}, opened=opened))
    if isinstance(event, ResultRecorded) and rnd is not None:
        return _with_round(state, s(rnd, results={**rnd.results, event.table: event}))
    if isinstance(event, RoundClosed) and rnd is not None:
        return _with_round(state, s(rnd, closed=True, seeds=dict(event.seeds)))
    if isinstance(event, TournamentShortened):
        return s(state, rounds=event.rounds, shortened=True)
    if isinstance(event, TournamentClosed):
        return s(state, status="closed", closed_reason=event.reason)
    return state


def _with_round(state: State, rnd: Round) -> State:
    return msgspec.structs.replace(state, played=[*state.played[:-1], rnd])
