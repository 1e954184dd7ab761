"""The SQL of the Postgres event store, each statement with the reasoning it depends on.

Short statements, long comments: an append is one statement (one transaction, one round
trip; appends that queue behind busy statements share one), and the log is read below
the transaction-id horizon. `postgres.py` is the
Python around them.
"""

# The order of RecordedEvent's fields.
COLUMNS = (
    "stream_id, stream_version, position, tx_id, event_id, type, schema_version,"
    " data, metadata, recorded_at"
)

# One statement, so one transaction and one round trip; it succeeds or fails whole.
#
# Two appends at the same expected version both try to insert `expected + 1`; the primary
# key lets exactly one of them commit and the other fails with a unique violation once the
# first has committed. That is the whole concurrency check for a stale version.
#
# A version from the future needs one more guard, `PREVIOUS_EXISTS`: appending at
# expected version 7 needs version 7 to exist (a new stream is version 0), or the stream
# would get a gap. That probe costs about a fifth of an append on the server, and it can
# only ever fail for a version the caller invented: so the store skips it (the `_KNOWN`
# statements) when it has itself seen that version of the stream exist. Events are never
# deleted and versions are dense, so "version v existed" stays true forever; see
# `PostgresEventStore._known`.
#
# The command's idempotency record rides on its first event (migration 0040): command id,
# request hash and last version, NULL on the command's other events. A retry collides on
# the partial unique index (stream_id, command_id), or on the primary key when it kept its
# old expected version, and is answered by COMMAND.
PREVIOUS_EXISTS = """
WHERE $3::bigint = 0
   OR EXISTS (SELECT 1 FROM events WHERE stream_id = $1 AND stream_version = $3)
"""

# A command of several events; the CTE only returns the rows in version order.
_APPEND = """
WITH appended AS (
    INSERT INTO events (stream_id, stream_version, event_id, type, schema_version, data, metadata,
                        command_id, request_hash, command_last_version)
    SELECT $1, $3 + e.ord, e.event_id, e.type, e.schema_version, e.data, e.metadata,
           CASE WHEN e.ord = 1 THEN $2::uuid END,
           CASE WHEN e.ord = 1 THEN $9::bytea END,
           CASE WHEN e.ord = 1 THEN $3::bigint + cardinality($4::uuid[]) END
    FROM unnest($4::uuid[], $5::text[], $6::int[], $7::jsonb[], $8::jsonb[])
         WITH ORDINALITY AS e(event_id, type, schema_version, data, metadata, ord)
    {guard}
    ORDER BY e.ord
    RETURNING position, stream_version, tx_id, recorded_at
)
SELECT position, stream_version, tx_id, recorded_at FROM appended ORDER BY stream_version
"""
APPEND = _APPEND.format(guard=PREVIOUS_EXISTS.strip())
APPEND_KNOWN = _APPEND.format(guard="")

# The common case of a command with one event: no arrays, no CTE, one row.
_APPEND_ONE = """
INSERT INTO events (stream_id, stream_version, event_id, type, schema_version, data, metadata,
                    command_id, request_hash, command_last_version)
SELECT $1, $3::bigint + 1, $4, $5, $6, $7, $8, $2, $9, $3::bigint + 1
{guard}
RETURNING position, stream_version, tx_id, recorded_at
"""
APPEND_ONE = _APPEND_ONE.format(guard=PREVIOUS_EXISTS.strip())
APPEND_ONE_KNOWN = _APPEND_ONE.format(guard="")

STREAM_VERSION = """
SELECT stream_version FROM events WHERE stream_id = $1 ORDER BY stream_version DESC LIMIT 1
"""

# A stream needs no horizon: version v+1 can only be inserted once version v is visible
# to the inserting statement (see APPEND), so a stream never shows a gap to a reader.
READ_STREAM = f"""
SELECT {COLUMNS} FROM events
WHERE stream_id = $1 AND stream_version > $2 AND stream_version <= $3
ORDER BY stream_version
"""

# Newest first, for a page of a long stream (a table's chat) read from its end.
READ_STREAM_BACK = f"""
SELECT {COLUMNS} FROM events
WHERE stream_id = $1 AND stream_version < $2
ORDER BY stream_version DESC
LIMIT $3
"""

# `command_id = $2` implies `command_id IS NOT NULL`, so the partial index answers it.
COMMAND = """
SELECT request_hash, stream_version AS first_version, command_last_version AS last_version
FROM events WHERE stream_id = $1 AND command_id = $2
"""

# Why the log is ordered by (tx_id, position) and read below the xmin horizon.
#
# `position` comes from a sequence, drawn when a row is inserted; the row becomes visible
# when its transaction commits. Concurrent appends commit in any order, so a reader that
# follows `position` can see 11 while 10 is still uncommitted, checkpoint at 11, and never
# read 10. Serialising appends with a lock would fix that at the price of one commit at a
# time; instead each event records the id of the transaction that wrote it (`tx_id`, an
# xid8, which never wraps around) and a reader only reads events whose tx_id is below
# `pg_snapshot_xmin(pg_current_snapshot())`: the smallest transaction id still running
# when this statement's snapshot was taken. Every transaction with a smaller id has
# finished, so its events are all visible now (committed) or never will be (aborted);
# every transaction still running, or not yet begun, has an id at or above the horizon.
# So the set of events below the horizon is final: nothing can ever be added to it.
#
# Ordering by (tx_id, position) makes that set a prefix of the log order: whatever
# commits later has a tx_id at or above the horizon and so sorts after everything read
# so far. A reader's checkpoint is the (tx_id, position) of the last event it applied;
# because it was below the horizon, no late commit can ever land behind it. (Ordering by
# position alone would not do, even below the horizon: a transaction with a smaller xid
# can draw a larger position than one with a bigger xid, so an event below a later
# horizon could still have a position smaller than the checkpoint.) Within a transaction
# the events of one append come in position order, which is their version order.
#
# Within a stream this order is the version order: an append sees the previous version
# committed before it takes its transaction id, so its tx_id is larger.
#
# The price: any long transaction holding an xid (in any database of the cluster) holds
# the horizon back, and readers wait behind it. Appends and projection batches are short
# by design; a rebuild uses many short transactions for this reason.
#
# `$3` lists the types whose payloads the caller wants; the others come back with
# `data = NULL`, still advancing the caller's checkpoint without the cost of shipping and
# decoding payloads nobody reads.
READ_LOG = """
SELECT stream_id, stream_version, position, tx_id, event_id, type, schema_version,
       CASE WHEN $3::text[] IS NULL OR type = ANY($3::text[]) THEN data END,
       metadata, recorded_at
FROM events
WHERE (tx_id, position) > ($1::xid8, $2::bigint)
  AND tx_id < pg_snapshot_xmin(pg_current_snapshot())
ORDER BY tx_id, position
LIMIT $4
"""

HEAD = """
SELECT tx_id, position FROM events
WHERE tx_id < pg_snapshot_xmin(pg_current_snapshot())
ORDER BY tx_id DESC, position DESC LIMIT 1
"""

# Committed events not yet final: their transaction began after one that is still open
# (in any database of the cluster), so they wait above the horizon. A reader that has just
# read everything final is then not caught up, and no further wake-up will say when it is:
# the writers' wake-ups went out when they committed. Asked as the newest visible tx_id, which
# is always the log-order index read backwards to its first visible entry: an EXISTS over
# `tx_id >= horizon` was planned, before the table's first ANALYZE, as a scan of the whole
# table (23 ms at 100k events), the planner expecting a match early.
HELD_BACK = """
SELECT coalesce(max(tx_id) >= pg_snapshot_xmin(pg_current_snapshot()), false) FROM events
"""

# The lag of a reader: final events after its checkpoint, and how old the oldest is.
BACKLOG = """
SELECT count(*), extract(epoch FROM now() - min(recorded_at))::float8 FROM events
WHERE (tx_id, position) > ($1::xid8, $2::bigint)
  AND tx_id < pg_snapshot_xmin(pg_current_snapshot())
"""

# Several commands, of different streams, in one statement: what `infra/store/batch.py`
# sends when appends queue up behind the statements already in flight. One row per event;
# the command's record on its first event, NULL on the others, as in APPEND. There is no
# PREVIOUS_EXISTS guard: only appends at version 0 or at a version the store has seen
# exist are batched. Rows go in the order given (streams sorted, so that two batches that
# collide wait for each other in one order, never in a cycle); `position` is drawn in that
# order, so sorting the answer by it gives the rows back in the order they were sent.
APPEND_BATCH = """
WITH appended AS (
    INSERT INTO events (stream_id, stream_version, event_id, type, schema_version, data, metadata,
                        command_id, request_hash, command_last_version)
    SELECT e.stream_id, e.stream_version, e.event_id, e.type, e.schema_version, e.data, e.metadata,
           e.command_id, e.request_hash, e.command_last_version
    FROM unnest($1::text[], $2::bigint[], $3::uuid[], $4::text[], $5::int[], $6::jsonb[],
                $7::jsonb[], $8::uuid[], $9::bytea[], $10::bigint[]) WITH ORDINALITY
         AS e(stream_id, stream_version, event_id, type, schema_version, data, metadata,
              command_id, request_hash, command_last_version, ord)
    ORDER BY e.ord
    RETURNING position, stream_version, tx_id, recorded_at
)
SELECT position, stream_version, tx_id, recorded_at FROM appended ORDER BY position
"""
