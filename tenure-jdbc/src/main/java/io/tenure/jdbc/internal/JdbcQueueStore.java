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
  private static final String COLUMNS = "id, queue, msg_key, payload, content_type, headers, priority, attempts,"
      + " max_attempts, available_at, status, owner_node, claim_token, lease_until, last_error, created_at,"
      + " finished_at, dedupe_key";
  private static final String CLEARED_CLAIM = "owner_node = NULL, claim_token = NULL, lease_until = NULL";

  private final Jdbc jdbc;
  private final Dialect dialect;
  private final String messages;
  private final String agents;

  public JdbcQueueStore(Jdbc jdbc, TablePrefix prefix) {
    this.jdbc = jdbc;
    this.dialect = jdbc.dialect();
    this.messages = prefix.table("messages");
    this.agents = prefix.table("agents");
  }

  // ---- enqueue ----

  @Override
  public List<EnqueueResult> enqueue(List<NewMessage> batch) {
    checkBatch(batch, "enqueue");
    return jdbc.write("enqueue " + batch.size() + " messages to " + batch.get(0).queue(),
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
          what + " takes 1 to " + MAX_BATCH + " messages, got " + (batch == null ? "null" : batch.size()));
    }
  }

  private List<EnqueueResult> insertAll(Connection connection, List<NewMessage> batch) throws SQLException {
    List<EnqueueResult> results = new ArrayList<>(batch.size());
    for (NewMessage message : batch) {
      results.add(insert(connection, message));
    }
    return results;
  }

  private EnqueueResult insert(Connection connection, NewMessage message) throws SQLException {
    String columns = "queue, msg_key, payload, content_type, headers, priority, attempts, max_attempts,"
        + " available_at, status, created_at, dedupe_key";
    String values = "?, ?, ?, ?, ?, ?, 0, ?, " + dialect.nowPlusMicros() + ", 'PENDING', " + dialect.now() + ", ?";
    boolean deduped = message.dedupeKey() != null;
    if (dialect.supportsReturning()) {
      String sql = (deduped ? dialect.insertIfAbsent(messages, columns, values, "queue, dedupe_key")
          : "INSERT INTO " + messages + " (" + columns + ") VALUES (" + values + ")") + " RETURNING id";
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
    try (PreparedStatement statement = connection.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS)) {
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
    statement.setString(1, message.queue());
    statement.setString(2, message.key());
    statement.setBytes(3, message.payload());
    statement.setString(4, message.contentType());
    statement.setString(5, Headers.encode(message.headers()));
    statement.setInt(6, message.priority());
    statement.setInt(7, message.maxAttempts());
    statement.setLong(8, micros(message.delay()));
    statement.setString(9, message.dedupeKey());
  }

  private long existing(Connection connection, NewMessage message) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(
        "SELECT id FROM " + messages + " WHERE queue = ? AND dedupe_key = ?")) {
      statement.setString(1, message.queue());
      statement.setString(2, message.dedupeKey());
      try (ResultSet rows = statement.executeQuery()) {
        if (!rows.next()) {
          throw new IllegalStateException("message with dedupe key " + message.dedupeKey()
              + " was neither inserted nor found, which indicates a bug");
        }
        return rows.getLong(1);
      }
    }
  }

  // ---- claim ----

  @Override
  public List<QueueMessage> claim(ClaimRequest request) {
    return jdbc.write("claim from queue " + request.queue(), connection -> {
      if (request.guard() != null && !guardHolds(connection, request.guard(), true)) {
        return List.<QueueMessage>of();
      }
      List<Long> ids = request.strict() ? strictCandidates(connection, request) : candidates(connection, request);
      if (ids.isEmpty()) {
        return List.<QueueMessage>of();
      }
      String token = UUID.randomUUID().toString();
      String update = "UPDATE " + messages + " SET status = 'INFLIGHT', owner_node = ?, claim_token = ?,"
          + " lease_until = " + dialect.nowPlusMicros() + ", attempts = attempts + 1"
          + " WHERE status = 'PENDING' AND id IN (" + marks(ids.size()) + ")";
      try (PreparedStatement statement = connection.prepareStatement(update)) {
        statement.setString(1, request.nodeId());
        statement.setString(2, token);
        statement.setLong(3, micros(request.lease()));
        bindIds(statement, 4, ids);
        statement.executeUpdate();
      }
      List<QueueMessage> claimed = new ArrayList<>(select(connection, "WHERE claim_token = ? AND id IN ("
          + marks(ids.size()) + ")", s -> {
            s.setString(1, token);
            bindIds(s, 2, ids);
          }));
      Map<Long, Integer> order = new LinkedHashMap<>();
      ids.forEach(id -> order.put(id, order.size()));
      claimed.sort(Comparator.comparing(m -> order.get(m.id())));
      return List.copyOf(claimed);
    });
  }

  /** Available pending rows, highest priority then oldest; a key's younger rows wait for its head. */
  private List<Long> candidates(Connection connection, ClaimRequest request) throws SQLException {
    String sql = "SELECT c.id FROM " + messages + " c WHERE c.queue = ? AND c.status = 'PENDING'"
        + " AND c.available_at <= " + dialect.now()
        + " AND (c.msg_key IS NULL OR NOT EXISTS (SELECT 1 FROM " + messages + " o WHERE o.queue = c.queue"
        + " AND o.msg_key = c.msg_key AND o.id < c.id AND o.status IN ('PENDING', 'INFLIGHT')))"
        + " ORDER BY c.priority DESC, c.id LIMIT ?" + dialect.skipLocked();
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setString(1, request.queue());
      statement.setInt(2, request.max());
      return ids(statement);
    }
  }

  /**
   * The queue as one sequence: the oldest unfinished rows in id order, up to the first that is in
   * flight or not yet available; nothing if the oldest is in flight.
   */
  private List<Long> strictCandidates(Connection connection, ClaimRequest request) throws SQLException {
    String sql = "SELECT id, status, CASE WHEN available_at <= " + dialect.now() + " THEN 1 ELSE 0 END AS ready"
        + " FROM " + messages + " WHERE queue = ? AND status IN ('PENDING', 'INFLIGHT') ORDER BY id LIMIT ?"
        + dialect.forUpdate();
    List<Long> ids = new ArrayList<>();
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setString(1, request.queue());
      statement.setInt(2, request.max());
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          if (!"PENDING".equals(rows.getString("status")) || rows.getInt("ready") != 1) {
            break;
          }
          ids.add(rows.getLong("id"));
        }
      }
    }
    return ids;
  }

  /** The agent row names the guard's node at the guard's epoch; locked until commit on servers. */
  private boolean guardHolds(Connection connection, AgentGuard guard, boolean lock) throws SQLException {
    String sql = "SELECT 1 FROM " + agents + " WHERE agent_uri = ? AND owner_node = ? AND epoch = ?"
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
        throw new IllegalArgumentException("message " + resolution.claim().id() + " appears twice in one resolve");
      }
    }
    boolean terminal = resolutions.stream().anyMatch(r -> r.outcome().terminal());
    return jdbc.write("resolve " + resolutions.size() + " messages", connection -> {
      List<Long> held = heldClaims(connection, resolutions);
      List<Long> lost = resolutions.stream().map(r -> r.claim().id()).filter(id -> !held.contains(id)).toList();
      if (guard != null && terminal && !guardHolds(connection, guard, true)) {
        // A demoted owner's messages go back at once, never left in flight for nobody.
        repend(connection, resolutions.stream().filter(r -> held.contains(r.claim().id())).toList());
        return new ResolveResult(List.of(), lost, true);
      }
      if (!lost.isEmpty()) {
        return new ResolveResult(List.of(), lost, false);
      }
      for (Resolution resolution : resolutions) {
        apply(connection, resolution);
      }
      return new ResolveResult(List.copyOf(seen.stream().sorted().toList()), List.of(), false);
    }, result -> result.lost().isEmpty() || result.guardRefused());
  }

  /** Locks and returns the ids whose claims still hold. */
  private List<Long> heldClaims(Connection connection, List<Resolution> resolutions) throws SQLException {
    List<Long> held = new ArrayList<>();
    for (List<Resolution> chunk : chunks(resolutions)) {
      StringBuilder where = new StringBuilder();
      for (int i = 0; i < chunk.size(); i++) {
        where.append(i == 0 ? "" : " OR ").append("(id = ? AND claim_token = ?)");
      }
      String sql = "SELECT id FROM " + messages + " WHERE status = 'INFLIGHT' AND (" + where + ")"
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

  private void repend(Connection connection, List<Resolution> resolutions) throws SQLException {
    for (Resolution resolution : resolutions) {
      update(connection, "SET status = 'PENDING', " + CLEARED_CLAIM, resolution.claim(), s -> {});
    }
  }

  private void apply(Connection connection, Resolution resolution) throws SQLException {
    MessageClaim claim = resolution.claim();
    switch (resolution.outcome()) {
      case Resolution.Done done -> {
        if (done.keep()) {
          update(connection, "SET status = 'DONE', finished_at = " + dialect.now() + ", " + CLEARED_CLAIM,
              claim, s -> {});
        } else {
          try (PreparedStatement statement = connection.prepareStatement(
              "DELETE FROM " + messages + " WHERE id = ? AND claim_token = ?")) {
            statement.setLong(1, claim.id());
            statement.setString(2, claim.token());
            statement.executeUpdate();
          }
        }
      }
      case Resolution.Failed failed -> update(connection,
          "SET status = CASE WHEN attempts >= max_attempts THEN 'DEAD' ELSE 'PENDING' END,"
              + " finished_at = CASE WHEN attempts >= max_attempts THEN " + dialect.now() + " ELSE NULL END,"
              + " available_at = CASE WHEN attempts >= max_attempts THEN available_at ELSE "
              + dialect.nowPlusMicros() + " END, last_error = ?, " + CLEARED_CLAIM,
          claim, s -> {
            s.setLong(1, micros(failed.retryIn()));
            s.setString(2, failed.error());
          });
      case Resolution.DeadLetter dead -> update(connection,
          "SET status = 'DEAD', finished_at = " + dialect.now() + ", last_error = ?, " + CLEARED_CLAIM,
          claim, s -> s.setString(1, dead.error()));
      case Resolution.Release release -> update(connection,
          "SET status = 'PENDING', attempts = attempts - 1, " + CLEARED_CLAIM, claim, s -> {});
      case Resolution.Reschedule snooze -> update(connection,
          "SET status = 'PENDING', attempts = attempts - 1, available_at = " + dialect.nowPlusMicros() + ", "
              + CLEARED_CLAIM,
          claim, s -> s.setLong(1, micros(snooze.in())));
    }
  }

  /** {@code UPDATE messages <set> WHERE id = ? AND claim_token = ?}; {@code binder} binds the set's parameters. */
  private void update(Connection connection, String set, MessageClaim claim, Binder binder) throws SQLException {
    String sql = "UPDATE " + messages + " " + set + " WHERE id = ? AND claim_token = ?";
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      binder.bind(statement);
      int next = countParameters(set) + 1;
      statement.setLong(next, claim.id());
      statement.setString(next + 1, claim.token());
      statement.executeUpdate();
    }
  }

  private static int countParameters(String sql) {
    return (int) sql.chars().filter(c -> c == '?').count();
  }

  @Override
  public boolean extend(MessageClaim claim, Duration lease) {
    if (lease == null || lease.isNegative() || lease.isZero()) {
      throw new IllegalArgumentException("lease must be positive, got " + lease);
    }
    String sql = "UPDATE " + messages + " SET lease_until = " + dialect.nowPlusMicros()
        + " WHERE id = ? AND claim_token = ? AND status = 'INFLIGHT'";
    return jdbc.write("extend the lease of message " + claim.id(), connection -> {
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
    String select = "SELECT id FROM " + messages + " WHERE status = 'INFLIGHT' AND lease_until < " + dialect.now()
        + " ORDER BY lease_until LIMIT ?" + dialect.skipLocked();
    return jdbc.write("reclaim expired messages", connection -> {
      List<Long> ids;
      try (PreparedStatement statement = connection.prepareStatement(select)) {
        statement.setInt(1, limit);
        ids = ids(statement);
      }
      if (ids.isEmpty()) {
        return 0;
      }
      String update = "UPDATE " + messages + " SET"
          + " last_error = CASE WHEN attempts >= max_attempts THEN ? ELSE last_error END,"
          + " finished_at = CASE WHEN attempts >= max_attempts THEN " + dialect.now() + " ELSE NULL END,"
          + " available_at = CASE WHEN attempts >= max_attempts THEN available_at ELSE " + dialect.now() + " END,"
          + " status = CASE WHEN attempts >= max_attempts THEN 'DEAD' ELSE 'PENDING' END, " + CLEARED_CLAIM
          + " WHERE status = 'INFLIGHT' AND lease_until < " + dialect.now() + " AND id IN (" + marks(ids.size()) + ")";
      try (PreparedStatement statement = connection.prepareStatement(update)) {
        statement.setString(1, "lease expired on its last attempt");
        bindIds(statement, 2, ids);
        return statement.executeUpdate();
      }
    });
  }

  private static void checkLimit(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1, got " + limit);
    }
  }

  @Override
  public Optional<QueueMessage> find(long id) {
    return jdbc.read("read message " + id, connection ->
        select(connection, "WHERE id = ?", s -> s.setLong(1, id)).stream().findFirst());
  }

  @Override
  public List<QueueMessage> list(MessageQuery query) {
    Filter filter = filter(query, query.status());
    return jdbc.read("list messages of queue " + query.queue(), connection -> select(connection,
        "WHERE " + filter.where() + " AND id > ? ORDER BY id LIMIT " + query.limit(), s -> {
          int next = filter.bind(s);
          s.setLong(next, query.afterId());
        }));
  }

  @Override
  public int replay(MessageQuery deadLetters) {
    Filter filter = filter(deadLetters, MessageStatus.DEAD);
    return jdbc.write("replay dead letters of queue " + deadLetters.queue(), connection ->
        forMatching(connection, filter, deadLetters.limit(), "UPDATE " + messages + " SET status = 'PENDING',"
            + " attempts = 0, available_at = " + dialect.now() + ", finished_at = NULL WHERE status = 'DEAD' AND id IN "));
  }

  /**
   * Runs {@code statement} (ending in {@code id IN }) over the oldest {@code limit} rows matching
   * the filter, in chunks: MariaDB cannot limit a subquery of the table it changes.
   */
  private int forMatching(Connection connection, Filter filter, int limit, String statement) throws SQLException {
    List<Long> ids;
    try (PreparedStatement select = connection.prepareStatement(
        "SELECT id FROM " + messages + " WHERE " + filter.where() + " ORDER BY id LIMIT " + limit + dialect.forUpdate())) {
      filter.bind(select);
      ids = ids(select);
    }
    int changed = 0;
    for (List<Long> chunk : chunks(ids)) {
      try (PreparedStatement change = connection.prepareStatement(statement + "(" + marks(chunk.size()) + ")")) {
        bindIds(change, 1, chunk);
        changed += change.executeUpdate();
      }
    }
    return changed;
  }

  @Override
  public boolean replay(long id) {
    String sql = "UPDATE " + messages + " SET status = 'PENDING', attempts = 0, available_at = " + dialect.now()
        + ", finished_at = NULL WHERE id = ? AND status = 'DEAD'";
    return jdbc.write("replay message " + id, connection -> {
      try (PreparedStatement statement = connection.prepareStatement(sql)) {
        statement.setLong(1, id);
        return statement.executeUpdate() == 1;
      }
    });
  }

  @Override
  public int purge(MessageQuery deadLetters) {
    Filter filter = filter(deadLetters, MessageStatus.DEAD);
    return jdbc.write("purge dead letters of queue " + deadLetters.queue(), connection ->
        forMatching(connection, filter, deadLetters.limit(),
            "DELETE FROM " + messages + " WHERE status = 'DEAD' AND id IN "));
  }

  @Override
  public int deleteExpired(String queue, Duration doneFor, Duration deadFor, int limit) {
    checkLimit(limit);
    return jdbc.write("delete expired messages of queue " + queue, connection ->
        deleteFinished(connection, queue, MessageStatus.DONE, doneFor, limit)
            + deleteFinished(connection, queue, MessageStatus.DEAD, deadFor, limit));
  }

  private int deleteFinished(Connection connection, String queue, MessageStatus status, Duration age, int limit)
      throws SQLException {
    List<Long> ids;
    try (PreparedStatement statement = connection.prepareStatement("SELECT id FROM " + messages
        + " WHERE queue = ? AND status = ? AND finished_at <= " + dialect.nowMinusMicros() + " ORDER BY id LIMIT ?")) {
      statement.setString(1, queue);
      statement.setString(2, status.name());
      statement.setLong(3, micros(age));
      statement.setInt(4, limit);
      ids = ids(statement);
    }
    if (ids.isEmpty()) {
      return 0;
    }
    try (PreparedStatement statement = connection.prepareStatement(
        "DELETE FROM " + messages + " WHERE status = ? AND id IN (" + marks(ids.size()) + ")")) {
      statement.setString(1, status.name());
      bindIds(statement, 2, ids);
      return statement.executeUpdate();
    }
  }

  @Override
  public List<QueueStats> stats() {
    String sql = "SELECT queue,"
        + " SUM(CASE WHEN status = 'PENDING' THEN 1 ELSE 0 END) AS pending,"
        + " SUM(CASE WHEN status = 'INFLIGHT' THEN 1 ELSE 0 END) AS inflight,"
        + " SUM(CASE WHEN status = 'DEAD' THEN 1 ELSE 0 END) AS dead,"
        + " SUM(CASE WHEN status = 'DONE' THEN 1 ELSE 0 END) AS done,"
        + " MIN(CASE WHEN status = 'PENDING' AND available_at <= " + dialect.now() + " THEN available_at END)"
        + " AS oldest, " + dialect.now() + " AS read_at"
        + " FROM " + messages + " GROUP BY queue ORDER BY queue";
    return jdbc.read("read queue stats", connection -> {
      List<QueueStats> stats = new ArrayList<>();
      try (PreparedStatement statement = connection.prepareStatement(sql); ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          Instant oldest = instantOrNull(rows, "oldest");
          Duration age = null;
          if (oldest != null) {
            Duration waited = Duration.between(oldest, dialect.getInstant(rows, "read_at"));
            age = waited.isNegative() ? Duration.ZERO : waited;
          }
          stats.add(new QueueStats(rows.getString("queue"), rows.getLong("pending"), rows.getLong("inflight"),
              rows.getLong("dead"), rows.getLong("done"), age));
        }
      }
      return List.copyOf(stats);
    });
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
      where.append(" AND status = ?");
      arguments.add(status.name());
    }
    if (query.key() != null) {
      where.append(" AND msg_key = ?");
      arguments.add(query.key());
    }
    if (query.errorContains() != null) {
      // Plain substring: no LIKE wildcards from the caller's text.
      where.append(" AND last_error IS NOT NULL AND ").append(position("last_error")).append(" > 0");
      arguments.add(query.errorContains());
    }
    if (query.olderThan() != null) {
      where.append(" AND created_at <= ").append(dialect.nowMinusMicros());
      arguments.add(query.olderThan());
    }
    return new Filter(where.toString(), arguments);
  }

  /** {@code INSTR}-like: position of a bound substring in a column, 0 if absent, on every database. */
  private String position(String column) {
    return dialect.name().equals("postgresql") ? "STRPOS(" + column + ", ?)" : "INSTR(" + column + ", ?)";
  }

  private List<QueueMessage> select(Connection connection, String clause, Binder binder) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement("SELECT " + COLUMNS + " FROM " + messages + " " + clause)) {
      binder.bind(statement);
      List<QueueMessage> found = new ArrayList<>();
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          found.add(message(rows));
        }
      }
      return found;
    }
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

  private static void bindIds(PreparedStatement statement, int first, List<Long> ids) throws SQLException {
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
      new java.util.TreeMap<>(headers).forEach((name, value) -> text.append(text.isEmpty() ? "" : "\n")
          .append(java.net.URLEncoder.encode(name, java.nio.charset.StandardCharsets.UTF_8)).append('=')
          .append(java.net.URLEncoder.encode(value, java.nio.charset.StandardCharsets.UTF_8)));
      return text.toString();
    }

    static Map<String, String> decode(String text) {
      Map<String, String> headers = new LinkedHashMap<>();
      if (text == null || text.isEmpty()) {
        return headers;
      }
      for (String line : text.split("\n")) {
        int equals = line.indexOf('=');
        headers.put(java.net.URLDecoder.decode(line.substring(0, equals), java.nio.charset.StandardCharsets.UTF_8),
            java.net.URLDecoder.decode(line.substring(equals + 1), java.nio.charset.StandardCharsets.UTF_8));
      }
      return headers;
    }
  }
}
