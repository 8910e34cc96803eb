-- Queue control (SPEC §12.4 to §12.6), per message: its own handler timeout, how long its dedupe
-- key keeps others out (NULL: while it is stored; 0: while pending or in flight; else that long
-- after it finished), what its handler last reported, and the checkpoint a retry resumes from.
ALTER TABLE ${prefix}messages ADD COLUMN timeout_us INTEGER;
ALTER TABLE ${prefix}messages ADD COLUMN unique_for_us INTEGER;
ALTER TABLE ${prefix}messages ADD COLUMN progress REAL;
ALTER TABLE ${prefix}messages ADD COLUMN progress_note TEXT;
ALTER TABLE ${prefix}messages ADD COLUMN checkpoint BLOB;
