-- The review of each finished deal (docs/review.md): computed by the workers from
-- `hand_records` (a deal without a row here is the backlog), written once, rebuilt by
-- deleting rows (they are a pure function of the deal's record and its seed).
--
-- `claimed_at` is a worker's claim on a deal it is reviewing (`review` still null); a claim
-- older than the claim timeout is taken over, so a worker that died loses nothing.
CREATE TABLE deal_reviews (
    record_id    text        PRIMARY KEY,          -- "<match id>/<deal index>", as in hand_records
    match_id     text        NOT NULL,
    deal         integer     NOT NULL,
    game         text        NOT NULL,
    claimed_at   timestamptz NOT NULL DEFAULT now(),
    review       jsonb,                             -- domain.review.DealReview; null while claimed
    failure      text,                              -- why a deal could not be reviewed (never retried)
    reviewed_at  timestamptz
);
CREATE INDEX deal_reviews_match ON deal_reviews (match_id, deal);

-- The fair-play signals of each reviewed deal, one row per seat (docs/review.md, "Fair play"):
-- who held the seat, his partner (null where seats play alone), whether a bot held it (the
-- null is measured on bot seats), and the seat's signals summed.
CREATE TABLE review_signals (
    record_id    text        NOT NULL REFERENCES deal_reviews (record_id) ON DELETE CASCADE,
    match_id     text        NOT NULL,
    seat         text        NOT NULL,
    player_id    text        NOT NULL,             -- a player id, or "bot:<level>"
    partner_id   text,
    game         text        NOT NULL,
    bot          boolean     NOT NULL,
    decisions    integer     NOT NULL,
    total        double precision NOT NULL,
    squares      double precision NOT NULL,
    finished_at  timestamptz NOT NULL,
    PRIMARY KEY (record_id, seat)
);
CREATE INDEX review_signals_player ON review_signals (player_id, finished_at);
CREATE INDEX review_signals_bots ON review_signals (game, finished_at) WHERE bot;
