package io.tenure.spi;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What the leader fires of one schedule in one transaction (SPEC §10.2): the slots with their
 * messages, the slots its policy skipped, and where the schedule goes next.
 *
 * @param name the schedule's name
 * @param version the row's version the plan was made from: the fire applies only while it is so
 * @param slots the slots that fire, oldest first, each with the message it enqueues
 * @param skipped how many slots the policy skipped
 * @param nextFireAt the schedule's next slot after this fire
 */
public record ScheduleFiring(
    String name, long version, List<Slot> slots, long skipped, Instant nextFireAt) {
  /**
   * @throws IllegalArgumentException if skipped is negative
   * @throws NullPointerException if a part is null
   */
  public ScheduleFiring {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(nextFireAt, "nextFireAt");
    slots = List.copyOf(slots);
    if (skipped < 0) {
      throw new IllegalArgumentException("skipped must not be negative, got " + skipped);
    }
  }

  /**
   * One slot and its message; the message's dedupe key names the schedule and the slot.
   *
   * @param at the slot's time
   * @param message what it enqueues
   */
  public record Slot(Instant at, NewMessage message) {
    /**
     * @throws IllegalArgumentException if the message has no dedupe key
     */
    public Slot {
      Objects.requireNonNull(at, "at");
      Objects.requireNonNull(message, "message");
      if (message.dedupeKey() == null) {
        throw new IllegalArgumentException("a slot's message must have its dedupe key");
      }
    }
  }

  /** What came of a fire. */
  public sealed interface Result {}

  /**
   * Applied: the messages are enqueued (or were already, by their dedupe keys) and the schedule
   * moved on.
   *
   * @param messageIds each slot's message id, in slot order
   */
  public record Fired(List<Long> messageIds) implements Result {
    public Fired {
      messageIds = List.copyOf(messageIds);
    }
  }

  /** The row changed since the plan was made (or is gone): nothing was written. */
  public record Lost() implements Result {}

  /** The leader fence did not hold: nothing was written. */
  public record Fenced() implements Result {}

  /**
   * @return the dedupe key of a slot's message: the schedule and the slot's time in microseconds
   *     since the epoch, so a slot enqueues one message however often it is fired
   */
  public static String dedupeKey(String schedule, Instant slot) {
    long micros =
        Math.addExact(Math.multiplyExact(slot.getEpochSecond(), 1_000_000L), slot.getNano() / 1000);
    return "tenure-schedule:" + schedule + "@" + micros;
  }
}
