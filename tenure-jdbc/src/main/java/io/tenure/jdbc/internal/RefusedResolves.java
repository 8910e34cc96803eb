package io.tenure.jdbc.internal;

import io.tenure.spi.Resolution;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What an exclusive queue's resolve writes when its agent guard no longer holds (SPEC §6.9): a
 * re-pend (release, reschedule, a failure with attempts left) is never fenced (SPEC §1.5) and lands
 * as asked, error and backoff included; a finish (done, dead letter, a failure on its last attempt)
 * is refused and becomes a release, so the message goes back for the successor with its attempt
 * given back: a handler that succeeded is not charged one.
 */
final class RefusedResolves {
  private final NamedStatement onLastAttempt;

  /**
   * @param lastAttempt reads which of {@code :ids} are on their last attempt
   */
  RefusedResolves(NamedStatement lastAttempt) {
    this.onLastAttempt = lastAttempt;
  }

  /**
   * @param writes the outcomes to write instead, one per held claim
   * @param landed the ids whose outcome is written as asked
   */
  record Rewrite(List<Resolution> writes, List<Long> landed) {}

  /** Rewrites the outcomes of claims still held (and locked) by the caller's transaction. */
  Rewrite rewrite(Connection connection, List<Resolution> held) throws SQLException {
    Set<Long> lastAttempt =
        lastAttempt(
            connection,
            held.stream()
                .filter(r -> r.outcome() instanceof Resolution.Failed)
                .map(r -> r.claim().id())
                .toList());
    List<Resolution> writes = new ArrayList<>();
    List<Long> landed = new ArrayList<>();
    for (Resolution resolution : held) {
      boolean repends =
          switch (resolution.outcome()) {
            case Resolution.Release release -> true;
            case Resolution.Reschedule snooze -> true;
            case Resolution.Failed failed -> !lastAttempt.contains(resolution.claim().id());
            case Resolution.Done done -> false;
            case Resolution.DeadLetter dead -> false;
          };
      if (repends) {
        writes.add(resolution);
        landed.add(resolution.claim().id());
      } else {
        writes.add(new Resolution(resolution.claim(), new Resolution.Release()));
      }
    }
    return new Rewrite(writes, landed);
  }

  /** The ids among {@code failed} whose failure would dead-letter them (no attempts left). */
  private Set<Long> lastAttempt(Connection connection, List<Long> failed) throws SQLException {
    Set<Long> spent = new HashSet<>();
    for (List<Long> chunk : NamedStatement.chunks(failed)) {
      spent.addAll(onLastAttempt.ids(connection, NamedStatement.Params.of("ids", chunk)));
    }
    return spent;
  }
}
