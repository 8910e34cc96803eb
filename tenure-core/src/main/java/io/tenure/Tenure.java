package io.tenure;

import io.tenure.internal.admin.DefaultAdmin;
import io.tenure.internal.locks.DefaultLocks;
import io.tenure.internal.schedules.DefaultSchedules;
import io.tenure.spi.DataSourceSettings;
import io.tenure.spi.Store;
import io.tenure.spi.StoreDescription;
import io.tenure.spi.StoreSettings;
import io.tenure.spi.TablePrefix;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * The entry point: one Tenure store (one table prefix in one database) and everything an
 * application does with it. Open it once per process, by URL or on a {@link DataSource}; then build
 * queues, markers, nodes and the operator view from it, and close it last.
 *
 * <pre>{@code
 * try (Tenure tenure = Tenure.open("sqlite:app.db")) {
 *   Queue emails = tenure.queue("emails", QueuePolicy.defaults());
 *   emails.enqueue(OutgoingMessage.text("welcome user 7"));
 * }
 * }</pre>
 *
 * <p>A store URL is {@code sqlite:PATH}, {@code jdbc:postgresql://...}, {@code jdbc:mariadb://...},
 * {@code jdbc:mysql://...} (with {@code tenure-jdbc} on the class path) or {@code memory:NAME}.
 * Thread-safe.
 */
public final class Tenure implements AutoCloseable {
  private final Store store;
  // Read once: a description is only promised while the store is open, and a closed Tenure names
  // itself in its refusals.
  private final StoreDescription description;
  private final Markers markers;
  private final Admin admin;
  private final DefaultLocks locks;
  private final Map<String, Queue> queues = new ConcurrentHashMap<>();
  private final Schedules schedules;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final List<QueueMiddleware> middleware;

  private Tenure(Store store, String name, List<QueueMiddleware> middleware) {
    // Every queue, node and schedule built here wakes consumers after its enqueues commit.
    this.store = io.tenure.internal.wake.WakingStore.wrap(store);
    this.middleware = middleware;
    this.description = store.describe();
    this.markers = Markers.builder(store.markers()).build();
    this.admin = new DefaultAdmin(store);
    this.locks = new DefaultLocks(store.locks(), name, Ticker.system(), true);
    this.schedules =
        new DefaultSchedules(
            this.store.schedules(), store::now, queue -> Optional.ofNullable(queues.get(queue)));
  }

  /**
   * A Tenure over a store opened elsewhere, for tools that hold an SPI {@link Store} (the launcher,
   * the admin server): schedules, locks and the operator view on it. Applications open a Tenure by
   * URL or data source instead. Closing it closes the store.
   *
   * @param name the process's name, as {@link Builder#name} takes it
   * @throws IllegalArgumentException if the store is null or the name invalid
   */
  public static Tenure on(Store store, String name) {
    if (store == null) {
      throw new IllegalArgumentException("store must not be null");
    }
    return new Tenure(store, LockInfo.checkHolder(name), List.of());
  }

  /**
   * Opens the store at {@code url} with the default table prefix, creating or upgrading its schema.
   *
   * @throws IllegalArgumentException if the URL is null or blank (nothing opened)
   * @throws UnsupportedDatabaseException if no provider on the class path accepts the URL, naming
   *     the forms known (nothing created), or the database is not supported
   * @throws StoreUnavailableException if the database cannot be reached
   * @throws StoreException if migrating the schema failed
   */
  public static Tenure open(String url) {
    return builder(url).open();
  }

  /**
   * @param url the store URL
   * @return a builder for further options; {@link Builder#open()} connects
   * @throws IllegalArgumentException if the URL is null or blank
   */
  public static Builder builder(String url) {
    if (url == null || url.isBlank()) {
      throw new IllegalArgumentException("store URL must not be null or blank");
    }
    return new Builder(url, null);
  }

  /**
   * @param dataSource a data source you own: Tenure borrows connections and never closes it
   * @return a builder for further options; {@link Builder#open()} connects
   * @throws IllegalArgumentException if the data source is null
   */
  public static Builder builder(DataSource dataSource) {
    if (dataSource == null) {
      throw new IllegalArgumentException("data source must not be null");
    }
    return new Builder(null, dataSource);
  }

  /**
   * @param name the queue's name ({@link Queue#NAME})
   * @param policy its attempts, backoff, lease, retention and payload limit
   * @return the queue: enqueue, and its stats and dead letters; cheap, build one wherever needed
   * @throws IllegalArgumentException if the name does not match {@link Queue#NAME} or the policy is
   *     null
   * @throws IllegalStateException if this Tenure is closed
   */
  public Queue queue(String name, QueuePolicy policy) {
    Queue queue = Queue.on(open().queues(), name, policy);
    for (QueueMiddleware m : middleware) {
      queue = queue.withMiddleware(m);
    }
    queues.put(name, queue);
    return queue;
  }

  /**
   * @return lifecycle markers without hooks; the same instance every call
   * @throws IllegalStateException if this Tenure is closed
   */
  public Markers markers() {
    open();
    return markers;
  }

  /**
   * @return a builder of a markers service with before- and after-transition hooks
   * @throws IllegalStateException if this Tenure is closed
   */
  public Markers.Builder markersWithHooks() {
    return Markers.builder(open().markers());
  }

  /**
   * Durable schedules that enqueue one message per slot, exactly once through fail-overs (SPEC
   * §10). A schedule enqueues to a queue opened on this Tenure with {@link #queue}; a running
   * {@link TenureNode} that leads the cluster fires them.
   *
   * @return the schedules; the same instance every call
   * @throws IllegalStateException if this Tenure is closed
   */
  public Schedules schedules() {
    open();
    return schedules;
  }

  /**
   * Named locks with fencing tokens (SPEC §11), held in this process's name ({@link Builder#name}).
   * Closing this Tenure releases the locks still held.
   *
   * @return the locks; the same instance every call
   * @throws IllegalStateException if this Tenure is closed
   */
  public Locks locks() {
    open();
    return locks;
  }

  /**
   * Close the nodes you build before this Tenure: a node's store is this Tenure's.
   *
   * @return a builder of a cluster node on this store, with the default settings
   * @throws IllegalStateException if this Tenure is closed
   */
  public TenureNodeBuilder node() {
    return TenureNode.builder(open());
  }

  /**
   * @return the operator view: nodes, leader, agents, events, queue stats, dead letters; the same
   *     instance every call
   * @throws IllegalStateException if this Tenure is closed
   */
  public Admin admin() {
    open();
    return admin;
  }

  /**
   * The provider SPI handle of this store, for integrations that take one (tenure-server's {@code
   * AdminServer.builder(tenure.store())}). Applications never need it: its per-area stores skip the
   * checks that {@link Queue}, {@link Markers} and {@link TenureNode} make. It is the store this
   * Tenure was opened on, wrapped so that its enqueues send wake-ups (docs/QUEUE.md, "Wake-ups").
   *
   * @return the store; closed with this Tenure
   * @throws IllegalStateException if this Tenure is closed
   */
  public Store store() {
    return open();
  }

  /** Closes the store and its connections (not a caller's data source). Idempotent. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      locks.close();
      store.close();
    }
  }

  /**
   * @return the provider, the location with secrets masked and the table prefix
   */
  @Override
  public String toString() {
    return "Tenure["
        + description.provider()
        + " "
        + description.location()
        + ", prefix "
        + description.prefix()
        + (closed.get() ? ", closed]" : "]");
  }

  private Store open() {
    if (closed.get()) {
      throw new IllegalStateException(this + " is closed; open a new one");
    }
    return store;
  }

  /**
   * Options for opening a {@link Tenure}. Each setter checks its argument; {@link #open()}
   * connects. A builder may open several times, each open a new store.
   */
  public static final class Builder {
    private final @Nullable String url;
    private final @Nullable DataSource dataSource;
    private @Nullable DataSource coordination;
    private TablePrefix prefix = TablePrefix.DEFAULT;
    private boolean migrate = true;
    private boolean requireSchema;
    private int poolSize = StoreSettings.DEFAULT_POOL_SIZE;
    private @Nullable String name;
    private final List<QueueMiddleware> middleware = new java.util.ArrayList<>();

    private Builder(@Nullable String url, @Nullable DataSource dataSource) {
      this.url = url;
      this.dataSource = dataSource;
    }

    /**
     * @param prefix the prefix of every table, {@code [a-z][a-z0-9_]{0,29}}; default {@code
     *     tenure_}. Two prefixes in one database are independent clusters
     * @throws IllegalArgumentException if null or not of that form
     */
    public Builder prefix(String prefix) {
      this.prefix = TablePrefix.of(prefix);
      return this;
    }

    /**
     * @param migrate whether to create or upgrade the schema on open; default true. Off: a missing
     *     schema is reported as {@link SchemaMissingException} on first use
     */
    public Builder migrate(boolean migrate) {
      this.migrate = migrate;
      return this;
    }

    /**
     * @param requireSchema whether {@link #open()} refuses a store whose schema is missing or older
     *     than this build, with {@link SchemaMissingException}, creating nothing (no table, no
     *     SQLite file or folder); default false. Needs migration off
     */
    public Builder requireSchema(boolean requireSchema) {
      this.requireSchema = requireSchema;
      return this;
    }

    /**
     * @param poolSize connections in the pool Tenure opens for the URL, 1 to 200; default 10
     * @throws IllegalArgumentException if out of range
     * @throws IllegalStateException on a data source builder: its pool is the caller's
     */
    public Builder poolSize(int poolSize) {
      if (dataSource != null) {
        throw new IllegalStateException(
            "poolSize applies to a store opened by URL; a data source's pool is sized by its owner");
      }
      this.poolSize = StoreSettings.checkPoolSize(poolSize);
      return this;
    }

    /**
     * @param name how this process names itself to operators: the holder of the locks it takes
     *     ({@code tenure locks list}); 1 to 255 characters, no control characters. Default: host
     *     name and process id, {@code host:1234}
     * @throws IllegalArgumentException if invalid, naming it
     */
    public Builder name(String name) {
      this.name = LockInfo.checkHolder(name);
      return this;
    }

    /**
     * @param middleware run around the enqueues and handler calls of every queue this Tenure builds
     *     ({@link Tenure#queue}); added in order, the first outermost
     * @throws IllegalArgumentException if null
     */
    public Builder middleware(QueueMiddleware middleware) {
      if (middleware == null) {
        throw new IllegalArgumentException("middleware must not be null");
      }
      this.middleware.add(middleware);
      return this;
    }

    /**
     * @param coordination a second data source on the same database for heartbeats and lease
     *     statements, so they never wait behind other work; two connections are enough. Default:
     *     the main data source
     * @throws IllegalArgumentException if null
     * @throws IllegalStateException on a URL builder: a store opened by URL opens its own
     */
    public Builder coordinationDataSource(DataSource coordination) {
      if (coordination == null) {
        throw new IllegalArgumentException("coordination data source must not be null");
      }
      if (dataSource == null) {
        throw new IllegalStateException(
            "coordinationDataSource goes with Tenure.builder(dataSource); a store opened by URL"
                + " opens its own coordination pool");
      }
      this.coordination = coordination;
      return this;
    }

    /**
     * Connects, detects the database and, if asked, migrates its schema.
     *
     * @return an open Tenure; close it when done
     * @throws IllegalStateException if both migration and {@link #requireSchema} are on (nothing
     *     opened)
     * @throws UnsupportedDatabaseException if no provider accepts the URL (naming the forms known)
     *     or takes data sources, or the database is not supported; nothing created
     * @throws StoreUnavailableException if the database cannot be reached
     * @throws SchemaMissingException if the schema is required and missing or older
     * @throws StoreException if migrating the schema failed
     */
    public Tenure open() {
      if (migrate && requireSchema) {
        throw new IllegalStateException(
            "requireSchema(true) opens without creating anything; turn migrate off");
      }
      Store store =
          url != null
              ? Stores.open(new StoreSettings(url, prefix, migrate, requireSchema, poolSize))
              : Stores.open(
                  new DataSourceSettings(dataSource, coordination, prefix, migrate, requireSchema));
      return new Tenure(store, name != null ? name : defaultName(), List.copyOf(middleware));
    }

    /** {@code host:pid}, the host as the JVM sees its own name; {@code localhost} if unknown. */
    private static String defaultName() {
      String host;
      try {
        host = java.net.InetAddress.getLocalHost().getHostName();
      } catch (java.net.UnknownHostException e) {
        host = "localhost";
      }
      String name = host + ":" + ProcessHandle.current().pid();
      return name.length() > LockInfo.MAX_HOLDER_LENGTH
          ? name.substring(name.length() - LockInfo.MAX_HOLDER_LENGTH)
          : name;
    }
  }
}
