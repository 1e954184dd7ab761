-- Tournaments (docs/tournaments.md). What only the tournament service reads: the secret
-- behind each tournament's board commitment (a hash chain over every board, published when
-- the tournament starts; a board's seed is revealed in the tournament stream only when its
-- round has closed at every table). And which match is which table of which tournament, so
-- that a finished match finds its tournament (after-commit hook, sweeper) and disputes find
-- the organiser. Standings are a projection (`tournament_standings`), created by the projector.

CREATE TABLE tournament_secrets (
    tournament_id  text        PRIMARY KEY,
    secret         bytea       NOT NULL,
    board_count    integer     NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE tournament_matches (
    match_id       text        PRIMARY KEY,
    tournament_id  text        NOT NULL,
    round          integer     NOT NULL,
    table_no       integer     NOT NULL,
    UNIQUE (tournament_id, round, table_no)
);
