-- One checkpoint row per projection (and per rebuild in progress, named "<name>~shadow").
-- A projection's own tables are created by the projection itself (infra/projections):
-- they are disposable read models, rebuilt from the log, never migrated in place.

CREATE TABLE projection_checkpoints (
    name        text        PRIMARY KEY,
    -- The last log position applied, as (tx_id, position): see infra/store/postgres.py.
    tx_id       xid8        NOT NULL DEFAULT '0',
    position    bigint      NOT NULL DEFAULT 0,
    -- The projection code's version that built the tables; a different one needs a rebuild.
    version     integer     NOT NULL DEFAULT 1,
    updated_at  timestamptz NOT NULL DEFAULT now()
);
