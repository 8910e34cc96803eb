package io.tenure.jdbc.internal;

import io.tenure.QueueMessage;
import io.tenure.QueueStats;
import io.tenure.spi.AgentGuard;
import io.tenure.spi.ClaimRequest;
import io.tenure.spi.EnqueueResult;
import io.tenure.spi.MessageClaim;
import io.tenure.spi.MessageQuery;
import io.tenure.spi.NewMessage;
import io.tenure.spi.QueueControlStore;
import io.tenure.spi.QueueStore;
import io.tenure.spi.ReclaimRule;
import io.tenure.spi.Resolution;
import io.tenure.spi.ResolveResult;
import io.tenure.spi.TablePrefix;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Queue messages in {@code <prefix>messages} (SPEC §6). Every state change is conditional on the
 * row's state in the same statement: a claim takes only available {@code PENDING} rows (skipping
 * rows another claimer holds, on servers), a resolve only the row its claim token still names. The
 * statements are the database's {@link QueueSql}; this class checks arguments and hands each call
 * to the part that owns it.
 */
public final class JdbcQueueStore implements QueueStore {
  private final Jdbc jdbc;
  private final QueueContext context;
  private final Enqueues enqueues;
  private final QueueControls controls;
  private final Claims claims;
  private final Resolves resolves;
  private final Reclaims reclaims;
  private final DeadLetters deadLetters;
  private final Cancels cancels;
  private final MessageAdmin messageAdmin;
  private final HandlerReports reports;
  private final QueueStatsQuery stats;
  private final Dialect.ConnectionSource sessions;
  private final String channel;

  /**
   * @param sessions opens connections outside the pools, for PostgreSQL's {@code LISTEN}
   */
  public JdbcQueueStore(Jdbc jdbc, TablePrefix prefix, Dialect.ConnectionSource sessions) {
    Dialect dialect = jdbc.dialect();
    this.jdbc = jdbc;
    this.context =
        new QueueContext(
            jdbc,
            dialect.queueSql(),
            QueueSql.constants(dialect, prefix),
            new MessageRows(dialect),
            new Fences(dialect, prefix));
    this.channel = prefix.value() + "queue";
    IdleReads idleReads = new IdleReads(context);
    this.enqueues = new Enqueues(context, channel);
    this.controls = new QueueControls(context, channel);
    this.claims = new Claims(context, idleReads, controls);
    this.resolves = new Resolves(context);
    this.reclaims = new Reclaims(context, idleReads);
    this.deadLetters = new DeadLetters(context);
    this.cancels = new Cancels(context);
    this.messageAdmin = new MessageAdmin(context, deadLetters);
    this.reports = new HandlerReports(context);
    this.stats = new QueueStatsQuery(context);
    this.sessions = sessions;
  }

  @Override
  public io.tenure.CancelOutcome cancel(long id) {
    return cancels.cancel(id);
  }

  @Override
  public io.tenure.spi.MessageAdminStore admin() {
    return messageAdmin;
  }

  @Override
  public java.util.Set<Long> lostClaims(List<MessageClaim> claims) {
    return cancels.lostClaims(claims);
  }

  @Override
  public boolean progress(MessageClaim claim, io.tenure.MessageProgress progress) {
    return reports.progress(claim, progress);
  }

  @Override
  public boolean checkpoint(MessageClaim claim, byte[] state) {
    if (state == null) {
      throw new IllegalArgumentException("checkpoint must not be null");
    }
    return reports.checkpoint(claim, state);
  }

  @Override
  public QueueControlStore controls() {
    return controls;
  }

  @Override
  public Optional<AutoCloseable> listen(Consumer<String> onEnqueue) {
    if (context.sql().notifyEnqueued().isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new PostgresListener(sessions, channel, onEnqueue));
  }

  @Override
  public List<EnqueueResult> enqueue(List<NewMessage> batch) {
    checkBatch(batch, "enqueue");
    return jdbc.write(
        "enqueue " + batch.size() + " messages to " + batch.get(0).queue(),
        connection -> enqueues.insertAll(connection, batch));
  }

  @Override
  public List<EnqueueResult> enqueue(Connection transaction, List<NewMessage> batch) {
    checkBatch(batch, "enqueue");
    try {
      return enqueues.insertAll(transaction, batch);
    } catch (SQLException e) {
      throw jdbc.translate("enqueue " + batch.size() + " messages in the caller's transaction", e);
    }
  }

  @Override
  public List<QueueMessage> claim(ClaimRequest request) {
    return claims.claim(request);
  }

  @Override
  public ResolveResult resolve(List<Resolution> resolutions, @Nullable AgentGuard guard) {
    checkBatch(resolutions, "resolve");
    return resolves.resolve(resolutions, guard);
  }

  @Override
  public boolean extend(MessageClaim claim, Duration lease) {
    return resolves.extend(claim, lease);
  }

  @Override
  public int reclaimExpired(int limit, ReclaimRule rule) {
    return reclaims.reclaimExpired(limit, rule);
  }

  @Override
  public Optional<QueueMessage> find(long id) {
    return deadLetters.find(id);
  }

  @Override
  public List<QueueMessage> list(MessageQuery query) {
    return deadLetters.list(query);
  }

  @Override
  public int replay(MessageQuery deadLetters) {
    return this.deadLetters.replay(deadLetters);
  }

  @Override
  public boolean replay(long id) {
    return deadLetters.replay(id);
  }

  @Override
  public int purge(MessageQuery deadLetters) {
    return this.deadLetters.purge(deadLetters);
  }

  @Override
  public int deleteExpired(String queue, Duration doneFor, Duration deadFor, int limit) {
    return reclaims.deleteExpired(queue, doneFor, deadFor, limit);
  }

  @Override
  public List<QueueStats> stats() {
    return stats.read();
  }

  /**
   * One of this store's statements by name, as {@code io.tenure.jdbc.QueueStatements} exports them:
   * {@code claim} (an unordered claim's first statement), {@code unkeyedClaim} (the claim of a
   * queue with no keyed row pending, or null where the dialect has none), {@code deleteIfHeld} (a
   * done batch's delete), {@code stats}.
   *
   * @throws IllegalArgumentException for another name
   */
  public @Nullable Exported exported(String name) {
    String template =
        switch (name) {
          case "claim" ->
              switch (context.sql().claiming()) {
                case QueueSql.OneStatement one -> one.claim();
                case QueueSql.TwoStatements two -> two.walk();
                case QueueSql.ChooseThenLock choose -> choose.walk();
              };
          case "unkeyedClaim" ->
              context.sql().claiming() instanceof QueueSql.OneStatement one ? one.unkeyed() : null;
          case "deleteIfHeld" -> context.sql().deleteIfHeld();
          case "stats" -> context.sql().stats();
          default -> throw new IllegalArgumentException("no queue statement named " + name);
        };
    return template == null ? null : new Exported(context.statement(template));
  }

  /** A statement's text and binding, read-only, for {@code io.tenure.jdbc.QueueStatements}. */
  public static final class Exported {
    private final NamedStatement statement;

    private Exported(NamedStatement statement) {
      this.statement = statement;
    }

    /** The text with named parameters. */
    public String text() {
      return statement.text();
    }

    /** The JDBC text for these values (lists expanded). */
    public String jdbcText(Map<String, ?> values) {
      return statement.jdbcText(params(values));
    }

    /** Binds the values to a statement prepared from {@link #jdbcText} of the same values. */
    public void bind(PreparedStatement prepared, Map<String, ?> values) throws SQLException {
      statement.bind(prepared, params(values));
    }

    private static NamedStatement.Params params(Map<String, ?> values) {
      NamedStatement.Params params = NamedStatement.Params.of();
      values.forEach(params::and);
      return params;
    }
  }

  /** The values an unordered claim binds, exactly as {@link #claim} binds them. */
  public static Map<String, Object> claimValues(
      String queue, int max, String nodeId, String token, Duration lease) {
    return Claims.walk(queue, max, nodeId, token, lease).values();
  }

  private static void checkBatch(List<?> batch, String what) {
    if (batch == null || batch.isEmpty() || batch.size() > MAX_BATCH) {
      throw new IllegalArgumentException(
          what
              + " takes 1 to "
              + MAX_BATCH
              + " messages, got "
              + (batch == null ? "null" : batch.size()));
    }
  }
}
