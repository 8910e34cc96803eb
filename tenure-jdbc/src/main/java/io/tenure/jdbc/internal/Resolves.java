package io.tenure.jdbc.internal;

import io.tenure.jdbc.internal.NamedStatement.Params;
import io.tenure.spi.AgentGuard;
import io.tenure.spi.MessageClaim;
import io.tenure.spi.Resolution;
import io.tenure.spi.ResolveResult;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Resolves (SPEC §6.4): an outcome lands only on a row its claim token still names, in flight; an
 * exclusive queue's finishes also need the agent guard (SPEC §6.9). Which outcome a resolution is
 * (retry or dead included) is the caller's; this class writes it.
 */
final class Resolves {
  private final QueueContext context;
  private final RefusedResolves refused;
  private final NamedStatement doneKeptIfHeld;
  private final NamedStatement deleteIfHeld;
  private final NamedStatement releaseIfHeld;
  private final NamedStatement heldClaims;
  private final NamedStatement doneKept;
  private final NamedStatement delete;
  private final NamedStatement release;
  private final NamedStatement retry;
  private final NamedStatement deadLetter;
  private final NamedStatement reschedule;
  private final NamedStatement extend;

  Resolves(QueueContext context) {
    this.context = context;
    QueueSql sql = context.sql();
    this.refused = new RefusedResolves();
    this.doneKeptIfHeld = context.statement(sql.doneKeptIfHeld());
    this.deleteIfHeld = context.statement(sql.deleteIfHeld());
    this.releaseIfHeld = context.statement(sql.releaseIfHeld());
    this.heldClaims = context.statement(sql.heldClaims());
    this.doneKept = context.statement(sql.doneKept());
    this.delete = context.statement(sql.delete());
    this.release = context.statement(sql.release());
    this.retry = context.statement(sql.retry());
    this.deadLetter = context.statement(sql.deadLetter());
    this.reschedule = context.statement(sql.reschedule());
    this.extend = context.statement(sql.extend());
  }

  ResolveResult resolve(List<Resolution> resolutions, @Nullable AgentGuard guard) {
    Set<Long> seen = new HashSet<>();
    for (Resolution resolution : resolutions) {
      if (!seen.add(resolution.claim().id())) {
        throw new IllegalArgumentException(
            "message " + resolution.claim().id() + " appears twice in one resolve");
      }
    }
    List<Long> all = List.copyOf(seen.stream().sorted().toList());
    if (guard == null && resolvedAtOnce(resolutions)) {
      return new ResolveResult(all, List.of(), false);
    }
    boolean terminal = resolutions.stream().anyMatch(r -> r.outcome().terminal());
    return context
        .jdbc()
        .write(
            "resolve " + resolutions.size() + " messages",
            connection -> {
              List<Long> held = heldClaims(connection, resolutions);
              List<Long> lost =
                  resolutions.stream()
                      .map(r -> r.claim().id())
                      .filter(id -> !held.contains(id))
                      .toList();
              if (guard != null
                  && terminal
                  && !context.fences().agentHolds(connection, guard, true)) {
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
              return new ResolveResult(all, List.of(), false);
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
      NamedStatement change =
          switch (resolution.outcome()) {
            case Resolution.Done done when done.keep() -> doneKeptIfHeld;
            case Resolution.Done done -> deleteIfHeld;
            case Resolution.Release release -> releaseIfHeld;
            default -> null;
          };
      if (change == null) {
        return false;
      }
      statements
          .computeIfAbsent(
              new TokenGroup(change, resolution.claim().token()), k -> new ArrayList<>())
          .add(resolution.claim().id());
    }
    int expected = resolutions.size();
    int changed =
        context
            .jdbc()
            .write(
                "resolve " + expected + " messages",
                connection -> {
                  int rows = 0;
                  for (Map.Entry<TokenGroup, List<Long>> entry : statements.entrySet()) {
                    rows +=
                        entry
                            .getKey()
                            .change()
                            .updateInChunks(
                                connection,
                                Params.of("token", entry.getKey().token()),
                                entry.getValue());
                  }
                  return rows;
                },
                rows -> rows == expected);
    return changed == expected;
  }

  /** Outcomes written by one statement: the same change, under one claim token. */
  private record TokenGroup(NamedStatement change, String token) {}

  /** Locks and returns the ids whose claims still hold. */
  private List<Long> heldClaims(Connection connection, List<Resolution> resolutions)
      throws SQLException {
    List<Long> held = new ArrayList<>();
    for (List<Resolution> chunk : NamedStatement.chunks(resolutions)) {
      List<Params> claims =
          chunk.stream()
              .map(r -> Params.of("id", r.claim().id()).and("token", r.claim().token()))
              .toList();
      held.addAll(heldClaims.ids(connection, Params.of().rows(claims)));
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
      switch (group.get(0).outcome()) {
        case Resolution.Done done -> {
          doneKept.updateInChunks(connection, Params.of(), ids(group, true));
          delete.updateInChunks(connection, Params.of(), ids(group, false));
        }
        case Resolution.Release release ->
            this.release.updateInChunks(
                connection, Params.of(), group.stream().map(r -> r.claim().id()).toList());
        case Resolution.Retry again ->
            retry.batch(
                connection,
                entries(
                    group,
                    r ->
                        Params.of("in", ((Resolution.Retry) r.outcome()).in())
                            .and("error", ((Resolution.Retry) r.outcome()).error())));
        case Resolution.DeadLetter dead ->
            deadLetter.batch(
                connection,
                entries(
                    group, r -> Params.of("error", ((Resolution.DeadLetter) r.outcome()).error())));
        case Resolution.Reschedule snooze ->
            reschedule.batch(
                connection,
                entries(group, r -> Params.of("in", ((Resolution.Reschedule) r.outcome()).in())));
      }
    }
  }

  /** The ids of done outcomes that keep their row, or of those that delete it. */
  private static List<Long> ids(List<Resolution> done, boolean keep) {
    return done.stream()
        .filter(r -> ((Resolution.Done) r.outcome()).keep() == keep)
        .map(r -> r.claim().id())
        .toList();
  }

  /** One batch entry per resolution: its outcome's values and its id. */
  private static List<Params> entries(
      List<Resolution> group, java.util.function.Function<Resolution, Params> values) {
    return group.stream().map(r -> values.apply(r).and("id", r.claim().id())).toList();
  }

  boolean extend(MessageClaim claim, Duration lease) {
    io.tenure.Limits.checkPositive("lease", lease, io.tenure.Limits.MAX_DURATION);
    return context
        .jdbc()
        .write(
            "extend the lease of message " + claim.id(),
            connection ->
                extend.update(
                        connection,
                        Params.of("lease", lease).and("id", claim.id()).and("token", claim.token()))
                    == 1);
  }
}
