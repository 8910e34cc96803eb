package io.tenure.jdbc.internal;

import io.tenure.spi.Resolution;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
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
  /** Ids per statement, as the store's own chunks. */
  private static final int CHUNK = 250;

  private final String messages;

  RefusedResolves(String messages) {
    this.messages = messages;
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
    for (int from = 0; from < failed.size(); from += CHUNK) {
      List<Long> chunk = failed.subList(from, Math.min(failed.size(), from + CHUNK));
      try (PreparedStatement statement =
          connection.prepareStatement(
              "SELECT id FROM "
                  + messages
                  + " WHERE attempts >= max_attempts AND id IN ("
                  + String.join(", ", Collections.nCopies(chunk.size(), "?"))
                  + ")")) {
        for (int i = 0; i < chunk.size(); i++) {
          statement.setLong(i + 1, chunk.get(i));
        }
        try (ResultSet rows = statement.executeQuery()) {
          while (rows.next()) {
            spent.add(rows.getLong(1));
          }
        }
      }
    }
    return spent;
  }
}
