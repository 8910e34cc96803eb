-- Cancelled messages (SPEC §12.3). SQLite's TEXT status takes 'CANCELLED' as it is. Retention and
-- the stats find a queue's cancelled messages without reading its others.
CREATE INDEX IF NOT EXISTS ${prefix}messages_cancelled ON ${prefix}messages (queue, id)
  WHERE status = 'CANCELLED';
