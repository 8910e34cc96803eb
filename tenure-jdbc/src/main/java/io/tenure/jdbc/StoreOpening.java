package io.tenure.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import io.tenure.SchemaMissingException;
import io.tenure.StoreUnavailableException;
import io.tenure.jdbc.internal.Dialect;
import io.tenure.jdbc.internal.Dialects;
import io.tenure.jdbc.internal.Migrator;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import javax.sql.DataSource;

/**
 * How a {@link JdbcStore.Builder}'s settings become an open store: the connections (pools the store
 * owns, or the caller's data sources), the database detected from them, and the schema migrated or
 * checked in one transaction.
 */
final class StoreOpening {
  private StoreOpening() {}

  /** The connections a store uses; {@code owned} are closed with the store. */
  record Pools(
      DataSource main,
      DataSource coordination,
      Dialect.ConnectionSource session,
      Object sessionSource,
      List<HikariDataSource> owned) {}

  /** What opening learned from the database. */
  record Opened(
      String database, String catalog, int schemaVersion, java.util.Optional<Path> file) {}

  static Pools pools(JdbcStore.Builder builder) {
    if (builder.dataSource != null) {
      DataSource dataSource = builder.dataSource;
      // A caller's data source serves every purpose unless a coordination one was given.
      DataSource coordination =
          builder.coordinationDataSource != null ? builder.coordinationDataSource : dataSource;
      // Stores on one caller's data source share its LISTEN connection: one, not one per store.
      return new Pools(dataSource, coordination, dataSource::getConnection, dataSource, List.of());
    }
    PoolOpener opener =
        new PoolOpener(
            builder.url, builder.user, builder.password, builder.migrate, builder.connectTimeout);
    HikariDataSource main =
        opener.open("tenure-" + builder.prefix.value(), builder.poolSize, builder.connectTimeout);
    try {
      Duration coordinationWait =
          builder.statementTimeout.compareTo(Duration.ofMillis(250)) < 0
              ? Duration.ofMillis(250)
              : builder.statementTimeout;
      HikariDataSource coordination =
          opener.open(
              "tenure-coord-" + builder.prefix.value(),
              JdbcStore.Builder.COORDINATION_POOL_SIZE,
              coordinationWait);
      String jdbcUrl = main.getJdbcUrl();
      Properties properties = new Properties();
      main.getDataSourceProperties().forEach(properties::put);
      if (builder.user != null) {
        properties.setProperty("user", builder.user);
      }
      if (builder.password != null) {
        properties.setProperty("password", builder.password);
      }
      Dialect.ConnectionSource session =
          () -> java.sql.DriverManager.getConnection(jdbcUrl, properties);
      return new Pools(main, coordination, session, session, List.of(main, coordination));
    } catch (RuntimeException e) {
      closeQuietly(List.of(main), e);
      throw e;
    }
  }

  /**
   * Before the dialect is known no classifier applies: failing to get this far is unavailability.
   */
  static Dialect detect(DataSource source, String location) {
    try (Connection connection = source.getConnection()) {
      return Dialects.detect(connection.getMetaData());
    } catch (SQLException e) {
      throw new StoreUnavailableException(
          "cannot open Tenure store " + location + ": " + e.getMessage(), e);
    }
  }

  /** Migrates the schema, or reads its version, in the caller's transaction. */
  static Opened open(Connection connection, Dialect dialect, JdbcStore.Builder builder)
      throws SQLException {
    DatabaseMetaData metadata = connection.getMetaData();
    dialect.prepareDatabase(connection);
    Migrator migrator = new Migrator(dialect, builder.prefix);
    int version =
        builder.migrate ? migrator.migrate(connection) : migrator.currentVersion(connection);
    String catalog = String.valueOf(connection.getCatalog());
    if (builder.requireSchema && version == 0) {
      throw new SchemaMissingException(
          "no Tenure tables with prefix '"
              + builder.prefix
              + "' in "
              + where(dialect, catalog, builder.location())
              + "; run 'tenure migrate' or open the store with migration on",
          null);
    }
    return new Opened(
        metadata.getDatabaseProductName() + " " + metadata.getDatabaseProductVersion(),
        catalog,
        version,
        dialect.databaseFile(connection));
  }

  /** The database a missing schema was looked for in, named the way its server names it. */
  private static String where(Dialect dialect, String catalog, String location) {
    return dialect.name().equals("sqlite") ? location : "database '" + catalog + "' of " + location;
  }

  /** Closes pools after {@code failure}, attaching any failure to close to it. */
  static void closeQuietly(List<HikariDataSource> pools, Throwable failure) {
    for (HikariDataSource pool : pools) {
      try {
        pool.close();
      } catch (RuntimeException e) {
        failure.addSuppressed(e);
      }
    }
  }
}
