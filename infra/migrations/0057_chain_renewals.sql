-- The secrets of a match's later hash chains (chain 1's is in match_secrets), and the chain
-- each seat's entropy was given under: entropy given before a chain's tip was published
-- never goes into that chain's deals (docs/fair-deal.md, "Renewing the chain").

CREATE TABLE match_chains (
    match_id      text        NOT NULL,
    chain         integer     NOT NULL CHECK (chain >= 2),
    secret        bytea       NOT NULL,
    chain_length  integer     NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (match_id, chain)
);

-- Every entropy kept so far was given after the match's creation, under chain 1.
ALTER TABLE seat_entropy ADD COLUMN chain integer NOT NULL DEFAULT 1;

-- Entropy over 1024 bytes in UTF-8 was once accepted at match creation, and then no deal of
-- the match could be dealt. It becomes the lowercase hex SHA-256 of its UTF-8 bytes (64
-- bytes, as unforeseeable as the text), which a seat can recompute from what it sent.
UPDATE seat_entropy
   SET entropy = encode(sha256(convert_to(entropy, 'UTF8')), 'hex')
 WHERE octet_length(convert_to(entropy, 'UTF8')) > 1024;
