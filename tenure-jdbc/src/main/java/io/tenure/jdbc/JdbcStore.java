package io.tenure.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import io.tenure.SchemaMissingException;
import io.tenure.StoreUnavailableException;
import io.tenure.Stores;
import io.tenure.UnsupportedDatabaseException;
import io.tenure.jdbc.internal.Dialect;
import io.tenure.jdbc.internal.Dialects;
import io.tenure.jdbc.internal.Jdbc;
import io.tenure.jdbc.internal.JdbcAgentStore;
import io.tenure.jdbc.internal.JdbcEventStore;
import io.tenure.jdbc.internal.JdbcLeaseStore;
import io.tenure.jdbc.internal.JdbcMarkerStore;
import io.tenure.jdbc.internal.JdbcMembershipStore;
import io.tenure.spi.EventStore;
import io.tenure.spi.LeaseStore;
import io.tenure.spi.MarkerStore;
import io.tenure.spi.MembershipStore;
import io.tenure.spi.Store;
import io.tenure.spi.StoreDescription;
import io.tenure.spi.StoreSettings;
import io.tenure.spi.TablePrefix;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Store} on SQLite, PostgreSQL or MariaDB/MySQL. The database is detected from the JDBC
 * metadata of a live connection; an unknown one is refused before Tenure writes anything. The
 * schema is created or upgraded on open unless {@link Builder#migrate(boolean)} turns that off.
 */
public final class JdbcStore implements Store {
  private static final Logger LOG = LoggerFactory.getLogger(JdbcStore.class);

  private final List<HikariDataSource> ownedPools;
  private final Jdbc jdbc;
  private final StoreDescription description;
  private final JdbcMarkerStore markers;
  private final JdbcMembershipStore membership;
  private final JdbcLeaseStore leases;
  private final JdbcEventStore events;
  private final JdbcAgentStore agents;
  private final io.tenure.jdbc.internal.JdbcQueueStore queues;
  private final io.tenure.jdbc.internal.JdbcLockStore locks;
  private final io.tenure.jdbc.internal.JdbcScheduleStore schedules;
  private volatile boolean closed;

  private JdbcStore(StoreOpening.Pools pools, Dialect dialect, Builder builder) {
    this.ownedPools = pools.owned();
    boolean ownPools = !pools.owned().isEmpty();
    this.jdbc = new Jdbc(pools.main(), dialect, builder.location(), () -> closed, 0, ownPools);
    // Once the dialect is known its classifier applies: a lock timeout while migrating is
    // contention and a refused CREATE is a plain error, not an unreachable store.
    String what =
        (builder.migrate ? "migrate the schema" : "read the schema version")
            + " of prefix '"
            + builder.prefix
            + "' while opening";
    StoreOpening.Opened opened =
        jdbc.withTransactions(what, connection -> StoreOpening.open(connection, dialect, builder));
    this.description =
        new StoreDescription(
            dialect.name(),
            opened.database(),
            builder.location(),
            builder.prefix,
            opened.schemaVersion(),
            dialect.timePrecision(),
            builder.statementTimeout);
    Jdbc coordination =
        new Jdbc(
            pools.coordination(),
            dialect,
            builder.location(),
            () -> closed,
            (int) builder.statementTimeout.toSeconds(),
            ownPools);
    this.markers = new JdbcMarkerStore(jdbc, builder.prefix);
    this.membership = new JdbcMembershipStore(jdbc, coordination, builder.prefix);
    this.leases =
        new JdbcLeaseStore(
            coordination,
            builder.prefix,
            new Dialect.LockSite(pools.session(), opened.catalog(), builder.prefix, opened.file()));
    this.events = new JdbcEventStore(jdbc, builder.prefix);
    this.agents = new JdbcAgentStore(jdbc, builder.prefix, pools.session(), pools.sessionSource());
    this.queues = new io.tenure.jdbc.internal.JdbcQueueStore(jdbc, builder.prefix, pools.session());
    this.locks = new io.tenure.jdbc.internal.JdbcLockStore(jdbc, builder.prefix);
    this.schedules = new io.tenure.jdbc.internal.JdbcScheduleStore(jdbc, builder.prefix, queues);
  }

  /**
   * Opens {@code url} with the default prefix and migration on.
   *
   * @throws IllegalArgumentException if the URL is malformed
   * @throws UnsupportedDatabaseException if the URL or the database is not supported
   * @throws StoreUnavailableException if the database cannot be reached
   */
  public static JdbcStore open(String url) {
    return builder().url(url).build();
  }

  /**
   * @return a builder; set a URL or a data source
   */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public StoreDescription describe() {
    return description;
  }

  @Override
  public Instant now() {
    return jdbc.read(
        "read the database clock",
        connection -> {
          try (PreparedStatement statement =
                  connection.prepareStatement("SELECT " + jdbc.dialect().now() + " AS now_value");
              ResultSet rows = statement.executeQuery()) {
            rows.next();
            return jdbc.dialect().getInstant(rows, "now_value");
          }
        });
  }

  @Override
  public MarkerStore markers() {
    return markers;
  }

  @Override
  public MembershipStore membership() {
    return membership;
  }

  @Override
  public LeaseStore leases() {
    return leases;
  }

  @Override
  public EventStore events() {
    return events;
  }

  @Override
  public io.tenure.spi.QueueStore queues() {
    return queues;
  }

  @Override
  public io.tenure.spi.LockStore locks() {
    return locks;
  }

  @Override
  public io.tenure.spi.ScheduleStore schedules() {
    return schedules;
  }

  /** The queue store itself, for {@link QueueStatements}. */
  io.tenure.jdbc.internal.JdbcQueueStore queueStore() {
    return queues;
  }

  @Override
  public io.tenure.spi.AgentStore agents() {
    return agents;
  }

  @Override
  public void close() {
    closed = true;
    ownedPools.forEach(HikariDataSource::close);
  }

  /** Configures a {@link JdbcStore}. Each setter checks its argument; {@link #build()} connects. */
  public static final class Builder {
    /** Connections per store when the store owns its pool. */
    public static final int DEFAULT_POOL_SIZE = StoreSettings.DEFAULT_POOL_SIZE;

    /** How long to wait for a connection before reporting the store unavailable. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);

    /** How long SQLite waits for the write lock before reporting contention. */
    public static final Duration DEFAULT_SQLITE_BUSY_TIMEOUT = Dialects.SQLITE_BUSY_TIMEOUT;

    /** The bound on one heartbeat or lease statement, including the wait for its connection. */
    public static final Duration DEFAULT_STATEMENT_TIMEOUT = Duration.ofSeconds(1);

    /** Connections reserved for heartbeats and lease statements, apart from the main pool. */
    static final int COORDINATION_POOL_SIZE = 2;

    // Package-private: StoreOpening reads them when build() opens the store.
    @Nullable String url;
    @Nullable DataSource dataSource;
    @Nullable DataSource coordinationDataSource;
    @Nullable String user;
    @Nullable String password;
    TablePrefix prefix = TablePrefix.DEFAULT;
    boolean migrate = true;
    boolean requireSchema;
    int poolSize = DEFAULT_POOL_SIZE;
    Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
    Duration statementTimeout = DEFAULT_STATEMENT_TIMEOUT;

    private Builder() {}

    /**
     * @param url {@code sqlite:PATH}, {@code jdbc:postgresql://...}, {@code jdbc:mariadb://...} or
     *     {@code jdbc:mysql://...}
     * @throws IllegalArgumentException if null or blank, if a {@code sqlite:} URL has no path, or
     *     if a SQLite URL names an in-memory database (use {@code memory:NAME} or a file path)
     * @throws UnsupportedDatabaseException if the URL is of no known form
     */
    public Builder url(String url) {
      if (url == null || url.isBlank()) {
        throw new IllegalArgumentException("store URL must not be null or blank");
      }
      StoreUrls.toJdbcUrl(url);
      this.url = url;
      return this;
    }

    /**
     * Uses a data source the caller owns (and closes). Tenure still detects the database from it.
     *
     * @throws IllegalArgumentException if null
     */
    public Builder dataSource(DataSource dataSource) {
      if (dataSource == null) {
        throw new IllegalArgumentException("data source must not be null");
      }
      this.dataSource = dataSource;
      return this;
    }

    /**
     * With {@link #dataSource(DataSource)}: a second data source, on the same database, for
     * heartbeats and lease statements, so that they never wait behind other work for a connection.
     * Two connections are enough for one node. Without it they use the main data source. A store
     * built from a URL always opens its own two-connection coordination pool.
     *
     * @throws IllegalArgumentException if null
     */
    public Builder coordinationDataSource(DataSource coordination) {
      if (coordination == null) {
        throw new IllegalArgumentException("coordination data source must not be null");
      }
      this.coordinationDataSource = coordination;
      return this;
    }

    /** The database user, if not in the URL. */
    public Builder user(@Nullable String user) {
      this.user = user;
      return this;
    }

    /** The database password, if not in the URL. Never logged. */
    public Builder password(@Nullable String password) {
      this.password = password;
      return this;
    }

    /**
     * @throws IllegalArgumentException if null
     */
    public Builder prefix(TablePrefix prefix) {
      if (prefix == null) {
        throw new IllegalArgumentException("table prefix must not be null");
      }
      this.prefix = prefix;
      return this;
    }

    /** Whether to create or upgrade the schema on open; default true. */
    public Builder migrate(boolean migrate) {
      this.migrate = migrate;
      return this;
    }

    /**
     * Whether to refuse, at {@link #build()}, a store whose schema for the prefix is missing or
     * older than this build needs; default false. Such an open creates nothing: no table, and on
     * SQLite neither the file nor its folder (the file is opened without the driver's create flag).
     * For tools that read or change rows but must never create a schema. Needs migration off.
     */
    public Builder requireSchema(boolean requireSchema) {
      this.requireSchema = requireSchema;
      return this;
    }

    /**
     * @param poolSize connections in the store's own pool, 1 to 200; ignored with a data source
     * @throws IllegalArgumentException if out of range
     */
    public Builder poolSize(int poolSize) {
      this.poolSize = StoreSettings.checkPoolSize(poolSize);
      return this;
    }

    /**
     * @param timeout how long to wait for a connection, 250 ms to 5 minutes
     * @throws IllegalArgumentException if null or out of range
     */
    public Builder connectTimeout(Duration timeout) {
      if (timeout == null
          || timeout.compareTo(Duration.ofMillis(250)) < 0
          || timeout.compareTo(Duration.ofMinutes(5)) > 0) {
        throw new IllegalArgumentException(
            "connect timeout must be between 250 ms and 5 minutes, got " + timeout);
      }
      this.connectTimeout = timeout;
      return this;
    }

    /**
     * @param timeout the bound on one heartbeat or lease statement: whole seconds (JDBC query
     *     timeouts have second granularity), 1 to 60
     * @throws IllegalArgumentException if null, not whole seconds, or out of range
     */
    public Builder statementTimeout(Duration timeout) {
      if (timeout == null
          || timeout.toNanosPart() != 0
          || timeout.toSeconds() < 1
          || timeout.toSeconds() > 60) {
        throw new IllegalArgumentException(
            "statement timeout must be whole seconds from 1 to 60, got " + timeout);
      }
      this.statementTimeout = timeout;
      return this;
    }

    /**
     * Connects, detects the database, migrates if asked, and returns the open store.
     *
     * @throws IllegalStateException if neither or both of a URL and a data source were given
     * @throws UnsupportedDatabaseException if the database is not supported (Tenure wrote nothing)
     * @throws StoreUnavailableException if the database cannot be reached
     * @throws io.tenure.ContentionException if migrating met a lock it could not get in time
     * @throws io.tenure.StoreException if migrating or reading the schema failed otherwise, e.g.
     *     the user may not create tables
     * @throws SchemaMissingException if migration is off and a SQLite file does not exist (it is
     *     not created), if a server's database does not exist, or if {@link #requireSchema} is on
     *     and the prefix's schema is missing or older than this build
     * @throws IllegalStateException if both migration and {@link #requireSchema} are on
     */
    public JdbcStore build() {
      if ((url == null) == (dataSource == null)) {
        throw new IllegalStateException("set exactly one of url(...) and dataSource(...)");
      }
      if (migrate && requireSchema) {
        throw new IllegalStateException(
            "requireSchema(true) opens without creating anything; turn migrate off");
      }
      if (coordinationDataSource != null && dataSource == null) {
        throw new IllegalStateException(
            "coordinationDataSource(...) goes with dataSource(...), not url(...)");
      }
      StoreOpening.Pools pools = StoreOpening.pools(this);
      try {
        JdbcStore store = new JdbcStore(pools, StoreOpening.detect(pools.main(), location()), this);
        LOG.info(
            "Opened Tenure store {} ({}, prefix '{}', schema v{})",
            location(),
            store.description.database(),
            prefix,
            store.description.schemaVersion());
        return store;
      } catch (RuntimeException e) {
        StoreOpening.closeQuietly(pools.owned(), e);
        throw e;
      }
    }

    /** Where the store is, with any secret in its URL masked. */
    String location() {
      return url != null
          ? Stores.maskSecrets(url)
          : "data source " + dataSource.getClass().getName();
    }
  }
}
