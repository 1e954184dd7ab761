-- A command's idempotency record moves onto the first event it appended.
--
-- Until now each append wrote two rows (the events and a `commands` row) and maintained
-- four indexes. On a machine where the client and the server share the cores, every heap
-- row and index entry is CPU the append pays on top of the commit, and that is the gap
-- between the store and the server's raw single-INSERT rate. So:
--
-- * The command id, the request hash and the command's last version live on the first
--   event of the command (NULL on the others). A partial unique index on
--   (stream_id, command_id) is the idempotency check: a retried command collides there
--   (or on the primary key, if it kept its old expected version) and is answered from
--   that row, exactly as before.
-- * The (stream_id, event_id) unique index goes. An event id is
--   uuid5(command_id, "<stream_id>/<index>"), so within a stream two events share an id
--   only if one command appended twice — which the index on (stream_id, command_id) now
--   forbids — and two streams never share one (the stream is part of the name).

ALTER TABLE events
    ADD COLUMN command_id uuid,
    ADD COLUMN request_hash bytea,
    ADD COLUMN command_last_version bigint;

UPDATE events e
SET command_id = c.command_id, request_hash = c.request_hash, command_last_version = c.last_version
FROM commands c
WHERE e.stream_id = c.stream_id AND e.stream_version = c.first_version;

CREATE UNIQUE INDEX events_command ON events (stream_id, command_id) WHERE command_id IS NOT NULL;

DROP TABLE commands;
ALTER TABLE events DROP CONSTRAINT events_stream_event_id_key;
