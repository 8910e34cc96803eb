package io.tenure.jdbc.internal;

import io.tenure.QueueMessage;
import io.tenure.jdbc.internal.NamedStatement.Params;
import io.tenure.spi.ClaimAllowance;
import io.tenure.spi.ClaimRequest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Claims (SPEC §6.2): a claim takes only available pending rows, skipping rows another claimer
 * holds (on servers), under a fresh claim token. A strict queue is one sequence; an unordered or
 * keyed-FIFO queue's claim walks the queue's front, then the key heads behind it, as its database's
 * {@link QueueSql.Claiming} says. Where the database has a claim for a queue with no keyed row
 * pending ({@link QueueSql.OneStatement#unkeyed()}), that runs first, and the walk only if it
 * claimed nothing.
 */
final class Claims {
  /** An unordered claim of n looks at the first max(4 n, 1000) available rows; see window(). */
  private static final int WINDOW_FACTOR = 4;

  private static final int WINDOW_MIN = 1000;

  /** Most full groups a claim statement names; beyond them, a claim takes and gives back. */
  private static final int MAX_PASSED_GROUPS = 500;

  /** Highest priority first, then oldest; written out, as it sorts every claimed row. */
  private static final Comparator<QueueMessage> CLAIM_ORDER =
      (a, b) ->
          a.priority() != b.priority()
              ? Integer.compare(b.priority(), a.priority())
              : Long.compare(a.id(), b.id());

  private final QueueContext context;
  private final QueueSql.Claiming claiming;
  private final NamedStatement strict;
  private final NamedStatement claimIds;
  private final NamedStatement selectClaimed;
  private final NamedStatement first;
  private final @Nullable NamedStatement unkeyed;
  private final UnkeyedQueues unkeyedQueues = new UnkeyedQueues();
  private final @Nullable NamedStatement second;
  private final @Nullable NamedStatement lock;
  private final OvertakenClaims overtaken;
  private final IdleReads idleReads;
  private final QueueControls controls;
  private final NamedStatement release;

  Claims(QueueContext context, IdleReads idleReads, QueueControls controls) {
    this.context = context;
    QueueSql sql = context.sql();
    this.claiming = sql.claiming();
    this.strict = context.statement(sql.strictCandidates());
    this.claimIds = context.statement(sql.claimIds());
    this.selectClaimed = context.statement(sql.selectClaimed());
    this.first =
        context.statement(
            switch (claiming) {
              case QueueSql.OneStatement one -> one.claim();
              case QueueSql.TwoStatements two -> two.walk();
              case QueueSql.ChooseThenLock choose -> choose.walk();
            });
    this.unkeyed =
        claiming instanceof QueueSql.OneStatement one ? context.statement(one.unkeyed()) : null;
    this.second =
        switch (claiming) {
          case QueueSql.OneStatement one -> null;
          case QueueSql.TwoStatements two -> context.statement(two.heads());
          case QueueSql.ChooseThenLock choose -> context.statement(choose.heads());
        };
    this.lock =
        claiming instanceof QueueSql.ChooseThenLock choose
            ? context.statement(choose.lock())
            : null;
    this.overtaken = new OvertakenClaims(context);
    this.idleReads = idleReads;
    this.controls = controls;
    this.release = context.statement(sql.release());
  }

  List<QueueMessage> claim(ClaimRequest request) {
    if (!idleReads.mayHavePending(request.queue())) {
      return List.of(); // no write lock for a poll that finds nothing: see IdleReads
    }
    return context
        .jdbc()
        .write(
            "claim from queue " + request.queue(),
            connection -> {
              if (request.guard() != null
                  && !context.fences().agentHolds(connection, request.guard(), true)) {
                return List.<QueueMessage>of();
              }
              String token = UUID.randomUUID().toString();
              List<QueueMessage> claimed =
                  switch (controls.forClaim(connection, request.queue(), request.max())) {
                    case QueueControls.Free free -> free(connection, request, token);
                    case QueueControls.Paused paused -> new ArrayList<>();
                    case QueueControls.Limited limited ->
                        limited(connection, request, token, limited);
                  };
              claimed.sort(CLAIM_ORDER);
              return List.copyOf(claimed);
            });
  }

  private List<QueueMessage> free(Connection connection, ClaimRequest request, String token)
      throws SQLException {
    if (request.strict()) {
      return claimIds(
          connection, request, token, strictCandidates(connection, request, request.max()));
    }
    if (unkeyed != null && unkeyedQueues.tryUnkeyed(request.queue())) {
      List<QueueMessage> got =
          returning(
              connection,
              unkeyed,
              walk(request.queue(), request.max(), request.nodeId(), token, request.lease()),
              request,
              token,
              request.max());
      if (!got.isEmpty()) {
        return got; // only unkeyed rows: nothing for a replay to overtake
      }
    }
    List<QueueMessage> got =
        overtaken.giveBack(
            connection, token, unordered(connection, request, token, request.max(), Params.of()));
    if (unkeyed != null) {
      unkeyedQueues.fullClaimed(request.queue(), got.stream().anyMatch(m -> m.key() != null));
    }
    return got;
  }

  /**
   * A claim within the queue's limits (SPEC §12.1). Without a per-group limit the budget is the
   * claim's size. With one, full groups are passed over in the statement; a claim that takes more
   * of a group than the group has room for gives the extra back at once and claims again without
   * that group, until the budget is met or a round keeps nothing. A strict queue gives back from
   * the first refused message on, so it never runs a younger message before an older one.
   */
  private List<QueueMessage> limited(
      Connection connection, ClaimRequest request, String token, QueueControls.Limited limited)
      throws SQLException {
    ClaimAllowance allowance = limited.allowance();
    List<QueueMessage> kept = new ArrayList<>();
    if (allowance.budget() == 0) {
      return kept;
    }
    if (request.strict()) {
      List<QueueMessage> got =
          claimIds(
              connection,
              request,
              token,
              strictCandidates(connection, request, allowance.budget()));
      got.sort(Comparator.comparingLong(QueueMessage::id));
      List<Long> back = new ArrayList<>();
      for (QueueMessage message : got) {
        if (back.isEmpty() && allowance.take(message.group())) {
          kept.add(message);
        } else {
          back.add(message.id());
        }
      }
      giveBack(connection, back);
    } else {
      while (allowance.taken() < allowance.budget()) {
        int want = allowance.budget() - allowance.taken();
        List<QueueMessage> got =
            overtaken.giveBack(
                connection,
                token,
                unordered(connection, request, token, want, passOver(allowance)));
        got.sort(CLAIM_ORDER);
        List<Long> back = new ArrayList<>();
        int before = kept.size();
        for (QueueMessage message : got) {
          if (allowance.take(message.group())) {
            kept.add(message);
          } else {
            back.add(message.id());
          }
        }
        giveBack(connection, back);
        if (kept.size() == before || (back.isEmpty() && got.size() < want)) {
          break; // nothing more to take, or only full groups' messages left in reach
        }
      }
    }
    controls.record(connection, limited);
    return kept;
  }

  /** The groups a limited claim's statement passes over; past a bound, the claim gives back. */
  private static Params passOver(ClaimAllowance allowance) {
    List<String> full = List.copyOf(allowance.fullGroups());
    return Params.of()
        .and("full_groups", full.isEmpty() || full.size() > MAX_PASSED_GROUPS ? null : full)
        .and("ungrouped_full", allowance.ungroupedFull() ? Boolean.TRUE : null);
  }

  /** Releases rows this transaction claimed and may not keep, their attempt given back. */
  private void giveBack(Connection connection, List<Long> ids) throws SQLException {
    if (!ids.isEmpty()) {
      release.update(connection, Params.of("ids", ids));
    }
  }

  /** The walk, and the key heads if the walk fell short (a window may hold only blocked rows). */
  private List<QueueMessage> unordered(
      Connection connection, ClaimRequest request, String token, int max, Params passOver)
      throws SQLException {
    Params walk =
        walk(request.queue(), max, request.nodeId(), token, request.lease()).and(passOver);
    Params heads = Params.of("queue", request.queue()).and(passOver);
    List<QueueMessage> claimed = new ArrayList<>();
    switch (claiming) {
      case QueueSql.OneStatement one ->
          claimed.addAll(returning(connection, first, walk, request, token, max));
      case QueueSql.TwoStatements two -> {
        claimed.addAll(returning(connection, first, walk, request, token, max));
        if (claimed.size() < max) {
          claimed.addAll(
              returning(connection, second, heads, request, token, max - claimed.size()));
        }
      }
      case QueueSql.ChooseThenLock choose -> {
        claimed.addAll(chooseThenLock(connection, first, walk, request, token, max));
        if (claimed.size() < max) {
          claimed.addAll(
              chooseThenLock(connection, second, heads, request, token, max - claimed.size()));
        }
      }
    }
    return claimed;
  }

  /** Chooses, locks and claims up to {@code max} rows in one statement that returns them. */
  private List<QueueMessage> returning(
      Connection connection,
      NamedStatement statement,
      Params params,
      ClaimRequest request,
      String token,
      int max)
      throws SQLException {
    return statement.query(
        connection, claimer(params.and("max", max), request, token), context.rows()::message);
  }

  /**
   * MariaDB: a locking read that sorts locks every row it sorts, so a claim of 10 would hold its
   * whole window and leave concurrent claimers nothing. The candidates are chosen by a plain read
   * (twice as many, in claim order), then only the ones taken are locked, skipping peers' rows.
   */
  private List<QueueMessage> chooseThenLock(
      Connection connection,
      NamedStatement chooser,
      Params params,
      ClaimRequest request,
      String token,
      int max)
      throws SQLException {
    List<Long> chosen = chooser.ids(connection, params.and("max", 2 * max));
    List<Long> locked = new ArrayList<>();
    for (int from = 0; locked.size() < max && from < chosen.size(); ) {
      List<Long> next = chosen.subList(from, Math.min(chosen.size(), from + max - locked.size()));
      from += next.size();
      locked.addAll(lock.ids(connection, Params.of("ids", next)));
    }
    return claimIds(connection, request, token, locked);
  }

  /**
   * The queue as one sequence: the oldest pending rows in id order, up to the first that is not yet
   * available; nothing while any row of the queue is in flight, whatever its id (a replayed dead
   * letter keeps its old id, so it can be older than the row in flight, and must wait for it). Two
   * index probes and at most {@code max} rows read.
   */
  private List<Long> strictCandidates(Connection connection, ClaimRequest request, int max)
      throws SQLException {
    List<Long> ids = new ArrayList<>();
    try (PreparedStatement statement =
            strict.prepare(connection, Params.of("queue", request.queue()).and("max", max));
        ResultSet rows = statement.executeQuery()) {
      while (rows.next() && rows.getInt("ready") == 1) {
        ids.add(rows.getLong("id"));
      }
    }
    return ids;
  }

  /** Claims the given rows that are still pending; they were chosen, and locked, just before. */
  private List<QueueMessage> claimIds(
      Connection connection, ClaimRequest request, String token, List<Long> ids)
      throws SQLException {
    if (ids.isEmpty()) {
      return new ArrayList<>();
    }
    claimIds.update(connection, claimer(Params.of("ids", ids), request, token));
    return selectClaimed.query(
        connection, Params.of("token", token).and("ids", ids), context.rows()::message);
  }

  /**
   * The values of an unordered claim's walk of {@code max} (a one-statement claim's, all of them),
   * for the store and for {@code io.tenure.jdbc.QueueStatements} alike.
   */
  static Params walk(String queue, int max, String nodeId, String token, Duration lease) {
    return Params.of("queue", queue)
        .and("window", window(max))
        .and("max", max)
        .and("node", nodeId)
        .and("token", token)
        .and("lease", lease);
  }

  private static Params claimer(Params params, ClaimRequest request, String token) {
    return params.and("node", request.nodeId()).and("token", token).and("lease", request.lease());
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
}
