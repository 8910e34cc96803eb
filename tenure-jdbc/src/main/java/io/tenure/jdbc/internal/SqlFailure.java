package io.tenure.jdbc.internal;

/** What a {@link java.sql.SQLException} means to Tenure, as one dialect's classifier decides. */
public enum SqlFailure {
  /** Deadlock, serialization failure, lock wait timeout, busy file: nothing changed, retry. */
  CONTENTION,
  /** A table (or the schema) does not exist. */
  SCHEMA_MISSING,
  /** The database cannot be reached, refused the login, or the connection was lost or killed. */
  UNAVAILABLE,
  /** A constraint violation the calling code did not expect. */
  CONSTRAINT,
  /**
   * The statement is larger than the database accepts in one (MariaDB's {@code
   * max_allowed_packet}): bad input, not an outage; the statement changed nothing and a retry would
   * fail the same way.
   */
  TOO_LARGE,
  /** Anything else: a bug or a database problem, propagated as is. */
  OTHER
}
