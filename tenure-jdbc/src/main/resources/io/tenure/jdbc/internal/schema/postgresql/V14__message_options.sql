-- Queue control (SPEC §12.4 to §12.6), per message: its own handler timeout, how long its dedupe
-- key keeps others out (NULL: while it is stored; 0: while pending or in flight; else that long
-- after it finished), what its handler last reported, and the checkpoint a retry resumes from.
-- Nullable columns without defaults: PostgreSQL adds them without rewriting the table.
ALTER TABLE ${prefix}messages ADD COLUMN IF NOT EXISTS timeout_us BIGINT;
ALTER TABLE ${prefix}messages ADD COLUMN IF NOT EXISTS unique_for_us BIGINT;
ALTER TABLE ${prefix}messages ADD COLUMN IF NOT EXISTS progress DOUBLE PRECISION;
ALTER TABLE ${prefix}messages ADD COLUMN IF NOT EXISTS progress_note TEXT;
ALTER TABLE ${prefix}messages ADD COLUMN IF NOT EXISTS checkpoint BYTEA;
