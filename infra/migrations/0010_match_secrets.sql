-- What only the game service reads: the secret behind each match's public commitment,
-- predefined deals (imported boards, hidden until played), and the seats' entropy
-- strings until a deal uses them. Kept out of the event stream so that no event, log
-- line or projection can carry a secret before it is revealed.

CREATE TABLE match_secrets (
    match_id      text        PRIMARY KEY,
    secret        bytea       NOT NULL,
    chain_length  integer     NOT NULL,
    -- [{"dealer": "N", "deck": [...]}] from an imported match record, or NULL.
    predefined    jsonb,
    created_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE seat_entropy (
    match_id   text        NOT NULL,
    seat       text        NOT NULL CHECK (seat IN ('N', 'E', 'S', 'W')),
    entropy    text        NOT NULL,
    given_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (match_id, seat)
);
