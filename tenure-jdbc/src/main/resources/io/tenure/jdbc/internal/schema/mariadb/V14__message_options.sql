-- Queue control (SPEC §12.4 to §12.6), per message: its own handler timeout, how long its dedupe
-- key keeps others out (NULL: while it is stored; 0: while pending or in flight; else that long
-- after it finished), what its handler last reported, and the checkpoint a retry resumes from.
-- Nullable columns without defaults, added in one statement: InnoDB adds them in place.
ALTER TABLE ${prefix}messages
  ADD COLUMN IF NOT EXISTS timeout_us BIGINT,
  ADD COLUMN IF NOT EXISTS unique_for_us BIGINT,
  ADD COLUMN IF NOT EXISTS progress DOUBLE,
  ADD COLUMN IF NOT EXISTS progress_note TEXT,
  ADD COLUMN IF NOT EXISTS checkpoint LONGBLOB;
