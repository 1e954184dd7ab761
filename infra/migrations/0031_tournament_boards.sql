-- Tournaments whose boards an organiser imported as a match record (docs/tournaments.md,
-- "Boards"): the decks (dealer and deck of each board, in board order), kept here and never
-- in an event, so that no board is shown before its round has closed at every table. Only
-- the tournament service reads this table.

CREATE TABLE tournament_boards (
    tournament_id  text        PRIMARY KEY,
    deals          jsonb       NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now()
);
