-- The session-lock record of the leader lease (SPEC §4.7). A candidate that finds the holder's
-- session lock free may take the lease over only if the holder recorded, at its current epoch,
-- that it holds that lock: a holder that never took the lock (it acquired the lease at expiry while
-- a frozen predecessor still held it) is not gone because the lock is free. lock_epoch = epoch
-- means recorded; every acquire and take-over clears it.
ALTER TABLE ${prefix}leases ADD COLUMN IF NOT EXISTS lock_epoch BIGINT;
