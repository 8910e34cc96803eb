package io.tenure.tck;

import io.tenure.spi.Store;
import io.tenure.spi.TablePrefix;
import java.time.ZoneId;
import java.util.function.Supplier;

/**
 * What a provider gives the kit: stores on one database, opened per table prefix. A fixture owns
 * everything it opens and drops it on {@link #close()}.
 */
public interface StoreFixture extends AutoCloseable {
  /**
   * @return the provider's name as it appears in test reports, e.g. {@code postgresql}
   */
  String provider();

  /**
   * @return a prefix no other test in this database uses; its tables are dropped on close
   */
  TablePrefix freshPrefix();

  /**
   * Opens a store with migration on. Several stores opened on one prefix MUST share their data,
   * like processes sharing a database; this call MAY run concurrently with itself.
   */
  Store open(TablePrefix prefix);

  /**
   * Creates a brand-new empty database and returns a factory bound to it: each call opens a store
   * with migration on, and all of them MUST share their data. Empty means no Tenure table exists
   * yet, as on a first deploy: SQLite a file that does not exist yet, a server a new prefix in its
   * test database, in-memory a new in-memory database. The factory MAY be called concurrently; what
   * it creates is removed on {@link #close()}.
   */
  Supplier<Store> emptyDatabase();

  /** Opens a store with migration off: its tables may be missing. */
  Store openWithoutMigration(TablePrefix prefix);

  /**
   * Opens a store that requires its schema ({@code StoreSettings.requireSchema}): MUST throw {@link
   * io.tenure.SchemaMissingException} and create nothing if the prefix has no current schema.
   */
  Store openRequiringSchema(TablePrefix prefix);

  /**
   * Opens a store whose database sessions run in {@code sessionZone}, a named zone. A provider
   * whose sessions cannot use named zones MAY use the zone's current offset instead; providers
   * without a session time zone (SQLite, in-memory) open a plain store.
   */
  Store openWithSessionTimeZone(TablePrefix prefix, ZoneId sessionZone);

  /** Drops every table of {@code prefix} behind the back of open stores, as an operator might. */
  void dropTables(TablePrefix prefix);

  /**
   * Deletes the assignment rows of {@code uris} behind the back of open stores, as an operator's
   * {@code DELETE FROM <prefix>agents WHERE agent_uri IN (...)} would: nothing else of the store
   * (its record of the epochs it issued included) is touched.
   */
  void deleteAgentRows(TablePrefix prefix, java.util.Collection<io.tenure.AgentUri> uris);

  /**
   * Asks the provider to open a database it does not support; MUST throw {@link
   * io.tenure.UnsupportedDatabaseException} and write nothing.
   */
  void openUnsupportedDatabase();

  /**
   * Opens a plain JDBC connection (auto-commit on) to the database this fixture's stores use, for
   * the transactional outbox test; the caller closes it. A JDBC provider MUST override this.
   *
   * @return empty for a provider without JDBC transactions (in-memory), whose stores MUST then
   *     refuse {@code QueueStore.enqueue(Connection, ...)} with {@link
   *     UnsupportedOperationException}
   */
  default java.util.Optional<java.sql.Connection> openConnection() {
    return java.util.Optional.empty();
  }

  /**
   * Closes every store opened through this fixture so far; the tables stay. Called after each test.
   */
  void closeStores();

  /** Closes every store opened through this fixture and drops the tables of its prefixes. */
  @Override
  void close();
}
