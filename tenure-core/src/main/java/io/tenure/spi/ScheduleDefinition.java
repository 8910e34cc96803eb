package io.tenure.spi;

import io.tenure.MissedSlots;
import io.tenure.OutgoingMessage;
import io.tenure.Schedule;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A schedule as it is declared to a store (SPEC §10.1): the definition, the attempts its messages
 * get, and its next slot should the declaration create or change it.
 *
 * @param schedule the definition; its message is set
 * @param maxAttempts the attempts each slot's message gets (its queue's policy)
 * @param nextFireAt the first slot after the database's now, by this definition
 */
public record ScheduleDefinition(Schedule schedule, int maxAttempts, Instant nextFireAt) {
  /**
   * @throws IllegalArgumentException if the schedule has no queue and message, or maxAttempts is
   *     below 1
   * @throws NullPointerException if a part is null
   */
  public ScheduleDefinition {
    Objects.requireNonNull(schedule, "schedule");
    Objects.requireNonNull(nextFireAt, "nextFireAt");
    if (schedule.queue() == null || schedule.message() == null) {
      throw new IllegalArgumentException(
          "schedule '" + schedule.name() + "' has no message: call enqueue(queue, message)");
    }
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("max attempts must be at least 1, got " + maxAttempts);
    }
  }

  /**
   * What a store compares to tell an unchanged declaration from a changed one: a SHA-256 of every
   * part of the definition and the attempts, in a fixed order. Stable across versions of Tenure
   * that encode the same definition the same way.
   *
   * @return 64 hexadecimal digits
   */
  public String fingerprint() {
    Schedule s = schedule;
    OutgoingMessage m = Objects.requireNonNull(s.message());
    StringBuilder text = new StringBuilder();
    field(text, s.name());
    field(text, s.kind().name());
    field(text, s.expression());
    field(text, s.interval() == null ? null : String.valueOf(s.interval().toNanos()));
    field(text, s.anchor().toString());
    field(text, s.zone());
    field(text, s.queue());
    field(text, Base64.getEncoder().encodeToString(m.payload()));
    field(text, m.contentType());
    new TreeMap<>(m.headers()).forEach((k, v) -> field(text, k + "=" + v));
    field(text, m.key());
    field(text, String.valueOf(m.priority()));
    field(text, String.valueOf(maxAttempts));
    field(text, missed(s.missedSlots()));
    field(text, String.valueOf(s.missedAfter().toNanos()));
    field(text, s.whilePaused().name());
    field(text, String.valueOf(s.jitter().toNanos()));
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256")
                  .digest(text.toString().getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  /** Length-prefixed, so no value can pass for two. */
  private static void field(StringBuilder text, String value) {
    if (value == null) {
      text.append("-;");
    } else {
      text.append(value.length()).append(':').append(value).append(';');
    }
  }

  /**
   * @return {@code CATCH_UP:max}, {@code LATEST} or {@code SKIP}: how stores write a policy
   */
  public static String missed(MissedSlots policy) {
    return switch (policy) {
      case MissedSlots.CatchUp c -> "CATCH_UP:" + c.max();
      case MissedSlots.Latest l -> "LATEST";
      case MissedSlots.Skip s -> "SKIP";
    };
  }

  /**
   * @return the policy {@link #missed(MissedSlots)} wrote
   * @throws IllegalArgumentException if the text is not one it writes
   */
  public static MissedSlots missed(String text) {
    if (text.equals("LATEST")) {
      return MissedSlots.latest();
    }
    if (text.equals("SKIP")) {
      return MissedSlots.skip();
    }
    if (text.startsWith("CATCH_UP:")) {
      return MissedSlots.catchUp(Integer.parseInt(text.substring("CATCH_UP:".length())));
    }
    throw new IllegalArgumentException("not a missed-slot policy: '" + text + "'");
  }
}
