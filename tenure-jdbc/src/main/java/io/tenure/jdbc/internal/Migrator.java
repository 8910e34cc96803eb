package io.tenure.jdbc.internal;

import io.tenure.SchemaMissingException;
import io.tenure.StoreException;
import io.tenure.spi.TablePrefix;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the dialect's versioned schema files ({@code V1__markers.sql}, ...) under the dialect's
 * migration lock. Idempotent: a node that finds the schema current changes nothing, and nodes that
 * start at once queue on the lock.
 */
public final class Migrator {
  /** Schema files in version order; every dialect's folder has each of them. */
  static final List<String> FILES =
      List.of(
          "V1__markers.sql",
          "V2__cluster.sql",
          "V3__agents.sql",
          "V4__queue.sql",
          "V5__claim_indexes.sql",
          "V6__inflight_keys.sql",
          "V7__claim_writes.sql",
          "V8__lease_lock.sql",
          "V9__agent_epochs.sql",
          "V10__locks.sql",
          "V11__schedules.sql",
          "V12__queue_controls.sql",
          "V13__cancel.sql",
          "V14__message_options.sql");

  /** The schema version this build expects. */
  public static final int LATEST = FILES.size();

  private static final Logger LOG = LoggerFactory.getLogger(Migrator.class);

  private final Dialect dialect;
  private final TablePrefix prefix;
  private final String versionTable;

  public Migrator(Dialect dialect, TablePrefix prefix) {
    this.dialect = dialect;
    this.prefix = prefix;
    this.versionTable = prefix.table("schema_version");
  }

  /**
   * Brings the schema to {@link #LATEST}.
   *
   * @return the version now in place, {@link #LATEST}
   * @throws StoreException if the database holds a newer schema than this build knows
   */
  public int migrate(Connection connection) throws SQLException {
    dialect.withMigrationLock(
        connection,
        prefix,
        () -> {
          createVersionTable(connection);
          int current = requireNotNewer(readVersion(connection));
          for (int next = current + 1; next <= LATEST; next++) {
            apply(connection, next);
          }
        });
    return LATEST;
  }

  /**
   * Reads the version in place without changing anything.
   *
   * @return {@link #LATEST}, or 0 if the schema was never migrated (a missing table is then
   *     reported on first use)
   * @throws SchemaMissingException if an older schema is in place: this build would miss tables
   * @throws StoreException if the database holds a newer schema than this build knows
   */
  public int currentVersion(Connection connection) throws SQLException {
    if (!tableExists(connection.getMetaData(), versionTable)) {
      return 0;
    }
    int version = requireNotNewer(readVersion(connection));
    if (version > 0 && version < LATEST) {
      throw new SchemaMissingException(
          "the Tenure schema with prefix '"
              + prefix
              + "' is at v"
              + version
              + " but this Tenure needs v"
              + LATEST
              + "; run 'tenure migrate' or open the store with migration on",
          null);
    }
    return version;
  }

  /** A newer schema may have tables and rules this build would break: refuse it, change nothing. */
  private int requireNotNewer(int version) {
    if (version > LATEST) {
      throw new StoreException(
          "this Tenure knows schema v"
              + LATEST
              + ", the database has v"
              + version
              + " for prefix '"
              + prefix
              + "'; upgrade Tenure",
          null);
    }
    return version;
  }

  private void createVersionTable(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TABLE IF NOT EXISTS "
              + versionTable
              + " (version INTEGER NOT NULL PRIMARY KEY,"
              + " description VARCHAR(200) NOT NULL, applied_at VARCHAR(40) NOT NULL)");
    }
  }

  private int readVersion(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT MAX(version) FROM " + versionTable)) {
      rows.next();
      return rows.getInt(1);
    }
  }

  private void apply(Connection connection, int version) throws SQLException {
    String file = FILES.get(version - 1);
    for (String sql : statements(load(file))) {
      try (Statement statement = connection.createStatement()) {
        statement.execute(sql);
      }
    }
    try (PreparedStatement record =
        connection.prepareStatement(
            "INSERT INTO "
                + versionTable
                + " (version, description, applied_at) VALUES (?, ?, ?)")) {
      record.setInt(1, version);
      record.setString(2, file);
      // Informational, but SPEC §1.1 holds here too: the database clock, never the node's.
      record.setString(3, databaseNow(connection).toString());
      record.executeUpdate();
    }
    LOG.info(
        "Applied schema migration {} for {} tables with prefix '{}'", file, dialect.name(), prefix);
  }

  private Instant databaseNow(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT " + dialect.now() + " AS now_value")) {
      rows.next();
      return dialect.getInstant(rows, "now_value");
    }
  }

  private String load(String file) {
    String path = "schema/" + dialect.schemaFolder() + "/" + file;
    try (InputStream in = Migrator.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new StoreException(
            "schema file " + path + " is missing from the tenure-jdbc jar", null);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8)
          .replace("${prefix}", prefix.value());
    } catch (IOException e) {
      throw new StoreException("cannot read schema file " + path, e);
    }
  }

  /** Splits a schema file on semicolons that end a line; lines starting with -- are comments. */
  static List<String> statements(String script) {
    List<String> statements = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String line : script.split("\n")) {
      String trimmed = line.strip();
      if (trimmed.isEmpty() || trimmed.startsWith("--")) {
        continue;
      }
      current.append(line).append('\n');
      if (trimmed.endsWith(";")) {
        String sql = current.toString().strip();
        statements.add(sql.substring(0, sql.length() - 1));
        current.setLength(0);
      }
    }
    if (!current.toString().isBlank()) {
      statements.add(current.toString().strip());
    }
    return statements;
  }

  private static boolean tableExists(DatabaseMetaData metadata, String table) throws SQLException {
    for (String name : List.of(table, table.toUpperCase(java.util.Locale.ROOT))) {
      try (ResultSet rows = metadata.getTables(null, null, name, new String[] {"TABLE"})) {
        while (rows.next()) {
          if (rows.getString("TABLE_NAME").equalsIgnoreCase(table)) {
            return true;
          }
        }
      }
    }
    return false;
  }
}
