-- Quick play (docs/quickplay.md): the queues as they stand, the tables the matcher opened,
-- who sat where (for the penalty of tables left early) and the cooldowns after leaving.
-- A queue is a service's working state, not a read model: the matcher claims entries here
-- under its own lock, and what a player is told (seated, expired) goes to the event log
-- (`quickplay-<entry id>` streams) for the account stream.
CREATE TABLE quickplay_entries (
    entry_id      text        PRIMARY KEY,
    queue         text        NOT NULL,          -- canonical key: game, options, rated, clock
    game          text        NOT NULL,
    options       jsonb       NOT NULL,
    pool          text        NOT NULL,
    rated         boolean     NOT NULL,
    clock         jsonb,
    players       text[]      NOT NULL,          -- one, or two partners once both joined
    partner       text,                          -- the partner named, while he has not joined
    merged_into   text,                          -- the second partner's join: the pair's entry
    rating        double precision NOT NULL,
    bots_after    double precision,
    bot_level     text        NOT NULL DEFAULT 'basic',
    status        text        NOT NULL,          -- partner, waiting, seating, seated, left, expired, merged
    table_id      text,
    match_id      text,
    request_hash  bytea       NOT NULL,
    joined_at     timestamptz NOT NULL DEFAULT now(),
    ready_at      timestamptz NOT NULL DEFAULT now(),
    ended_at      timestamptz
);
CREATE INDEX quickplay_entries_waiting ON quickplay_entries (queue) WHERE status IN ('waiting', 'partner');
CREATE INDEX quickplay_entries_seating ON quickplay_entries (table_id) WHERE status = 'seating';

-- At most one live entry per player: a row per member, unique while the entry lives.
CREATE TABLE quickplay_members (
    player_id  text    NOT NULL,
    entry_id   text    NOT NULL,
    live       boolean NOT NULL DEFAULT true,
    PRIMARY KEY (player_id, entry_id)
);
CREATE UNIQUE INDEX quickplay_members_one_live ON quickplay_members (player_id) WHERE live;

CREATE TABLE quickplay_tables (
    table_id    text        PRIMARY KEY,
    match_id    text        NOT NULL,
    queue       text        NOT NULL,
    pool        text        NOT NULL,
    seats       jsonb       NOT NULL,
    entries     text[]      NOT NULL,
    bots        boolean     NOT NULL,
    rated       boolean     NOT NULL,
    spread      double precision NOT NULL,
    status      text        NOT NULL,            -- seating, open (every seat taken, started)
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX quickplay_tables_seating ON quickplay_tables (created_at) WHERE status = 'seating';

CREATE TABLE quickplay_seats (
    player_id  text        NOT NULL,
    match_id   text        NOT NULL,
    seat       text        NOT NULL,
    seated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (player_id, match_id)
);
CREATE INDEX quickplay_seats_recent ON quickplay_seats (player_id, seated_at);

CREATE TABLE quickplay_cooldowns (
    player_id  text        PRIMARY KEY,
    until      timestamptz NOT NULL
);
