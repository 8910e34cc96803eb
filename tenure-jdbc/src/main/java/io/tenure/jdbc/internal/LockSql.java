package io.tenure.jdbc.internal;

import io.tenure.spi.TablePrefix;
import java.util.Map;

/**
 * The named locks' statements (SPEC §11), complete texts with named parameters, as one database
 * runs them: {@link StandardLockSql} holds what every database runs as written, and each database's
 * subclass what differs (the insert that does nothing when the name exists, and the fence that
 * holds the row for the rest of the caller's transaction). Returned by {@link Dialect#lockSql()}.
 */
interface LockSql {
  /** The columns a lock row is read by, in the order {@link JdbcLockStore} maps them. */
  String COLUMNS = "name, holder, owner, token, acquired_at, expires_at";

  /** The constants every lock statement may name: the table, the clock, the keep-for expiry. */
  static Map<String, String> constants(Dialect dialect, TablePrefix prefix) {
    return Map.of(
        "locks", prefix.table("locks"),
        "now", dialect.now(),
        "now_plus", dialect.nowPlusMicros(),
        "now_minus", dialect.nowMinusMicros(),
        "kept_until", dialect.plusMicros("acquired_at", ":keep_for"));
  }

  /**
   * The first acquisition of {@code :name}: token 1, expiring {@code :ttl} from now. Inserts
   * nothing when the name has a row; on databases where {@link #insertReportsDuplicates()}, fails
   * with the primary key's duplicate error instead.
   */
  String insert();

  /** Whether {@link #insert()} reports a present row as a duplicate-key error. */
  boolean insertReportsDuplicates();

  /** Takes {@code :name} when it may be taken (its expiry passed): a new owner, token + 1. */
  String takeOver();

  /** Moves the expiry of the lock {@code :owner} holds at {@code :token}, while it holds it. */
  String renew();

  /** Clears the owner, keeping it unavailable until {@code acquired_at + :keep_for}, or now. */
  String release();

  /** One row when {@code :owner} holds {@code :name} at {@code :token}: a plain read. */
  String held();

  /**
   * The fence in the caller's transaction: a query yielding one row, or (where {@link
   * #fenceIsUpdate()}) an update changing one row, exactly when {@code :owner} holds {@code :name}
   * at {@code :token}; either way the row stays locked against a take-over until the transaction
   * ends.
   */
  String fence();

  /** Whether {@link #fence()} is an update whose row count answers, not a query. */
  boolean fenceIsUpdate();

  /** One lock's row, with the database's now as {@code read_at}. */
  String read();

  /**
   * Every lock's row by name, {@code :limit} of them, with the database's now as {@code read_at}.
   */
  String list();
}
