-- Cancelled messages (SPEC §12.3): the status 'CANCELLED' needs nine characters. Lengthening a
-- VARCHAR rewrites no row and rebuilds no index on PostgreSQL.
ALTER TABLE ${prefix}messages ALTER COLUMN status TYPE VARCHAR(16);
-- Retention and the stats find a queue's cancelled messages without reading its others.
CREATE INDEX IF NOT EXISTS ${prefix}messages_cancelled ON ${prefix}messages (queue, id)
  WHERE status = 'CANCELLED';
