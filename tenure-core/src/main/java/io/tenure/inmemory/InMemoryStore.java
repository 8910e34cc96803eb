package io.tenure.inmemory;

import io.tenure.Marker;
import io.tenure.SchemaMissingException;
import io.tenure.StoreUnavailableException;
import io.tenure.spi.EventStore;
import io.tenure.spi.LeaseStore;
import io.tenure.spi.MarkerStore;
import io.tenure.spi.MembershipStore;
import io.tenure.spi.Store;
import io.tenure.spi.StoreDescription;
import io.tenure.spi.TablePrefix;
import java.time.Instant;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.ConcurrentMap;

/**
 * A {@link Store} held in memory. It passes the same compliance kit as the SQL stores. Its
 * "database clock" is an injectable {@link InstantSource}, so runtime tests can drive time.
 */
public final class InMemoryStore implements Store {
  private final InMemoryDatabase database;
  private final TablePrefix prefix;
  private final Namespace namespace;
  private final InstantSource clock;
  private final InMemoryMarkerStore markers;
  private final InMemoryMembershipStore membership = new InMemoryMembershipStore(this);
  private final InMemoryLeaseStore leases = new InMemoryLeaseStore(this);
  private final InMemoryEventStore events = new InMemoryEventStore(this);
  private final InMemoryAgentStore agents = new InMemoryAgentStore(this);
  private final InMemoryQueueStore queues = new InMemoryQueueStore(this);
  private final InMemoryLockStore locks = new InMemoryLockStore(this);
  private final InMemoryScheduleStore schedules = new InMemoryScheduleStore(this);
  private volatile boolean closed;

  private InMemoryStore(Builder builder) {
    this.database = builder.database;
    this.prefix = builder.prefix;
    this.namespace = database.namespace(prefix);
    this.clock = builder.clock;
    if (builder.migrate) {
      namespace.migrate();
    } else if (builder.requireSchema && namespace.schemaVersion() < Namespace.SCHEMA_VERSION) {
      throw new SchemaMissingException(
          "no Tenure tables with prefix '"
              + prefix
              + "' in in-memory database memory:"
              + database.name()
              + "; run 'tenure migrate' or open the store with migration on",
          null);
    }
    this.markers = new InMemoryMarkerStore(this);
  }

  /**
   * @return a migrated store on a fresh database with the default prefix and the system clock
   */
  public static InMemoryStore create() {
    return builder().build();
  }

  /**
   * @return a builder: fresh database, default prefix, system clock, migration on
   */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public StoreDescription describe() {
    return new StoreDescription(
        "memory",
        "in-memory",
        "memory:" + database.name(),
        prefix,
        namespace.schemaVersion(),
        "microseconds",
        java.time.Duration.ZERO);
  }

  @Override
  public Instant now() {
    checkOpen();
    return clock.instant().truncatedTo(ChronoUnit.MICROS);
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
  public io.tenure.spi.AgentStore agents() {
    return agents;
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

  @Override
  public void close() {
    closed = true;
  }

  void checkOpen() {
    if (closed) {
      throw new StoreUnavailableException(
          "in-memory store memory:" + database.name() + " (prefix " + prefix + ") is closed", null);
    }
  }

  ClusterTables clusterTables() {
    checkOpen();
    return namespace.cluster(prefix.value());
  }

  ConcurrentMap<io.tenure.MarkerKey, Marker> markerTable() {
    checkOpen();
    return namespace.markers(prefix.value());
  }

  /** Configures an {@link InMemoryStore}. */
  public static final class Builder {
    private InMemoryDatabase database = InMemoryDatabase.fresh();
    private TablePrefix prefix = TablePrefix.DEFAULT;
    private InstantSource clock = InstantSource.system();
    private boolean migrate = true;
    private boolean requireSchema;

    private Builder() {}

    /**
     * @throws IllegalArgumentException if null
     */
    public Builder database(InMemoryDatabase database) {
      if (database == null) {
        throw new IllegalArgumentException("database must not be null");
      }
      this.database = database;
      return this;
    }

    /**
     * @throws IllegalArgumentException if null
     */
    public Builder prefix(TablePrefix prefix) {
      if (prefix == null) {
        throw new IllegalArgumentException("prefix must not be null");
      }
      this.prefix = prefix;
      return this;
    }

    /**
     * @param clock the store's "database clock"; tests pass a settable one
     * @throws IllegalArgumentException if null
     */
    public Builder clock(InstantSource clock) {
      if (clock == null) {
        throw new IllegalArgumentException("clock must not be null");
      }
      this.clock = clock;
      return this;
    }

    /**
     * @param migrate whether to create the tables on open (default true)
     */
    public Builder migrate(boolean migrate) {
      this.migrate = migrate;
      return this;
    }

    /**
     * @param requireSchema whether to refuse to open a prefix whose tables were never created
     *     (default false); needs migration off
     */
    public Builder requireSchema(boolean requireSchema) {
      this.requireSchema = requireSchema;
      return this;
    }

    /**
     * @return an open store
     * @throws IllegalStateException if both migration and {@link #requireSchema} are on
     * @throws SchemaMissingException if {@link #requireSchema} is on and the prefix has no tables
     */
    public InMemoryStore build() {
      if (migrate && requireSchema) {
        throw new IllegalStateException(
            "requireSchema(true) opens without creating tables; turn migrate off");
      }
      return new InMemoryStore(this);
    }
  }
}
