package io.tenure;

import io.tenure.internal.schedules.Slots;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A schedule's definition (SPEC §10): its name, when its slots fall (a cron expression in a time
 * zone, or a fixed interval) and the message each slot enqueues. Immutable; every factory and
 * {@code with} method checks its argument at once and names what was wrong. Declare it with {@link
 * Schedules#declare}.
 *
 * <pre>{@code
 * Schedule nightly = Schedule.cron("nightly-report", "30 2 * * *")
 *     .zone("Europe/Berlin")
 *     .enqueue("reports", OutgoingMessage.text("run the nightly report"))
 *     .missedSlots(MissedSlots.latest());
 * }</pre>
 *
 * @see Schedules
 */
public final class Schedule {
  /** Longest schedule name accepted. */
  public static final int MAX_NAME_LENGTH = 128;

  /** The default zone of a cron schedule. */
  public static final String DEFAULT_ZONE = "UTC";

  /** How late a slot may fire and still be on time (not missed): one minute, unless set. */
  public static final Duration DEFAULT_MISSED_AFTER = Duration.ofMinutes(1);

  /** When a schedule's slots fall. */
  public enum Kind {
    /** A Unix cron expression (five fields), in the schedule's zone. */
    CRON,
    /** A Quartz cron expression (six or seven fields, seconds first), in the schedule's zone. */
    QUARTZ,
    /** Every {@link #interval()}, counted from {@link #anchor()}. */
    INTERVAL
  }

  /** The parts of a definition, copied and changed by each {@code with} method. */
  private static final class Parts implements Cloneable {
    String name;
    Kind kind;
    @Nullable String expression;
    @Nullable Duration interval;
    Instant anchor = Instant.EPOCH;
    String zone = DEFAULT_ZONE;
    @Nullable String queue;
    @Nullable OutgoingMessage message;
    MissedSlots missedSlots = MissedSlots.latest();
    Duration missedAfter = DEFAULT_MISSED_AFTER;
    PausedSlots whilePaused = PausedSlots.DROP;
    Duration jitter = Duration.ZERO;

    Parts(String name, Kind kind) {
      this.name = name;
      this.kind = kind;
    }

    @Override
    protected Parts clone() {
      try {
        return (Parts) super.clone();
      } catch (CloneNotSupportedException e) {
        throw new AssertionError(e);
      }
    }
  }

  private final Parts parts;
  private final Slots slots;

  /** Checks when the slots fall, so a definition that cannot fire is never built. */
  private Schedule(Parts parts) {
    this.parts = parts;
    this.slots =
        switch (parts.kind) {
          case CRON -> Slots.cron(CronSyntax.UNIX, parts.expression, parts.zone);
          case QUARTZ -> Slots.cron(CronSyntax.QUARTZ, parts.expression, parts.zone);
          case INTERVAL -> Slots.every(parts.interval, parts.anchor);
        };
  }

  private void require(boolean ok, String problem) {
    if (!ok) {
      throw new IllegalArgumentException("schedule '" + parts.name + "': " + problem);
    }
  }

  private Schedule with(java.util.function.Consumer<Parts> change) {
    Parts changed = parts.clone();
    change.accept(changed);
    return new Schedule(changed);
  }

  /**
   * A schedule on a Unix cron expression (minute hour day-of-month month day-of-week), in UTC
   * unless {@link #zone} says otherwise.
   *
   * @throws IllegalArgumentException if the name or expression is invalid, or the expression never
   *     fires, naming it
   */
  public static Schedule cron(String name, String expression) {
    Parts parts = new Parts(checkName(name), Kind.CRON);
    parts.expression = expression;
    return new Schedule(parts);
  }

  /**
   * A schedule on a Quartz cron expression (second minute hour day-of-month month day-of-week
   * [year]), in UTC unless {@link #zone} says otherwise.
   *
   * @throws IllegalArgumentException if the name or expression is invalid, or the expression never
   *     fires, naming it
   */
  public static Schedule quartz(String name, String expression) {
    Parts parts = new Parts(checkName(name), Kind.QUARTZ);
    parts.expression = expression;
    return new Schedule(parts);
  }

  /**
   * A schedule every {@code interval}, its slots at whole multiples of it since 1970-01-01T00:00Z
   * (every hour: on the hour, UTC), unless {@link #startingAt} moves them.
   *
   * @param interval at least 1 ms, at most 365 days
   * @throws IllegalArgumentException if the name or interval is invalid, naming it
   */
  public static Schedule every(String name, Duration interval) {
    Parts parts = new Parts(checkName(name), Kind.INTERVAL);
    parts.interval = interval;
    return new Schedule(parts);
  }

  /**
   * @param zoneId the time zone a cron schedule's wall-clock times are in, e.g. {@code
   *     Europe/Berlin}; default UTC
   * @throws IllegalArgumentException if the zone is unknown, naming it, or this is an interval
   *     schedule (its slots are instants)
   */
  public Schedule zone(String zoneId) {
    require(
        parts.kind != Kind.INTERVAL,
        "it runs every " + parts.interval + ": an interval has no time zone");
    return with(p -> p.zone = zoneId);
  }

  /**
   * @param first a slot of this interval schedule: the others fall at whole intervals before and
   *     after it
   * @throws IllegalArgumentException if this is a cron schedule, or {@code first} is null
   */
  public Schedule startingAt(Instant first) {
    require(parts.kind == Kind.INTERVAL, "it is a cron schedule: startingAt is for intervals");
    require(first != null, "startingAt must not be null");
    return with(p -> p.anchor = first);
  }

  /**
   * @param queueName the queue each slot's message goes to; it must be a queue opened on the {@code
   *     Tenure} that declares the schedule
   * @param message what each slot enqueues: payload, content type, headers, ordering key and
   *     priority. It has no delay (use {@link #jitter}) and no dedupe key (each slot is
   *     deduplicated by the schedule's name and the slot's time)
   * @throws IllegalArgumentException if the queue name is invalid, or the message has a delay or a
   *     dedupe key
   */
  public Schedule enqueue(String queueName, OutgoingMessage message) {
    Queue.checkName(queueName);
    require(message != null, "message must not be null");
    require(
        message.delay().isZero(),
        "its message must have no delay (" + message.delay() + "); use jitter to spread slots");
    require(
        message.dedupeKey() == null,
        "its message must have no dedupe key ('"
            + message.dedupeKey()
            + "'): each slot is deduplicated by the schedule and the slot's time");
    return with(
        p -> {
          p.queue = queueName;
          p.message = message;
        });
  }

  /**
   * {@link #enqueue(String, OutgoingMessage)} to {@code queue}.
   *
   * @throws IllegalArgumentException as that method
   */
  public Schedule enqueue(Queue queue, OutgoingMessage message) {
    require(queue != null, "queue must not be null");
    return enqueue(queue.name(), message);
  }

  /**
   * @param policy what becomes of slots missed while no leader could fire them (the fleet was down)
   *     or while the schedule was paused: {@link MissedSlots#latest()} by default
   * @throws IllegalArgumentException if null
   */
  public Schedule missedSlots(MissedSlots policy) {
    require(policy != null, "missed slots must not be null");
    return with(p -> p.missedSlots = policy);
  }

  /**
   * @param lateness how late a slot may fire and still count as on time (and always fire); a later
   *     one is missed, and {@link #missedSlots} decides. Default one minute; zero to 365 days
   * @throws IllegalArgumentException if out of range
   */
  public Schedule missedAfter(Duration lateness) {
    Limits.checkNotNegative("missedAfter", lateness, Limits.MAX_DURATION);
    return with(p -> p.missedAfter = lateness);
  }

  /**
   * @param slots what becomes of the slots that fall while the schedule is paused: {@link
   *     PausedSlots#DROP} (default) forgets them, {@link PausedSlots#KEEP} treats them as missed
   *     when it resumes
   * @throws IllegalArgumentException if null
   */
  public Schedule whilePaused(PausedSlots slots) {
    require(slots != null, "whilePaused must not be null");
    return with(p -> p.whilePaused = slots);
  }

  /**
   * @param most each slot's message becomes available up to this much later, a random amount per
   *     slot, so many schedules on the same minute do not all start at once; default zero; at most
   *     365 days
   * @throws IllegalArgumentException if negative or too long
   */
  public Schedule jitter(Duration most) {
    Limits.checkNotNegative("jitter", most, Limits.MAX_DURATION);
    return with(p -> p.jitter = most);
  }

  /**
   * @return the schedule's name, unique in its store
   */
  public String name() {
    return parts.name;
  }

  /**
   * @return how its slots fall
   */
  public Kind kind() {
    return parts.kind;
  }

  /**
   * @return the cron expression; null for an interval schedule
   */
  public @Nullable String expression() {
    return parts.expression;
  }

  /**
   * @return the interval; null for a cron schedule
   */
  public @Nullable Duration interval() {
    return parts.interval;
  }

  /**
   * @return a slot of an interval schedule (the others are whole intervals away); the epoch unless
   *     {@link #startingAt} set it
   */
  public Instant anchor() {
    return parts.anchor;
  }

  /**
   * @return the time zone of a cron schedule's wall-clock times ({@code UTC} for intervals)
   */
  public String zone() {
    return parts.zone;
  }

  /**
   * @return the queue each slot's message goes to; null until {@link #enqueue} is called
   */
  public @Nullable String queue() {
    return parts.queue;
  }

  /**
   * @return what each slot enqueues; null until {@link #enqueue} is called
   */
  public @Nullable OutgoingMessage message() {
    return parts.message;
  }

  /**
   * @return what becomes of missed slots
   */
  public MissedSlots missedSlots() {
    return parts.missedSlots;
  }

  /**
   * @return how late a slot may fire and still be on time
   */
  public Duration missedAfter() {
    return parts.missedAfter;
  }

  /**
   * @return what becomes of slots that fall while it is paused
   */
  public PausedSlots whilePaused() {
    return parts.whilePaused;
  }

  /**
   * @return the most a slot's message is delayed at random
   */
  public Duration jitter() {
    return parts.jitter;
  }

  /**
   * @return the first slot strictly after {@code instant}
   */
  public Instant nextSlotAfter(Instant instant) {
    return slots.nextAfter(instant);
  }

  /**
   * @return {@code name}
   * @throws IllegalArgumentException if it is not a valid schedule name: 1 to {@value
   *     #MAX_NAME_LENGTH} characters, no control characters, no surrounding whitespace
   */
  public static String checkName(String name) {
    return Checks.id("schedule name", name, MAX_NAME_LENGTH);
  }

  /** Equal when every part of the definition is, the message's payload byte for byte. */
  @Override
  public boolean equals(Object other) {
    if (!(other instanceof Schedule o)) {
      return false;
    }
    Parts a = parts;
    Parts b = o.parts;
    return a.name.equals(b.name)
        && a.kind == b.kind
        && Objects.equals(a.expression, b.expression)
        && Objects.equals(a.interval, b.interval)
        && a.anchor.equals(b.anchor)
        && a.zone.equals(b.zone)
        && Objects.equals(a.queue, b.queue)
        && sameMessage(a.message, b.message)
        && a.missedSlots.equals(b.missedSlots)
        && a.missedAfter.equals(b.missedAfter)
        && a.whilePaused == b.whilePaused
        && a.jitter.equals(b.jitter);
  }

  private static boolean sameMessage(@Nullable OutgoingMessage a, @Nullable OutgoingMessage b) {
    if (a == null || b == null) {
      return a == b;
    }
    return Arrays.equals(a.payload(), b.payload())
        && a.contentType().equals(b.contentType())
        && a.headers().equals(b.headers())
        && Objects.equals(a.key(), b.key())
        && a.priority() == b.priority();
  }

  @Override
  public int hashCode() {
    return Objects.hash(parts.name, parts.kind, parts.expression, parts.interval, parts.queue);
  }

  @Override
  public String toString() {
    Parts p = parts;
    String when =
        switch (p.kind) {
          case CRON -> "cron '" + p.expression + "' in " + p.zone;
          case QUARTZ -> "quartz '" + p.expression + "' in " + p.zone;
          case INTERVAL ->
              "every " + p.interval + (p.anchor.equals(Instant.EPOCH) ? "" : " from " + p.anchor);
        };
    return "Schedule[" + p.name + ", " + when + ", to " + p.queue + "]";
  }
}
