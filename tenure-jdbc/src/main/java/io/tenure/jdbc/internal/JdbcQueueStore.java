package io.tenure.jdbc.internal;

import io.tenure.MessageStatus;
import io.tenure.QueueMessage;
import io.tenure.QueueStats;
import io.tenure.spi.AgentGuard;
import io.tenure.spi.ClaimRequest;
import io.tenure.spi.EnqueueResult;
import io.tenure.spi.MessageClaim;
import io.tenure.spi.MessageQuery;
import io.tenure.spi.NewMessage;
import io.tenure.spi.QueueStore;
import io.tenure.spi.Resolution;
import io.tenure.spi.ResolveResult;
import io.tenure.spi.TablePrefix;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Queue messages in {@code <prefix>messages} (SPEC §6). Every state change is conditional on the
 * row's state in the same statement: a claim takes only available {@code PENDING} rows (skipping
 * rows another claimer holds, on servers), a resolve only the row its claim token still names.
 */
public final class JdbcQueueStore implements QueueStore {
  private static final String COLUMNS =
      "id, queue, msg_key, payload, content_type, headers, priority, attempts,"
          + " max_attempts, available_at, status, owner_node, claim_token, lease_until, last_error, created_at,"
          + " finished_at, dedupe_key";

  /** An unordered claim of n looks at the first max(4 n, 1000) available rows; see window(). */
  private static final int WINDOW_FACTOR = 4;

  private static final int WINDOW_MIN = 1000;
  private static final String CLEARED_CLAIM =
      "owner_node = NULL, claim_token = NULL, lease_until = NULL";

  /**
   * TEST ONLY, for the fault harness's negative control ({@code tenure chaos --unsafe token}): a
   * resolve no longer checks its claim token, so a superseded owner's late outcome is written over
   * the current claim. Never set this in production.
   */
  static final boolean UNSAFE_SKIP_CLAIM_TOKEN = Boolean.getBoolean("tenure.unsafe.skipClaimToken");

  /** A resolve's claim condition, with one parameter: the claim token. */
  private static final String TOKEN_HOLDS =
      UNSAFE_SKIP_CLAIM_TOKEN ? "(claim_token = ? OR 1 = 1)" : "claim_token = ?";

  private final Jdbc jdbc;
  private final Dialect dialect;
  private final String messages;

  /** MariaDB's (queue, status, msg_key, id) index, named where the plan must use it. */
  private final String keyIndex;

  private final String agents;
  private final RefusedResolves refused;
  private final QueueStatsQuery stats;

  private final Dialect.ConnectionSource sessions;
  private final String channel;
  private final IdleReads idleReads;

  /**
   * @param sessions opens connections outside the pools, for PostgreSQL's {@code LISTEN}
   */
  public JdbcQueueStore(Jdbc jdbc, TablePrefix prefix, Dialect.ConnectionSource sessions) {
    this.jdbc = jdbc;
    this.dialect = jdbc.dialect();
    this.messages = prefix.table("messages");
    this.keyIndex = prefix.table("messages_key");
    this.agents = prefix.table("agents");
    this.refused = new RefusedResolves();
    this.stats = new QueueStatsQuery(jdbc, messages, prefix.table("messages_status"));
    this.sessions = sessions;
    this.channel = prefix.value() + "queue";
    this.idleReads = new IdleReads(jdbc, messages);
  }

  @Override
  public Optional<AutoCloseable> listen(java.util.function.Consumer<String> onEnqueue) {
    if (!dialect.supportsNotify()) {
      return Optional.empty();
    }
    return Optional.of(new PostgresListener(sessions, channel, onEnqueue));
  }

  /** PostgreSQL: one notification per queue, delivered when the enqueuing transaction commits. */
  private void notifyEnqueued(Connection connection, List<NewMessage> batch) throws SQLException {
    if (!dialect.supportsNotify()) {
      return;
    }
    for (String queue : batch.stream().map(NewMessage::queue).distinct().toList()) {
      try (PreparedStatement statement = connection.prepareStatement("SELECT pg_notify(?, ?)")) {
        statement.setString(1, channel);
        statement.setString(2, queue);
        statement.execute();
      }
    }
  }

  // ---- enqueue ----

  @Override
  public List<EnqueueResult> enqueue(List<NewMessage> batch) {
    checkBatch(batch, "enqueue");
    return jdbc.write(
        "enqueue " + batch.size() + " messages to " + batch.get(0).queue(),
        connection -> insertAll(connection, batch));
  }

  @Override
  public List<EnqueueResult> enqueue(Connection transaction, List<NewMessage> batch) {
    checkBatch(batch, "enqueue");
    try {
      return insertAll(transaction, batch);
    } catch (SQLException e) {
      throw jdbc.translate("enqueue " + batch.size() + " messages in the caller's transaction", e);
    }
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

  private static final String INSERT_COLUMNS =
      "queue, msg_key, payload, content_type, headers, priority, attempts,"
          + " max_attempts, available_at, status, created_at, dedupe_key";
  private static final int PARAMETERS_PER_ROW = 9;
  private static final int ROWS_PER_INSERT = 200;

  /**
   * Inserts in list order. Where RETURNING exists, runs of messages without a dedupe key go in
   * multi-row inserts (ids are drawn in VALUES order); a deduplicated message is inserted alone.
   */
  private List<EnqueueResult> insertAll(Connection connection, List<NewMessage> batch)
      throws SQLException {
    List<EnqueueResult> results = new ArrayList<>(batch.size());
    notifyEnqueued(connection, batch);
    List<NewMessage> run = new ArrayList<>();
    for (NewMessage message : batch) {
      if (dialect.supportsReturning() && message.dedupeKey() == null) {
        run.add(message);
        if (run.size() == ROWS_PER_INSERT) {
          results.addAll(insertRun(connection, run));
          run.clear();
        }
      } else {
        results.addAll(insertRun(connection, run));
        run.clear();
        results.add(insert(connection, message));
      }
    }
    results.addAll(insertRun(connection, run));
    return results;
  }

  private List<EnqueueResult> insertRun(Connection connection, List<NewMessage> run)
      throws SQLException {
    if (run.isEmpty()) {
      return List.of();
    }
    String row = "(" + rowValues() + ")";
    String sql =
        "INSERT INTO "
            + messages
            + " ("
            + INSERT_COLUMNS
            + ") VALUES "
            + String.join(", ", Collections.nCopies(run.size(), row))
            + " RETURNING id";
    List<Long> ids;
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < run.size(); i++) {
        bindNew(statement, i * PARAMETERS_PER_ROW, run.get(i));
      }
      ids = ids(statement);
    }
    if (ids.size() != run.size()) {
      throw new IllegalStateException(
          "inserting "
              + run.size()
              + " messages returned "
              + ids.size()
              + " ids, which indicates a bug");
    }
    return ids.stream().sorted().map(id -> new EnqueueResult(id, true)).toList();
  }

  private String rowValues() {
    return "?, ?, ?, ?, ?, ?, 0, ?, "
        + dialect.nowPlusMicros()
        + ", 'PENDING', "
        + dialect.now()
        + ", ?";
  }

  private EnqueueResult insert(Connection connection, NewMessage message) throws SQLException {
    String columns = INSERT_COLUMNS;
    String values = rowValues();
    boolean deduped = message.dedupeKey() != null;
    if (dialect.supportsReturning()) {
      String sql =
          (deduped
                  ? dialect.insertIfAbsent(
                      messages, columns, values, "queue, dedupe_key", "dedupe_key IS NOT NULL")
                  : "INSERT INTO " + messages + " (" + columns + ") VALUES (" + values + ")")
              + " RETURNING id";
      try (PreparedStatement statement = connection.prepareStatement(sql)) {
        bindNew(statement, message);
        try (ResultSet rows = statement.executeQuery()) {
          if (rows.next()) {
            return new EnqueueResult(rows.getLong(1), true);
          }
        }
      }
      return new EnqueueResult(existing(connection, message), false);
    }
    String sql = "INSERT INTO " + messages + " (" + columns + ") VALUES (" + values + ")";
    try (PreparedStatement statement =
        connection.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS)) {
      bindNew(statement, message);
      statement.executeUpdate();
      try (ResultSet keys = statement.getGeneratedKeys()) {
        keys.next();
        return new EnqueueResult(keys.getLong(1), true);
      }
    } catch (SQLException e) {
      // The generated id cannot collide: a duplicate can only be the dedupe key, and MariaDB
      // rolls back just this statement.
      if (deduped && dialect.isUniqueViolation(e)) {
        return new EnqueueResult(existing(connection, message), false);
      }
      throw e;
    }
  }

  private void bindNew(PreparedStatement statement, NewMessage message) throws SQLException {
    bindNew(statement, 0, message);
  }

  /** Binds one row's {@value #PARAMETERS_PER_ROW} parameters after the first {@code offset}. */
  private static void bindNew(PreparedStatement statement, int offset, NewMessage message)
      throws SQLException {
    statement.setString(offset + 1, message.queue());
    statement.setString(offset + 2, message.key());
    statement.setBytes(offset + 3, message.payload());
    statement.setString(offset + 4, message.contentType());
    statement.setString(offset + 5, Headers.encode(message.headers()));
    statement.setInt(offset + 6, message.priority());
    statement.setInt(offset + 7, message.maxAttempts());
    statement.setLong(offset + 8, micros(message.delay()));
    statement.setString(offset + 9, message.dedupeKey());
  }

  private long existing(Connection connection, NewMessage message) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "SELECT id FROM " + messages + " WHERE queue = ? AND dedupe_key = ?")) {
      statement.setString(1, message.queue());
      statement.setString(2, message.dedupeKey());
      try (ResultSet rows = statement.executeQuery()) {
        if (!rows.next()) {
          throw new IllegalStateException(
              "message with dedupe key "
                  + message.dedupeKey()
                  + " was neither inserted nor found, which indicates a bug");
        }
        return rows.getLong(1);
      }
    }
  }

  // ---- claim ----

  @Override
  public List<QueueMessage> claim(ClaimRequest request) {
    if (dialect.writesOneAtATime() && !idleReads.anyPending(request.queue())) {
      return List.of(); // no write lock for a poll that finds nothing: see IdleReads
    }
    return jdbc.write(
        "claim from queue " + request.queue(),
        connection -> {
          if (request.guard() != null && !guardHolds(connection, request.guard(), true)) {
            return List.<QueueMessage>of();
          }
          String token = UUID.randomUUID().toString();
          List<QueueMessage> claimed = new ArrayList<>();
          if (request.strict()) {
            claimed.addAll(
                claimIds(connection, request, token, strictCandidates(connection, request)));
          } else if (dialect.supportsLateral()) {
            // PostgreSQL: both steps in one statement, so a short claim (every pickup from an idle
            // queue) costs one round trip, not two.
            claimed.addAll(
                claimChosen(
                    connection,
                    request,
                    token,
                    walkThenHeads(),
                    request.max(),
                    s -> bindWalkThenHeads(s, request.queue(), request.max())));
          } else {
            claimed.addAll(
                claimChosen(
                    connection,
                    request,
                    token,
                    walkQuery(),
                    request.max(),
                    s -> {
                      s.setString(1, request.queue());
                      s.setInt(2, window(request.max()));
                    }));
            if (claimed.size() < request.max()) {
              // The window may have held only blocked rows of busy keys; every other key's head,
              // found
              // by index probes per key, wherever it stands in the queue.
              Candidates heads = headsQuery();
              claimed.addAll(
                  claimChosen(
                      connection,
                      request,
                      token,
                      heads,
                      request.max() - claimed.size(),
                      s -> {
                        for (int i = 1; i <= heads.bound(); i++) {
                          s.setString(i, request.queue());
                        }
                      }));
            }
          }
          if (!request.strict()) {
            claimed = giveBackOvertaken(connection, token, claimed);
          }
          claimed.sort(
              Comparator.comparingInt(QueueMessage::priority)
                  .reversed()
                  .thenComparingLong(QueueMessage::id));
          return List.copyOf(claimed);
        });
  }

  /**
   * Re-checks the keyed rows just claimed, in a new statement (at READ COMMITTED a new snapshot;
   * every server write transaction runs at it, on a caller's pool too: {@link Jdbc}), and gives
   * back, as a release would, those that now have an older pending row of their key or another row
   * of their key in flight. The claim chose them on its statement's snapshot: a replay that
   * committed after that snapshot but before the claim locked the row never met the claim's lock to
   * wait for ({@link #lockKeys}), so the key's replayed, older message may be pending now, or
   * already claimed by a peer that read this claim's row as still pending. The re-check is a plain
   * read: it waits for nobody and cannot deadlock. Exclusive queues' claims queue on their agent
   * row and take nothing while anything is in flight, so they skip it; so do SQLite, where no peer
   * commits in between, and a claim of unkeyed rows only (the drain's hot path pays nothing).
   *
   * @return the rows still claimed
   */
  private List<QueueMessage> giveBackOvertaken(
      Connection connection, String token, List<QueueMessage> claimed) throws SQLException {
    List<Long> keyed = claimed.stream().filter(m -> m.key() != null).map(QueueMessage::id).toList();
    if (keyed.isEmpty() || dialect.writesOneAtATime()) {
      return claimed;
    }
    String giveBack = " SET status = 'PENDING', attempts = attempts - 1, " + CLEARED_CLAIM;
    String overtaken =
        " WHERE c.claim_token = ? AND c.status = 'INFLIGHT' AND c.id IN ("
            + marks(keyed.size())
            + ") AND ("
            + olderPending("c")
            + " OR "
            + keyInFlight("c", " AND f.id <> c.id")
            + ")";
    List<Long> given;
    if (dialect.supportsReturning()) {
      // PostgreSQL: the check and the give-back in one statement, which as a rule changes nothing.
      try (PreparedStatement statement =
          connection.prepareStatement(
              "UPDATE " + messages + " c" + giveBack + overtaken + " RETURNING c.id")) {
        statement.setString(1, token);
        bindIds(statement, 2, keyed);
        given = ids(statement);
      }
    } else {
      try (PreparedStatement statement =
          connection.prepareStatement("SELECT c.id FROM " + messages + " c" + overtaken)) {
        statement.setString(1, token);
        bindIds(statement, 2, keyed);
        given = ids(statement);
      }
      byId(
          connection,
          "UPDATE " + messages + giveBack + " WHERE status = 'INFLIGHT' AND id IN ",
          given);
    }
    if (given.isEmpty()) {
      return claimed;
    }
    return new ArrayList<>(claimed.stream().filter(m -> !given.contains(m.id())).toList());
  }

  /**
   * A candidate query: {@code select} chooses the ids to claim, after the recursive CTEs in {@code
   * recursive} (or null). Its first {@code bound} parameters are bound by a {@link Binder}, the
   * next one is the limit.
   */
  private record Candidates(@Nullable String recursive, String select, int bound) {}

  /** Claims up to {@code max} of the rows a candidate query chooses. */
  private List<QueueMessage> claimChosen(
      Connection connection,
      ClaimRequest request,
      String token,
      Candidates candidates,
      int max,
      Binder binder)
      throws SQLException {
    int limitAt = candidates.bound() + 1;
    String with = candidates.recursive() == null ? "" : "WITH RECURSIVE " + candidates.recursive();
    if (dialect.supportsReturning()) {
      String sql = claimStatement(candidates);
      try (PreparedStatement statement = connection.prepareStatement(sql)) {
        binder.bind(statement);
        statement.setInt(limitAt, max);
        bindClaim(statement, limitAt, request, token);
        return messages(statement);
      }
    }
    // MariaDB: a locking read that sorts locks every row it sorts, so a claim of 10 would hold its
    // whole window and leave concurrent claimers nothing. The candidates are chosen by a plain read
    // (twice as many, in claim order), then only the ones taken are locked, skipping peers' rows.
    List<Long> chosen;
    try (PreparedStatement statement =
        connection.prepareStatement(with + (with.isEmpty() ? "" : " ") + candidates.select())) {
      binder.bind(statement);
      statement.setInt(limitAt, 2 * max);
      chosen = ids(statement);
    }
    List<Long> locked = new ArrayList<>();
    for (int from = 0; locked.size() < max && from < chosen.size(); ) {
      List<Long> next = chosen.subList(from, Math.min(chosen.size(), from + max - locked.size()));
      from += next.size();
      locked.addAll(lockPending(connection, next));
    }
    return claimIds(connection, request, token, locked);
  }

  /**
   * One statement (PostgreSQL, SQLite): the candidates are chosen, locked and claimed together. The
   * candidates are a MATERIALIZED CTE: as a plain IN subquery PostgreSQL may run its LIMIT more
   * than once and claim more rows than asked (the kit's priority test caught it).
   */
  private String claimStatement(Candidates candidates) {
    String with =
        candidates.recursive() == null
            ? "WITH "
            : "WITH RECURSIVE " + candidates.recursive() + ", ";
    return with
        + "c AS MATERIALIZED ("
        + candidates.select()
        + ") "
        + claimSet()
        + " AND id IN (SELECT id FROM c) RETURNING "
        + COLUMNS;
  }

  /**
   * Binds the first 8 parameters of {@link #postgresClaimStatement()} (those of {@link
   * #walkThenHeads}) for a claim of {@code max} from {@code queue}.
   */
  public static void bindWalkThenHeads(PreparedStatement statement, String queue, int max)
      throws SQLException {
    statement.setString(1, queue);
    statement.setString(2, queue);
    statement.setString(3, queue);
    statement.setInt(4, window(max));
    statement.setInt(5, max);
    statement.setString(6, queue);
    statement.setInt(7, max);
    statement.setInt(8, max);
  }

  /**
   * The statement an unordered or FIFO claim runs on PostgreSQL, exactly, for the benchmark's
   * same-statement ceiling ({@code tenure-bench}'s raw drain). Parameters: the first 8 as {@link
   * #bindWalkThenHeads} binds them, then the limit, the owner node, the claim token and the lease
   * in microseconds.
   *
   * @throws IllegalStateException on another database
   */
  public String postgresClaimStatement() {
    if (!dialect.supportsLateral()) {
      throw new IllegalStateException(
          "the one-statement claim is PostgreSQL's; this store is on " + dialect.name());
    }
    return claimStatement(walkThenHeads());
  }

  /**
   * Locks the rows still pending, skipping rows a peer holds. A row chosen as a key's head stays
   * its head until it is claimed itself, so the lock needs no other check; the one exception, a
   * replay of an older row of its key committing in between, is {@link #giveBackOvertaken}'s.
   */
  private List<Long> lockPending(Connection connection, List<Long> ids) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "SELECT id FROM "
                + messages
                + " WHERE id IN ("
                + marks(ids.size())
                + ") AND status = 'PENDING'"
                + dialect.skipLocked())) {
      bindIds(statement, 1, ids);
      return ids(statement);
    }
  }

  /** Sets a claim on rows still pending; parameters: owner, token, lease, then the rows' own. */
  private String claimSet() {
    return "UPDATE "
        + messages
        + " SET status = 'INFLIGHT', owner_node = ?, claim_token = ?, lease_until = "
        + dialect.nowPlusMicros()
        + ", attempts = attempts + 1 WHERE status = 'PENDING'";
  }

  /** Claims the given rows that are still pending; they were chosen, and locked, just before. */
  private List<QueueMessage> claimIds(
      Connection connection, ClaimRequest request, String token, List<Long> ids)
      throws SQLException {
    if (ids.isEmpty()) {
      return List.of();
    }
    try (PreparedStatement statement =
        connection.prepareStatement(claimSet() + " AND id IN (" + marks(ids.size()) + ")")) {
      bindClaim(statement, 0, request, token);
      bindIds(statement, 4, ids);
      statement.executeUpdate();
    }
    return select(
        connection,
        "WHERE claim_token = ? AND id IN (" + marks(ids.size()) + ")",
        s -> {
          s.setString(1, token);
          bindIds(s, 2, ids);
        });
  }

  /** Binds the claim's owner, token and lease after the first {@code offset} parameters. */
  private static void bindClaim(
      PreparedStatement statement, int offset, ClaimRequest request, String token)
      throws SQLException {
    statement.setString(offset + 1, request.nodeId());
    statement.setString(offset + 2, token);
    statement.setLong(offset + 3, micros(request.lease()));
  }

  /**
   * How many available pending rows an unordered claim of {@code max} looks at, in claim order. The
   * bound keeps a claim's cost flat however deep the queue: without it, a queue whose front is the
   * backlog of a few busy FIFO keys had every claim read (and on MariaDB lock) that whole backlog
   * to find nothing.
   */
  static int window(int max) {
    // 4 x: peers claiming at once hold the front rows, which this claim skips (SQLite has no
    // peers; MariaDB's window is read unlocked and its lock step skips them; PostgreSQL's skips
    // them without counting them, so there the factor is only room for blocked keyed rows).
    return Math.max(WINDOW_FACTOR * max, WINDOW_MIN);
  }

  /**
   * The first {@link #window} available pending rows in claim order (highest priority, then
   * oldest), keeping those not blocked by their key: a keyed row waits while an older row of its
   * key is unfinished or any row of its key is in flight. Parameters: the queue, the window, the
   * limit.
   */
  private Candidates walkQuery() {
    String window =
        "SELECT w.id, w.queue, w.msg_key FROM "
            + messages
            + " w WHERE w.queue = ? AND w.status = 'PENDING'"
            + " AND w.available_at <= "
            + dialect.now()
            + " ORDER BY w.priority DESC, w.id LIMIT ?";
    if (dialect.supportsLateral()) {
      // PostgreSQL: the window's own index scan locks its rows, skipping peers' (so they do not
      // count against it), and streams them through the key check until the limit: an unkeyed
      // queue's claim reads and locks only the rows it takes. (The lock comes before the key check,
      // so a blocked row passed over stays locked until the claim commits; peers skip it, and it
      // is blocked anyway.)
      return new Candidates(
          null,
          "SELECT w.id FROM ("
              + window
              + dialect.skipLocked()
              + ") w WHERE w.msg_key IS NULL"
              + " OR NOT ("
              + olderPending("w")
              + " OR "
              + keyInFlight("w")
              + ") LIMIT ?",
          2);
    }
    String blocked =
        dialect.supportsReturning()
            ? olderPending("c") + " OR " + keyInFlight("c")
            // MariaDB: on (queue, status, msg_key, id), named (see keyIndexed), two probes of one
            // entry each: is c its key's first pending row, and is a row of its key in flight.
            // An IN on the status would make each probe read every older row of the queue.
            : "c.id <> (SELECT o.id FROM "
                + keyIndexed("o")
                + " WHERE o.queue = c.queue AND o.status = 'PENDING'"
                + " AND o.msg_key = c.msg_key ORDER BY o.id LIMIT 1) OR "
                + keyInFlight("c");
    String eligible =
        "c.status = 'PENDING' AND c.available_at <= "
            + dialect.now()
            + " AND (c.msg_key IS NULL OR NOT ("
            + blocked
            + "))";
    return new Candidates(
        null,
        "SELECT c.id FROM ("
            + window
            + ") w JOIN "
            + messages
            + " c ON c.id = w.id WHERE "
            + eligible
            + " ORDER BY c.priority DESC, c.id LIMIT ?",
        2);
  }

  /**
   * Whether an older pending row of {@code row}'s key exists: one entry of the partial index
   * (queue, msg_key, id) of pending keyed rows (PostgreSQL, SQLite; schema V7), or of MariaDB's
   * (queue, status, msg_key, id). Rows in flight are {@link #keyInFlight}'s.
   */
  private String olderPending(String row) {
    if (dialect.supportsReturning()) {
      return "EXISTS (SELECT 1 FROM "
          + messages
          + " o WHERE o.queue = "
          + row
          + ".queue AND o.msg_key = "
          + row
          + ".msg_key AND o.id < "
          + row
          + ".id AND o.status = 'PENDING')";
    }
    // MariaDB: the key's first pending row, compared. Probed by (queue, status, msg_key) with
    // "o.id < row.id" as a filter, as MariaDB planned it, a head with no older row read its key's
    // whole pending backlog; as a scalar subquery for the reason keyInFlight gives.
    return "((SELECT o.id FROM "
        + keyIndexed("o")
        + " WHERE o.queue = "
        + row
        + ".queue AND o.status = 'PENDING'"
        + " AND o.msg_key = "
        + row
        + ".msg_key ORDER BY o.id LIMIT 1) < "
        + row
        + ".id)";
  }

  /**
   * PostgreSQL: the {@link #walkQuery walk} and, only if it found fewer than the limit, the {@link
   * #headsQuery key heads} it did not take, in one statement. The heads are a CTE read behind a
   * one-time filter on the walk's count, so a full walk never evaluates them (CTEs are evaluated
   * only as far as they are read). Parameters: the queue (twice) for the heads' keys, then the
   * walk's queue, window and limit, the heads' queue and limit, the limit for the count, then the
   * limit.
   */
  private Candidates walkThenHeads() {
    Candidates walk = walkQuery();
    Candidates heads = headsQuery("c.id NOT IN (SELECT id FROM walked)");
    return new Candidates(
        heads.recursive()
            + ", walked AS MATERIALIZED ("
            + walk.select()
            + "),"
            + " heads AS MATERIALIZED ("
            + heads.select()
            + ")",
        "SELECT id FROM walked UNION ALL SELECT id FROM heads WHERE (SELECT count(*) FROM walked) < ? LIMIT ?",
        8);
  }

  /**
   * Whether a row of {@code row}'s key is in flight, whatever its id: a replayed dead letter keeps
   * its old id, so the key's row in flight can be younger than its oldest pending one, and that one
   * must still wait (one row per key in flight, SPEC §6.2). One index entry: PostgreSQL's and
   * SQLite's partial index of in-flight keyed rows (schema V6), MariaDB's (queue, status, msg_key,
   * id). The key's unfinished rows in (queue, msg_key, id) would be its whole pending backlog.
   */
  private String keyInFlight(String row) {
    return keyInFlight(row, "");
  }

  /** {@link #keyInFlight(String)}, counting only the rows that also meet {@code also} (on f). */
  private String keyInFlight(String row, String also) {
    String probe =
        " WHERE f.queue = "
            + row
            + ".queue AND f.status = 'INFLIGHT' AND f.msg_key = "
            + row
            + ".msg_key"
            + also;
    if (dialect.supportsReturning()) {
      return "EXISTS (SELECT 1 FROM " + messages + " f" + probe + ")";
    }
    // MariaDB: a scalar subquery, not EXISTS. An EXISTS correlated by equalities alone is turned
    // into an IN (exists_to_in) and materialized: every in-flight entry of the index, of every
    // queue, read per claim (MariaDbClaimCostTest: 44,106 rows instead of about 4,100).
    return "((SELECT f.id FROM " + keyIndexed("f") + probe + " LIMIT 1) IS NOT NULL)";
  }

  /**
   * MariaDB: the messages table as {@code alias}, forced onto (queue, status, msg_key, id). On a
   * freshly filled table, before InnoDB's statistics caught up, the optimizer picked (queue,
   * status, id) for the key probes and a full index range for the per-key heads, each reading every
   * pending row of the queue (MariaDbClaimCostTest measured 500,499 and 40,991 rows).
   */
  private String keyIndexed(String alias) {
    return messages + " " + alias + " FORCE INDEX (" + keyIndex + ")";
  }

  /**
   * Each key's head, the oldest unfinished row of the key, if it is pending and available and no
   * row of its key is in flight (a replayed head can be older than that row); two index probes per
   * key with unfinished rows. Parameters: the queue (as often as {@link Candidates#bound}), the
   * limit.
   */
  private Candidates headsQuery() {
    return headsQuery("1 = 1");
  }

  /**
   * {@link #headsQuery()}, keeping only the rows that also meet {@code also} (a condition on c).
   */
  private Candidates headsQuery(String also) {
    String available =
        " AND c.available_at <= "
            + dialect.now()
            + " AND "
            + also
            + " ORDER BY c.priority DESC, c.id LIMIT ?";
    if (!dialect.supportsReturning()) {
      // MariaDB: the pending head per key by a loose index scan of (queue, status, msg_key, id)
      // (GROUP BY names the index's leading columns for that), then no row of its key in flight.
      // STRAIGHT_JOIN: the heads first, then each one's row; left to itself the optimizer scanned
      // every pending row of the queue as c and looked each up in the heads.
      return new Candidates(
          null,
          "SELECT STRAIGHT_JOIN c.id FROM (SELECT MIN(h.id) AS id FROM "
              + keyIndexed("h")
              + " WHERE h.queue = ? AND h.status = 'PENDING' GROUP BY h.queue, h.status, h.msg_key) k JOIN "
              + messages
              + " c ON c.id = k.id WHERE c.msg_key IS NOT NULL AND c.status = 'PENDING' AND NOT "
              + keyInFlight("c")
              + " AND c.queue = ?"
              + available,
          2);
    }
    // PostgreSQL and SQLite: the keys by a recursive skip scan of the partial index
    // (queue, msg_key, id) of pending keyed rows, then each key's first entry there, unless a row
    // of the key is in flight.
    String pending = " AND m.status = 'PENDING'";
    return new Candidates(
        "k(msg_key) AS ("
            + "SELECT (SELECT m.msg_key FROM "
            + messages
            + " m WHERE m.queue = ? AND m.msg_key IS NOT NULL"
            + pending
            + " ORDER BY m.queue, m.msg_key LIMIT 1)"
            + " UNION ALL SELECT (SELECT m.msg_key FROM "
            + messages
            + " m WHERE m.queue = ? AND m.msg_key > k.msg_key"
            + pending
            + " ORDER BY m.queue, m.msg_key LIMIT 1) FROM k WHERE k.msg_key IS NOT NULL)",
        "SELECT c.id FROM "
            + messages
            + " c WHERE c.id IN (SELECT (SELECT m.id FROM "
            + messages
            + " m WHERE m.queue = ? AND m.msg_key = k.msg_key"
            + pending
            + " ORDER BY m.queue, m.msg_key, m.id LIMIT 1)"
            + " FROM k WHERE k.msg_key IS NOT NULL) AND c.status = 'PENDING' AND NOT "
            + keyInFlight("c")
            + available
            + dialect.skipLocked(),
        3);
  }

  /**
   * The queue as one sequence: the oldest pending rows in id order, up to the first that is not yet
   * available; nothing while any row of the queue is in flight, whatever its id (a replayed dead
   * letter keeps its old id, so it can be older than the row in flight, and must wait for it). Two
   * index probes (PostgreSQL and SQLite: the in-flight index and the pending rows' (queue, id);
   * MariaDB: (queue, status, id) twice) and at most {@code max} rows read.
   */
  private List<Long> strictCandidates(Connection connection, ClaimRequest request)
      throws SQLException {
    // PostgreSQL and SQLite: the queue as a range, ordered by (queue, id), which only the partial
    // index (queue, id) of pending rows provides. With "queue = ? ORDER BY id" PostgreSQL's
    // planner took the primary key (in id order, filtering on the queue), which reads every older
    // row of every queue before the first of this one.
    String range =
        dialect.supportsReturning() ? "queue >= ? AND queue <= ?" : "queue = ? AND queue = ?";
    String order = dialect.supportsReturning() ? "queue, id" : "id";
    String sql =
        "SELECT id, CASE WHEN available_at <= "
            + dialect.now()
            + " THEN 1 ELSE 0 END AS ready"
            + " FROM "
            + messages
            + " WHERE "
            + range
            + " AND status = 'PENDING' AND NOT EXISTS (SELECT 1 FROM "
            + messages
            + " f WHERE f.queue = ? AND f.status = 'INFLIGHT') ORDER BY "
            + order
            + " LIMIT ?"
            + dialect.forUpdate();
    List<Long> ids = new ArrayList<>();
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setString(1, request.queue());
      statement.setString(2, request.queue());
      statement.setString(3, request.queue());
      statement.setInt(4, request.max());
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next() && rows.getInt("ready") == 1) {
          ids.add(rows.getLong("id"));
        }
      }
    }
    return ids;
  }

  /** The agent row names the guard's node at the guard's epoch; locked until commit on servers. */
  private boolean guardHolds(Connection connection, AgentGuard guard, boolean lock)
      throws SQLException {
    String sql =
        "SELECT 1 FROM "
            + agents
            + " WHERE agent_uri = ? AND owner_node = ? AND epoch = ?"
            + (lock ? dialect.forUpdate() : "");
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setString(1, guard.agent().toString());
      statement.setString(2, guard.nodeId());
      statement.setLong(3, guard.epoch());
      try (ResultSet rows = statement.executeQuery()) {
        return rows.next();
      }
    }
  }

  // ---- resolve ----

  @Override
  public ResolveResult resolve(List<Resolution> resolutions, @Nullable AgentGuard guard) {
    checkBatch(resolutions, "resolve");
    Set<Long> seen = new HashSet<>();
    for (Resolution resolution : resolutions) {
      if (!seen.add(resolution.claim().id())) {
        throw new IllegalArgumentException(
            "message " + resolution.claim().id() + " appears twice in one resolve");
      }
    }
    if (guard == null && resolvedAtOnce(resolutions)) {
      return new ResolveResult(List.copyOf(seen.stream().sorted().toList()), List.of(), false);
    }
    boolean terminal = resolutions.stream().anyMatch(r -> r.outcome().terminal());
    return jdbc.write(
        "resolve " + resolutions.size() + " messages",
        connection -> {
          List<Long> held = heldClaims(connection, resolutions);
          List<Long> lost =
              resolutions.stream()
                  .map(r -> r.claim().id())
                  .filter(id -> !held.contains(id))
                  .toList();
          if (guard != null && terminal && !guardHolds(connection, guard, true)) {
            // A demoted owner's re-pends land; its finishes go back, attempt given back (SPEC
            // §6.9).
            RefusedResolves.Rewrite rewrite =
                refused.rewrite(
                    resolutions.stream().filter(r -> held.contains(r.claim().id())).toList());
            apply(connection, rewrite.writes());
            return new ResolveResult(rewrite.landed(), lost, true);
          }
          if (!lost.isEmpty()) {
            return new ResolveResult(List.of(), lost, false);
          }
          apply(connection, resolutions);
          return new ResolveResult(List.copyOf(seen.stream().sorted().toList()), List.of(), false);
        },
        result -> result.lost().isEmpty() || result.guardRefused());
  }

  /**
   * The common case in one short transaction: every outcome done or released, every claim still
   * held. One statement per outcome and claim token (a consumer's batch comes from one or two
   * claims), each changing only rows still in flight under that token; if they change fewer rows
   * than asked, a claim was lost, and the transaction rolls back for the full path to find which.
   *
   * @return whether the outcomes were written
   */
  private boolean resolvedAtOnce(List<Resolution> resolutions) {
    Map<TokenGroup, List<Long>> statements = new LinkedHashMap<>();
    for (Resolution resolution : resolutions) {
      String set =
          switch (resolution.outcome()) {
            case Resolution.Done done when done.keep() ->
                "UPDATE "
                    + messages
                    + " SET status = 'DONE', finished_at = "
                    + dialect.now()
                    + ", "
                    + CLEARED_CLAIM;
            case Resolution.Done done -> "DELETE FROM " + messages;
            case Resolution.Release release ->
                "UPDATE "
                    + messages
                    + " SET status = 'PENDING', attempts = attempts - 1, "
                    + CLEARED_CLAIM;
            default -> null;
          };
      if (set == null) {
        return false;
      }
      statements
          .computeIfAbsent(new TokenGroup(set, resolution.claim().token()), k -> new ArrayList<>())
          .add(resolution.claim().id());
    }
    int expected = resolutions.size();
    int changed =
        jdbc.write(
            "resolve " + expected + " messages",
            connection -> {
              int rows = 0;
              for (Map.Entry<TokenGroup, List<Long>> entry : statements.entrySet()) {
                for (List<Long> chunk : chunks(entry.getValue())) {
                  try (PreparedStatement statement =
                      connection.prepareStatement(
                          entry.getKey().change()
                              + " WHERE status = 'INFLIGHT' AND "
                              + TOKEN_HOLDS
                              + " AND id IN ("
                              + marks(chunk.size())
                              + ")")) {
                    statement.setString(1, entry.getKey().token());
                    bindIds(statement, 2, chunk);
                    rows += statement.executeUpdate();
                  }
                }
              }
              return rows;
            },
            rows -> rows == expected);
    return changed == expected;
  }

  /** Outcomes written by one statement: the same change, under one claim token. */
  private record TokenGroup(String change, String token) {}

  /** Locks and returns the ids whose claims still hold. */
  private List<Long> heldClaims(Connection connection, List<Resolution> resolutions)
      throws SQLException {
    List<Long> held = new ArrayList<>();
    for (List<Resolution> chunk : chunks(resolutions)) {
      StringBuilder where = new StringBuilder();
      for (int i = 0; i < chunk.size(); i++) {
        where.append(i == 0 ? "" : " OR ").append("(id = ? AND " + TOKEN_HOLDS + ")");
      }
      String sql =
          "SELECT id FROM "
              + messages
              + " WHERE status = 'INFLIGHT' AND ("
              + where
              + ")"
              + dialect.forUpdate();
      try (PreparedStatement statement = connection.prepareStatement(sql)) {
        int index = 1;
        for (Resolution resolution : chunk) {
          statement.setLong(index++, resolution.claim().id());
          statement.setString(index++, resolution.claim().token());
        }
        held.addAll(ids(statement));
      }
    }
    return held;
  }

  /**
   * Writes the outcomes of claims {@link #heldClaims} locked: a statement per kind of outcome, not
   * per message (a batch of 500 done messages is one DELETE).
   */
  private void apply(Connection connection, List<Resolution> resolutions) throws SQLException {
    Map<Class<?>, List<Resolution>> byKind = new LinkedHashMap<>();
    resolutions.forEach(
        r -> byKind.computeIfAbsent(r.outcome().getClass(), k -> new ArrayList<>()).add(r));
    for (List<Resolution> group : byKind.values()) {
      List<Long> ids = group.stream().map(r -> r.claim().id()).toList();
      switch (group.get(0).outcome()) {
        case Resolution.Done done -> {
          java.util.function.Predicate<Resolution> keep =
              r -> ((Resolution.Done) r.outcome()).keep();
          byId(
              connection,
              "UPDATE "
                  + messages
                  + " SET status = 'DONE', finished_at = "
                  + dialect.now()
                  + ", "
                  + CLEARED_CLAIM
                  + " WHERE id IN ",
              group.stream().filter(keep).map(r -> r.claim().id()).toList());
          byId(
              connection,
              "DELETE FROM " + messages + " WHERE id IN ",
              group.stream().filter(keep.negate()).map(r -> r.claim().id()).toList());
        }
        case Resolution.Release release ->
            byId(
                connection,
                "UPDATE "
                    + messages
                    + " SET status = 'PENDING', attempts = attempts - 1, "
                    + CLEARED_CLAIM
                    + " WHERE id IN ",
                ids);
        case Resolution.Retry retry ->
            batch(
                connection,
                "SET status = 'PENDING', finished_at = NULL, available_at = "
                    + dialect.nowPlusMicros()
                    + ", last_error = ?, "
                    + CLEARED_CLAIM,
                group,
                (statement, r) -> {
                  Resolution.Retry again = (Resolution.Retry) r.outcome();
                  statement.setLong(1, micros(again.in()));
                  statement.setString(2, again.error());
                });
        case Resolution.DeadLetter dead ->
            batch(
                connection,
                "SET status = 'DEAD', finished_at = "
                    + dialect.now()
                    + ", last_error = ?, "
                    + CLEARED_CLAIM,
                group,
                (statement, r) ->
                    statement.setString(1, ((Resolution.DeadLetter) r.outcome()).error()));
        case Resolution.Reschedule snooze ->
            batch(
                connection,
                "SET status = 'PENDING', attempts = attempts - 1, available_at = "
                    + dialect.nowPlusMicros()
                    + ", "
                    + CLEARED_CLAIM,
                group,
                (statement, r) ->
                    statement.setLong(1, micros(((Resolution.Reschedule) r.outcome()).in())));
      }
    }
  }

  /**
   * Runs {@code statement} (ending in {@code id IN }) over the ids, in chunks.
   *
   * @return the rows it changed
   */
  private static int byId(Connection connection, String statement, List<Long> ids)
      throws SQLException {
    int changed = 0;
    for (List<Long> chunk : chunks(ids)) {
      try (PreparedStatement change =
          connection.prepareStatement(statement + "(" + marks(chunk.size()) + ")")) {
        bindIds(change, 1, chunk);
        changed += change.executeUpdate();
      }
    }
    return changed;
  }

  /** One JDBC batch of {@code UPDATE messages <set> WHERE id = ?}, one entry per resolution. */
  private void batch(Connection connection, String set, List<Resolution> group, EntryBinder binder)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement("UPDATE " + messages + " " + set + " WHERE id = ?")) {
      int idIndex = countParameters(set) + 1;
      for (Resolution resolution : group) {
        binder.bind(statement, resolution);
        statement.setLong(idIndex, resolution.claim().id());
        statement.addBatch();
      }
      statement.executeBatch();
    }
  }

  @FunctionalInterface
  private interface EntryBinder {
    void bind(PreparedStatement statement, Resolution resolution) throws SQLException;
  }

  private static int countParameters(String sql) {
    return (int) sql.chars().filter(c -> c == '?').count();
  }

  @Override
  public boolean extend(MessageClaim claim, Duration lease) {
    io.tenure.Limits.checkPositive("lease", lease, io.tenure.Limits.MAX_DURATION);
    String sql =
        "UPDATE "
            + messages
            + " SET lease_until = "
            + dialect.nowPlusMicros()
            + " WHERE id = ? AND claim_token = ? AND status = 'INFLIGHT'";
    return jdbc.write(
        "extend the lease of message " + claim.id(),
        connection -> {
          try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setLong(1, micros(lease));
            statement.setLong(2, claim.id());
            statement.setString(3, claim.token());
            return statement.executeUpdate() == 1;
          }
        });
  }

  // ---- reclaim, admin, retention ----

  @Override
  public int reclaimExpired(int limit) {
    checkLimit(limit);
    if (dialect.writesOneAtATime() && !idleReads.anyExpired()) {
      return 0;
    }
    String select = expiredQuery();
    return jdbc.write(
        "reclaim expired messages",
        connection -> {
          List<Long> ids;
          try (PreparedStatement statement = connection.prepareStatement(select)) {
            for (int i = 1; i <= countParameters(select); i++) {
              statement.setInt(i, limit);
            }
            ids = ids(statement);
          }
          if (ids.isEmpty()) {
            return 0;
          }
          String update =
              "UPDATE "
                  + messages
                  + " SET"
                  + " last_error = CASE WHEN attempts >= max_attempts THEN ? ELSE last_error END,"
                  + " finished_at = CASE WHEN attempts >= max_attempts THEN "
                  + dialect.now()
                  + " ELSE NULL END,"
                  + " available_at = CASE WHEN attempts >= max_attempts THEN available_at ELSE "
                  + dialect.now()
                  + " END,"
                  + " status = CASE WHEN attempts >= max_attempts THEN 'DEAD' ELSE 'PENDING' END, "
                  + CLEARED_CLAIM
                  + " WHERE status = 'INFLIGHT' AND lease_until < "
                  + dialect.now()
                  + " AND id IN ("
                  + marks(ids.size())
                  + ")";
          try (PreparedStatement statement = connection.prepareStatement(update)) {
            statement.setString(1, "lease expired on its last attempt");
            bindIds(statement, 2, ids);
            return statement.executeUpdate();
          }
        });
  }

  /**
   * The in-flight rows whose lease expired, oldest lease first, skipping rows a peer holds; every
   * parameter is the limit. PostgreSQL and SQLite index in-flight rows by (queue, lease_until)
   * (schema V7), so the queues with rows in flight come from a recursive skip scan of that index,
   * then each queue's expired range: the cost is one probe per such queue plus the expired rows,
   * not every row in flight.
   */
  private String expiredQuery() {
    String expired = " m.status = 'INFLIGHT' AND m.lease_until < " + dialect.now();
    if (!dialect.supportsReturning()) {
      return "SELECT id FROM "
          + messages
          + " m WHERE"
          + expired
          + " ORDER BY m.lease_until LIMIT ?"
          + dialect.skipLocked();
    }
    String queues =
        "WITH RECURSIVE q(queue) AS (SELECT (SELECT f.queue FROM "
            + messages
            + " f WHERE f.status ="
            + " 'INFLIGHT' ORDER BY f.queue LIMIT 1) UNION ALL SELECT (SELECT f.queue FROM "
            + messages
            + " f WHERE"
            + " f.status = 'INFLIGHT' AND f.queue > q.queue ORDER BY f.queue LIMIT 1) FROM q WHERE q.queue IS NOT NULL) ";
    if (dialect.supportsLateral()) {
      // Each queue's range by its own index scan: left to an IN over the queues, the planner read
      // the whole in-flight index for the lease condition.
      return queues
          + "SELECT e.id FROM q CROSS JOIN LATERAL (SELECT m.id, m.lease_until FROM "
          + messages
          + " m WHERE m.queue = q.queue AND"
          + expired
          + " ORDER BY m.lease_until LIMIT ?"
          + dialect.skipLocked()
          + ") e WHERE q.queue IS NOT NULL ORDER BY e.lease_until LIMIT ?";
    }
    return queues
        + "SELECT id FROM "
        + messages
        + " m WHERE m.queue IN (SELECT queue FROM q WHERE queue IS NOT NULL)"
        + " AND"
        + expired
        + " ORDER BY m.lease_until LIMIT ?";
  }

  private static void checkLimit(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1, got " + limit);
    }
  }

  @Override
  public Optional<QueueMessage> find(long id) {
    return jdbc.read(
        "read message " + id,
        connection ->
            select(connection, "WHERE id = ?", s -> s.setLong(1, id)).stream().findFirst());
  }

  @Override
  public List<QueueMessage> list(MessageQuery query) {
    Filter filter = filter(query, query.status());
    return jdbc.read(
        "list messages of queue " + query.queue(),
        connection ->
            select(
                connection,
                "WHERE " + filter.where() + " AND id > ? ORDER BY id LIMIT " + query.limit(),
                s -> {
                  int next = filter.bind(s);
                  s.setLong(next, query.afterId());
                }));
  }

  /**
   * A replay (SPEC §6.7) locks its dead rows, then their keys' ({@link #lockKeys}), then re-pends
   * them; every replay locks in that order, so two never wait on each other in a cycle.
   */
  @Override
  public int replay(MessageQuery deadLetters) {
    Filter filter = filter(deadLetters, MessageStatus.DEAD);
    return jdbc.write(
        "replay dead letters of queue " + deadLetters.queue(),
        connection -> {
          List<Dead> dead =
              lockDead(
                  connection,
                  filter.where() + " ORDER BY id LIMIT " + deadLetters.limit(),
                  filter::bind);
          lockKeys(connection, deadLetters.queue(), dead.stream().map(Dead::key).toList());
          return byId(
              connection,
              replaySet() + " WHERE status = 'DEAD' AND id IN ",
              dead.stream().map(Dead::id).toList());
        });
  }

  /**
   * Runs {@code statement} (ending in {@code id IN }) over the oldest {@code limit} rows matching
   * the filter, in chunks: MariaDB cannot limit a subquery of the table it changes.
   */
  private int forMatching(Connection connection, Filter filter, int limit, String statement)
      throws SQLException {
    List<Long> ids;
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT id FROM "
                + messages
                + " WHERE "
                + filter.where()
                + " ORDER BY id LIMIT "
                + limit
                + dialect.forUpdate())) {
      filter.bind(select);
      ids = ids(select);
    }
    return byId(connection, statement, ids);
  }

  @Override
  public boolean replay(long id) {
    return jdbc.write(
        "replay message " + id,
        connection -> {
          List<Dead> dead =
              lockDead(connection, "id = ? AND status = 'DEAD'", s -> s.setLong(1, id));
          if (dead.isEmpty()) {
            return false;
          }
          lockKeys(connection, dead.get(0).queue(), dead.stream().map(Dead::key).toList());
          try (PreparedStatement statement =
              connection.prepareStatement(replaySet() + " WHERE id = ? AND status = 'DEAD'")) {
            statement.setLong(1, id);
            return statement.executeUpdate() == 1;
          }
        });
  }

  private String replaySet() {
    return "UPDATE "
        + messages
        + " SET status = 'PENDING', attempts = 0, available_at = "
        + dialect.now()
        + ", finished_at = NULL";
  }

  /** A dead letter to replay: its id, queue and key (a row's key never changes). */
  private record Dead(long id, String queue, @Nullable String key) {}

  /**
   * Reads, and on servers locks, the rows meeting {@code where} (a condition, maybe ordered and
   * limited).
   */
  private List<Dead> lockDead(Connection connection, String where, Binder binder)
      throws SQLException {
    List<Dead> dead = new ArrayList<>();
    try (PreparedStatement statement =
        connection.prepareStatement(
            "SELECT id, queue, msg_key FROM "
                + messages
                + " WHERE "
                + where
                + dialect.forUpdate())) {
      binder.bind(statement);
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          dead.add(
              new Dead(rows.getLong("id"), rows.getString("queue"), rows.getString("msg_key")));
        }
      }
    }
    return dead;
  }

  /**
   * Before a replay re-pends keyed dead letters, locks every pending and in-flight row of their
   * keys, waiting for the holders. A claim holds the key's next row, locked, from choosing it until
   * it commits; a replay that committed in between let a peer's claim read the replayed (older)
   * message as the key's head while that row still read as pending, and take it: two of the key in
   * flight (SPEC §6.2). Waiting here, the replay commits after the claim, so whoever reads the
   * replayed message as pending also reads the key's row in flight. A claim whose snapshot predates
   * a replay that committed before it locked the row is {@link #giveBackOvertaken}'s. Keys in
   * sorted order, each key's rows in id order (PostgreSQL locks in its ORDER BY's order; InnoDB in
   * its index order, status then id, which is as fixed), so two replays never wait on each other in
   * a cycle. (A resolve, or an exclusive queue's claim, that holds rows of two keys locks them in
   * id order, so with a replay of both keys it can deadlock; the database detects that and the
   * loser is retried as contention.) Unkeyed rows have nothing to lock; on SQLite no peer runs
   * meanwhile.
   */
  private void lockKeys(Connection connection, String queue, List<@Nullable String> keys)
      throws SQLException {
    Set<String> sorted = new java.util.TreeSet<>();
    keys.stream().filter(java.util.Objects::nonNull).forEach(sorted::add);
    if (sorted.isEmpty() || dialect.writesOneAtATime()) {
      return;
    }
    // An OR, not an IN: PostgreSQL matches each arm to its partial index (pending keyed rows, keyed
    // rows in flight), where an IN made it scan the table.
    String table = dialect.supportsReturning() ? messages + " m" : keyIndexed("m");
    try (PreparedStatement statement =
        connection.prepareStatement(
            "SELECT m.id FROM "
                + table
                + " WHERE m.queue = ?"
                + " AND (m.status = 'PENDING' OR m.status = 'INFLIGHT') AND m.msg_key = ? ORDER BY m.id"
                + dialect.forUpdate())) {
      for (String key : sorted) {
        statement.setString(1, queue);
        statement.setString(2, key);
        ids(statement);
      }
    }
  }

  @Override
  public int purge(MessageQuery deadLetters) {
    Filter filter = filter(deadLetters, MessageStatus.DEAD);
    return jdbc.write(
        "purge dead letters of queue " + deadLetters.queue(),
        connection ->
            forMatching(
                connection,
                filter,
                deadLetters.limit(),
                "DELETE FROM " + messages + " WHERE status = 'DEAD' AND id IN "));
  }

  @Override
  public int deleteExpired(String queue, Duration doneFor, Duration deadFor, int limit) {
    checkLimit(limit);
    return jdbc.write(
        "delete expired messages of queue " + queue,
        connection ->
            deleteFinished(connection, queue, MessageStatus.DONE, doneFor, limit)
                + deleteFinished(connection, queue, MessageStatus.DEAD, deadFor, limit));
  }

  private int deleteFinished(
      Connection connection, String queue, MessageStatus status, Duration age, int limit)
      throws SQLException {
    List<Long> ids;
    // The status as a literal: a partial index (messages_finished) serves only a statement whose
    // own text implies its predicate.
    try (PreparedStatement statement =
        connection.prepareStatement(
            "SELECT id FROM "
                + messages
                + " WHERE queue = ? AND status = '"
                + status.name()
                + "' AND finished_at <= "
                + dialect.nowMinusMicros()
                + " ORDER BY id LIMIT ?")) {
      statement.setString(1, queue);
      statement.setLong(2, micros(age));
      statement.setInt(3, limit);
      ids = ids(statement);
    }
    return byId(
        connection,
        "DELETE FROM " + messages + " WHERE status = '" + status.name() + "' AND id IN ",
        ids);
  }

  @Override
  public List<QueueStats> stats() {
    return stats.read();
  }

  /** The statement behind {@link #stats()}, for EXPLAIN and the benchmark. */
  public String statsStatement() {
    return stats.sql();
  }

  // ---- helpers ----

  /** A WHERE clause for a query and its binder. */
  private record Filter(String where, List<Object> arguments) {
    int bind(PreparedStatement statement) throws SQLException {
      int index = 1;
      for (Object argument : arguments) {
        if (argument instanceof Duration age) {
          statement.setLong(index++, micros(age));
        } else {
          statement.setObject(index++, argument);
        }
      }
      return index;
    }
  }

  private Filter filter(MessageQuery query, @Nullable MessageStatus status) {
    StringBuilder where = new StringBuilder("queue = ?");
    List<Object> arguments = new ArrayList<>(List.of(query.queue()));
    if (status != null) {
      // A literal (an enum's name), so the status's partial index serves the query.
      where.append(" AND status = '").append(status.name()).append("'");
    }
    if (query.key() != null) {
      where.append(" AND msg_key = ?");
      arguments.add(query.key());
    }
    if (query.errorContains() != null) {
      // Plain substring: no LIKE wildcards from the caller's text.
      where
          .append(" AND last_error IS NOT NULL AND ")
          .append(dialect.position("last_error"))
          .append(" > 0");
      arguments.add(query.errorContains());
    }
    if (query.olderThan() != null) {
      where.append(" AND created_at <= ").append(dialect.nowMinusMicros());
      arguments.add(query.olderThan());
    }
    return new Filter(where.toString(), arguments);
  }

  private List<QueueMessage> select(Connection connection, String clause, Binder binder)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement("SELECT " + COLUMNS + " FROM " + messages + " " + clause)) {
      binder.bind(statement);
      return messages(statement);
    }
  }

  private List<QueueMessage> messages(PreparedStatement statement) throws SQLException {
    List<QueueMessage> found = new ArrayList<>();
    try (ResultSet rows = statement.executeQuery()) {
      while (rows.next()) {
        found.add(message(rows));
      }
    }
    return found;
  }

  private QueueMessage message(ResultSet rows) throws SQLException {
    return new QueueMessage(
        rows.getLong("id"),
        rows.getString("queue"),
        rows.getString("msg_key"),
        rows.getBytes("payload"),
        rows.getString("content_type"),
        Headers.decode(rows.getString("headers")),
        rows.getInt("priority"),
        rows.getInt("attempts"),
        rows.getInt("max_attempts"),
        dialect.getInstant(rows, "available_at"),
        MessageStatus.valueOf(rows.getString("status")),
        rows.getString("owner_node"),
        rows.getString("claim_token"),
        instantOrNull(rows, "lease_until"),
        rows.getString("last_error"),
        dialect.getInstant(rows, "created_at"),
        instantOrNull(rows, "finished_at"),
        rows.getString("dedupe_key"));
  }

  private @Nullable Instant instantOrNull(ResultSet rows, String column) throws SQLException {
    return rows.getObject(column) == null ? null : dialect.getInstant(rows, column);
  }

  private static List<Long> ids(PreparedStatement statement) throws SQLException {
    List<Long> ids = new ArrayList<>();
    try (ResultSet rows = statement.executeQuery()) {
      while (rows.next()) {
        ids.add(rows.getLong(1));
      }
    }
    return ids;
  }

  private static String marks(int count) {
    return String.join(", ", Collections.nCopies(count, "?"));
  }

  private static void bindIds(PreparedStatement statement, int first, List<Long> ids)
      throws SQLException {
    for (int i = 0; i < ids.size(); i++) {
      statement.setLong(first + i, ids.get(i));
    }
  }

  private static <T> List<List<T>> chunks(List<T> all) {
    List<List<T>> chunks = new ArrayList<>();
    for (int from = 0; from < all.size(); from += 250) {
      chunks.add(all.subList(from, Math.min(all.size(), from + 250)));
    }
    return chunks;
  }

  private static long micros(Duration duration) {
    return duration.toNanos() / 1_000;
  }

  @FunctionalInterface
  private interface Binder {
    void bind(PreparedStatement statement) throws SQLException;
  }

  /** Headers as text: one {@code name=value} per line, both URL-encoded, sorted by name. */
  static final class Headers {
    private Headers() {}

    static String encode(Map<String, String> headers) {
      StringBuilder text = new StringBuilder();
      new java.util.TreeMap<>(headers)
          .forEach(
              (name, value) ->
                  text.append(text.isEmpty() ? "" : "\n")
                      .append(
                          java.net.URLEncoder.encode(name, java.nio.charset.StandardCharsets.UTF_8))
                      .append('=')
                      .append(
                          java.net.URLEncoder.encode(
                              value, java.nio.charset.StandardCharsets.UTF_8)));
      return text.toString();
    }

    static Map<String, String> decode(String text) {
      Map<String, String> headers = new LinkedHashMap<>();
      if (text == null || text.isEmpty()) {
        return headers;
      }
      for (String line : text.split("\n")) {
        int equals = line.indexOf('=');
        headers.put(
            java.net.URLDecoder.decode(
                line.substring(0, equals), java.nio.charset.StandardCharsets.UTF_8),
            java.net.URLDecoder.decode(
                line.substring(equals + 1), java.nio.charset.StandardCharsets.UTF_8));
      }
      return headers;
    }
  }
}
