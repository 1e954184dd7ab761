-- Players, their roles and their bearer tokens (services/api/auth.py, infra/players.py).
-- Events name players by id only; the one personal datum, the display name, lives in
-- `player_names` so that erasing a person is one DELETE and every match still replays.

CREATE TABLE players (
    player_id   text        PRIMARY KEY,
    role        text        NOT NULL DEFAULT 'player' CHECK (role IN ('player', 'organiser', 'admin')),
    created_at  timestamptz NOT NULL DEFAULT now(),
    -- Set when the person asked to be forgotten: the id stays (events refer to it).
    erased_at   timestamptz
);

-- Personal data: erasable without touching anything else.
CREATE TABLE player_names (
    player_id     text PRIMARY KEY REFERENCES players (player_id) ON DELETE CASCADE,
    display_name  text NOT NULL
);

-- Only sha256(token) is kept: a leaked table grants nothing. A token is revoked, never
-- deleted, so an audit can still tell which token made a request.
CREATE TABLE player_tokens (
    token_hash  bytea       PRIMARY KEY,
    player_id   text        NOT NULL REFERENCES players (player_id) ON DELETE CASCADE,
    created_at  timestamptz NOT NULL DEFAULT now(),
    revoked_at  timestamptz
);

CREATE INDEX player_tokens_player ON player_tokens (player_id);
