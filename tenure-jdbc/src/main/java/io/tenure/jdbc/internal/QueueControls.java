package io.tenure.jdbc.internal;

import io.tenure.Queue;
import io.tenure.QueueControl;
import io.tenure.QueueLimits;
import io.tenure.RateLimit;
import io.tenure.jdbc.internal.NamedStatement.Params;
import io.tenure.spi.ClaimAllowance;
import io.tenure.spi.QueueControlStore;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Queue pause and limits in {@code <prefix>queue_controls}, and the rate-limited queues' recent
 * claims in {@code <prefix>queue_claims} (SPEC §12.1, §12.2). A claim of a queue locks the queue's
 * control row first ({@link #forClaim}), so the claims of a controlled queue take turns across the
 * cluster, and each one counts what is in flight after the one before it committed (READ COMMITTED:
 * every statement reads the latest commits). Only claims raise the count in flight, so the count
 * cannot grow between the read and the claim. A queue without a row claims as before, without
 * taking turns.
 */
final class QueueControls implements QueueControlStore {
  private static final String CONTROL_COLUMNS =
      "paused, max_inflight, group_max_inflight, rate_claims, rate_interval_us, rate_per_group,"
          + " updated_at";

  private final QueueContext context;
  private final NamedStatement lockControl;
  private final NamedStatement readControl;
  private final NamedStatement listControls;
  private final NamedStatement countInFlight;
  private final NamedStatement groupsInFlight;
  private final NamedStatement forgetClaims;
  private final NamedStatement claimsInWindow;
  private final NamedStatement recordClaims;
  private final NamedStatement setPaused;
  private final NamedStatement setLimits;
  private final Optional<NamedStatement> wake;
  private final String channel;

  /** A claim's answer from the control row: claim freely, take nothing, or within an allowance. */
  sealed interface ForClaim {}

  /** The queue has no limits and is not paused. */
  record Free() implements ForClaim {}

  /** The queue is paused. */
  record Paused() implements ForClaim {}

  /** The queue is limited: claim within {@code allowance}, then {@link #record} it. */
  record Limited(String queue, ClaimAllowance allowance, QueueLimits limits) implements ForClaim {}

  /**
   * @param channel the channel PostgreSQL notifies of enqueues: a resume or new limits wake the
   *     queue's consumers on it
   */
  QueueControls(QueueContext context, String channel) {
    this.context = context;
    this.channel = channel;
    this.lockControl =
        context.statement(
            "SELECT "
                + CONTROL_COLUMNS
                + " FROM ${queue_controls} WHERE queue = :queue${for_update}");
    this.readControl =
        context.statement(
            "SELECT " + CONTROL_COLUMNS + " FROM ${queue_controls} WHERE queue = :queue");
    this.listControls = context.statement("SELECT queue FROM ${queue_controls} ORDER BY queue");
    this.countInFlight =
        context.statement(
            "SELECT COUNT(*) FROM ${messages} WHERE queue = :queue AND status = ${INFLIGHT}");
    this.groupsInFlight =
        context.statement(
            """
            SELECT msg_group, COUNT(*) AS n FROM ${messages}
            WHERE queue = :queue AND status = ${INFLIGHT} AND msg_group IS NOT NULL
            GROUP BY msg_group
            """);
    this.forgetClaims =
        context.statement(
            "DELETE FROM ${queue_claims} WHERE queue = :queue AND claimed_at <= ${now - :per}");
    this.claimsInWindow =
        context.statement(
            """
            SELECT grp, SUM(n) AS n FROM ${queue_claims}
            WHERE queue = :queue AND claimed_at > ${now - :per} GROUP BY grp
            """);
    this.recordClaims =
        context.statement(
            """
            INSERT INTO ${queue_claims} (queue, grp, claimed_at, n)
            VALUES (:queue, :grp, ${now}, :n)
            """);
    String table = "${queue_controls}";
    String columns = "queue, " + CONTROL_COLUMNS;
    this.setPaused =
        context.statement(
            context
                .dialect()
                .upsert(
                    table,
                    columns,
                    ":queue, :paused, 0, 0, 0, 0, :off, ${now}",
                    "queue",
                    "paused, updated_at"));
    this.setLimits =
        context.statement(
            context
                .dialect()
                .upsert(
                    table,
                    columns,
                    ":queue, :off, :max_inflight, :group_max_inflight, :rate_claims,"
                        + " :rate_interval, :rate_per_group, ${now}",
                    "queue",
                    "max_inflight, group_max_inflight, rate_claims, rate_interval_us,"
                        + " rate_per_group, updated_at"));
    this.wake = context.sql().notifyEnqueued().map(context::statement);
  }

  // ---- the claim's side, inside its transaction ----

  /**
   * Locks the queue's control row, if it has one, and reads what the claim may take.
   *
   * @param requested the claim's own maximum
   */
  ForClaim forClaim(Connection connection, String queue, int requested) throws SQLException {
    List<Stored> stored = lockControl.query(connection, Params.of("queue", queue), this::stored);
    if (stored.isEmpty()) {
      return new Free();
    }
    Stored control = stored.get(0);
    if (control.paused) {
      return new Paused();
    }
    if (control.limits.unlimited()) {
      return new Free();
    }
    QueueLimits limits = control.limits;
    int inFlight = limits.maxInFlight() > 0 ? countInFlight(connection, queue) : 0;
    Map<String, Integer> groups =
        limits.maxInFlightPerGroup() > 0 ? groupsInFlight(connection, queue) : Map.of();
    Map<String, Integer> window =
        limits.rate() == null ? Map.of() : window(connection, queue, limits.rate().per(), true);
    return new Limited(
        queue, ClaimAllowance.of(limits, requested, inFlight, groups, window), limits);
  }

  /** Records a limited claim's claims for the queue's rate, if it has one. */
  void record(Connection connection, Limited limited) throws SQLException {
    if (limited.limits().rate() == null) {
      return;
    }
    for (Map.Entry<String, Integer> claims : limited.allowance().claimsByRateKey().entrySet()) {
      recordClaims.update(
          connection,
          Params.of("queue", limited.queue())
              .and("grp", claims.getKey())
              .and("n", claims.getValue()));
    }
  }

  // ---- the operator's side ----

  @Override
  public QueueControl read(String queue) {
    Queue.checkName(queue);
    return context.jdbc().read("read the control of queue " + queue, c -> view(c, queue));
  }

  @Override
  public List<QueueControl> list() {
    return context
        .jdbc()
        .read(
            "list queue controls",
            connection -> {
              List<String> queues =
                  listControls.query(connection, Params.of(), rows -> rows.getString("queue"));
              List<QueueControl> controls = new java.util.ArrayList<>();
              for (String queue : queues) {
                controls.add(view(connection, queue));
              }
              return controls;
            });
  }

  @Override
  public boolean pause(String queue, boolean paused) {
    Queue.checkName(queue);
    boolean changed =
        context
            .jdbc()
            .write(
                (paused ? "pause" : "resume") + " queue " + queue,
                connection -> {
                  List<Stored> stored =
                      lockControl.query(connection, Params.of("queue", queue), this::stored);
                  boolean was = !stored.isEmpty() && stored.get(0).paused;
                  if (was == paused) {
                    return false;
                  }
                  setPaused.update(
                      connection,
                      Params.of("queue", queue).and("paused", paused).and("off", false));
                  if (!paused) {
                    wake(connection, queue);
                  }
                  return true;
                });
    return changed;
  }

  @Override
  public void limit(String queue, QueueLimits limits) {
    Queue.checkName(queue);
    Objects.requireNonNull(limits, "limits");
    RateLimit rate = limits.rate();
    context
        .jdbc()
        .write(
            "set the limits of queue " + queue,
            connection -> {
              setLimits.update(
                  connection,
                  Params.of("queue", queue)
                      .and("off", false)
                      .and("max_inflight", limits.maxInFlight())
                      .and("group_max_inflight", limits.maxInFlightPerGroup())
                      .and("rate_claims", rate == null ? 0 : rate.claims())
                      .and("rate_interval", rate == null ? Duration.ZERO : rate.per())
                      .and("rate_per_group", rate != null && rate.perGroup()));
              wake(connection, queue); // a raised limit lets waiting consumers claim at once
              return null;
            });
  }

  /** PostgreSQL: the queue's consumers hear of it at commit, as of an enqueue. */
  private void wake(Connection connection, String queue) throws SQLException {
    if (wake.isPresent()) {
      wake.get().query(connection, Params.of("channel", channel).and("queue", queue), r -> 1);
    }
  }

  private QueueControl view(Connection connection, String queue) throws SQLException {
    List<Stored> stored = readControl.query(connection, Params.of("queue", queue), this::stored);
    Stored control = stored.isEmpty() ? null : stored.get(0);
    Map<String, Integer> groups = groupsInFlight(connection, queue);
    RateLimit rate = control == null ? null : control.limits.rate();
    int inWindow =
        rate == null
            ? 0
            : window(connection, queue, rate.per(), false).values().stream()
                .mapToInt(Integer::intValue)
                .sum();
    return new QueueControl(
        queue,
        control != null && control.paused,
        control == null ? QueueLimits.none() : control.limits,
        countInFlight(connection, queue),
        groups,
        inWindow,
        control == null ? null : control.updatedAt);
  }

  private int countInFlight(Connection connection, String queue) throws SQLException {
    return countInFlight
        .query(connection, Params.of("queue", queue), rows -> rows.getInt(1))
        .get(0);
  }

  private Map<String, Integer> groupsInFlight(Connection connection, String queue)
      throws SQLException {
    Map<String, Integer> groups = new HashMap<>();
    groupsInFlight.query(
        connection,
        Params.of("queue", queue),
        rows -> groups.put(rows.getString("msg_group"), rows.getInt("n")));
    return groups;
  }

  /**
   * The queue's claims within the period before now, per rate key; a claim (which holds the control
   * row) first deletes the older ones, a read only skips them.
   */
  private Map<String, Integer> window(
      Connection connection, String queue, Duration per, boolean forget) throws SQLException {
    if (forget) {
      forgetClaims.update(connection, Params.of("queue", queue).and("per", per));
    }
    Map<String, Integer> window = new HashMap<>();
    claimsInWindow.query(
        connection,
        Params.of("queue", queue).and("per", per),
        rows -> window.put(rows.getString("grp"), rows.getInt("n")));
    return window;
  }

  /** A stored control row. */
  private record Stored(boolean paused, QueueLimits limits, Instant updatedAt) {}

  private Stored stored(ResultSet rows) throws SQLException {
    int rateClaims = rows.getInt("rate_claims");
    @Nullable RateLimit rate =
        rateClaims == 0
            ? null
            : new RateLimit(
                rateClaims,
                Duration.ofNanos(Math.multiplyExact(rows.getLong("rate_interval_us"), 1000L)),
                rows.getBoolean("rate_per_group"));
    return new Stored(
        rows.getBoolean("paused"),
        new QueueLimits(rows.getInt("max_inflight"), rows.getInt("group_max_inflight"), rate),
        context.dialect().getInstant(rows, "updated_at"));
  }
}
