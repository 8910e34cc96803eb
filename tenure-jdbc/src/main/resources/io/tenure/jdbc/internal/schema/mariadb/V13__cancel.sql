-- Cancelled messages (SPEC §12.3): the status 'CANCELLED' needs nine characters. 8 to 16 utf8mb4
-- characters keeps the one-byte length prefix, so InnoDB changes it in place. Retention and the
-- stats read cancelled rows through V5's (queue, status, id), like done and dead ones.
ALTER TABLE ${prefix}messages MODIFY status VARCHAR(16) NOT NULL;
