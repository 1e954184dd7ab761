-- The event store: one table of events, one table of handled commands.
-- See docs/event-store.md for the ordering argument and the idempotency rules.

CREATE TABLE events (
    -- Drawn at insert time, so NOT the order of visibility: use (tx_id, position).
    position        bigserial   NOT NULL,
    stream_id       text        NOT NULL,
    stream_version  bigint      NOT NULL CHECK (stream_version > 0),
    -- uuid5(command_id, stream_id/index): a retried command can never insert twice.
    event_id        uuid        NOT NULL,
    type            text        NOT NULL,
    schema_version  integer     NOT NULL DEFAULT 1,
    data            jsonb       NOT NULL,
    metadata        jsonb,
    recorded_at     timestamptz NOT NULL DEFAULT now(),
    -- The writing transaction's id; readers of the log stay below the xmin horizon.
    tx_id           xid8        NOT NULL DEFAULT pg_current_xact_id(),
    -- The optimistic-concurrency check: two appends at one expected version collide here.
    PRIMARY KEY (stream_id, stream_version),
    UNIQUE (event_id)
);

-- The global log order that tailing readers follow.
CREATE INDEX events_log_order ON events (tx_id, position);

CREATE TABLE commands (
    stream_id      text        NOT NULL,
    command_id     uuid        NOT NULL,
    -- sha256 of the request: the same id with another body is a conflict, not a retry.
    request_hash   bytea       NOT NULL,
    first_version  bigint      NOT NULL,
    last_version   bigint      NOT NULL,
    recorded_at    timestamptz NOT NULL DEFAULT now(),
    -- A command_id is a client-made UUID, promised unique per match (stream).
    PRIMARY KEY (stream_id, command_id)
);
