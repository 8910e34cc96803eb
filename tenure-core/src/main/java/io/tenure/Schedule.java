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

  private final String name;
  private final Kind kind;
  private final @Nullable String expression;
  private final @Nullable Duration interval;
  private final Instant anchor;
  private final String zone;
  private final @Nullable String queue;
  private final @Nullable OutgoingMessage message;
  private final MissedSlots missedSlots;
  private final Duration missedAfter;
  private final PausedSlots whilePaused;
  private final Duration jitter;
  private final Slots slots;

  private Schedule(
      String name,
      Kind kind,
      @Nullable String expression,
      @Nullable Duration interval,
      Instant anchor,
      String zone,
      @Nullable String queue,
      @Nullable OutgoingMessage message,
      MissedSlots missedSlots,
      Duration missedAfter,
      PausedSlots whilePaused,
      Duration jitter) {
    this.name = name;
    this.kind = kind;
    this.expression = expression;
    this.interval = interval;
    this.anchor = anchor;
    this.zone = zone;
    this.queue = queue;
    this.message = message;
    this.missedSlots = missedSlots;
    this.missedAfter = missedAfter;
    this.whilePaused = whilePaused;
    this.jitter = jitter;
    this.slots =
        switch (kind) {
          case CRON -> Slots.cron(CronSyntax.UNIX, expression, zone);
          case QUARTZ -> Slots.cron(CronSyntax.QUARTZ, expression, zone);
          case INTERVAL -> Slots.every(interval, anchor);
        };
  }

  /**
   * A schedule on a Unix cron expression (minute hour day-of-month month day-of-week), in UTC
   * unless {@link #zone} says otherwise.
   *
   * @throws IllegalArgumentException if the name or expression is invalid, or the expression never
   *     fires, naming it
   */
  public static Schedule cron(String name, String expression) {
    return new Schedule(
        checkName(name),
        Kind.CRON,
        expression,
        null,
        Instant.EPOCH,
        DEFAULT_ZONE,
        null,
        null,
        MissedSlots.latest(),
        DEFAULT_MISSED_AFTER,
        PausedSlots.DROP,
        Duration.ZERO);
  }

  /**
   * A schedule on a Quartz cron expression (second minute hour day-of-month month day-of-week
   * [year]), in UTC unless {@link #zone} says otherwise.
   *
   * @throws IllegalArgumentException if the name or expression is invalid, or the expression never
   *     fires, naming it
   */
  public static Schedule quartz(String name, String expression) {
    return cron(name, "* * * * *").with(Kind.QUARTZ, expression, null, Instant.EPOCH);
  }

  /**
   * A schedule every {@code interval}, its slots at whole multiples of it since 1970-01-01T00:00Z
   * (every hour: on the hour, UTC), unless {@link #startingAt} moves them.
   *
   * @param interval at least 1 ms, at most 365 days
   * @throws IllegalArgumentException if the name or interval is invalid, naming it
   */
  public static Schedule every(String name, Duration interval) {
    return cron(name, "* * * * *").with(Kind.INTERVAL, null, interval, Instant.EPOCH);
  }

  private Schedule with(
      Kind kind, @Nullable String expression, @Nullable Duration interval, Instant anchor) {
    return new Schedule(
        name,
        kind,
        expression,
        interval,
        anchor,
        zone,
        queue,
        message,
        missedSlots,
        missedAfter,
        whilePaused,
        jitter);
  }

  /**
   * @param zoneId the time zone a cron schedule's wall-clock times are in, e.g. {@code
   *     Europe/Berlin}; default UTC
   * @throws IllegalArgumentException if the zone is unknown, naming it, or this is an interval
   *     schedule (its slots are instants)
   */
  public Schedule zone(String zoneId) {
    if (kind == Kind.INTERVAL) {
      throw new IllegalArgumentException(
          "schedule '" + name + "' runs every " + interval + ": an interval has no time zone");
    }
    return new Schedule(
        name,
        kind,
        expression,
        interval,
        anchor,
        zoneId,
        queue,
        message,
        missedSlots,
        missedAfter,
        whilePaused,
        jitter);
  }

  /**
   * @param first a slot of this interval schedule: the others fall at whole intervals before and
   *     after it
   * @throws IllegalArgumentException if this is a cron schedule, or {@code first} is null
   */
  public Schedule startingAt(Instant first) {
    if (kind != Kind.INTERVAL) {
      throw new IllegalArgumentException(
          "schedule '" + name + "' is a cron schedule: startingAt is for interval schedules");
    }
    if (first == null) {
      throw new IllegalArgumentException("startingAt must not be null");
    }
    return with(kind, null, interval, first);
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
    if (message == null) {
      throw new IllegalArgumentException("schedule '" + name + "': message must not be null");
    }
    if (!message.delay().isZero()) {
      throw new IllegalArgumentException(
          "schedule '"
              + name
              + "': its message must have no delay ("
              + message.delay()
              + "); use jitter to spread slots");
    }
    if (message.dedupeKey() != null) {
      throw new IllegalArgumentException(
          "schedule '"
              + name
              + "': its message must have no dedupe key ('"
              + message.dedupeKey()
              + "'): each slot is deduplicated by the schedule and the slot's time");
    }
    return new Schedule(
        name,
        kind,
        expression,
        interval,
        anchor,
        zone,
        queueName,
        message,
        missedSlots,
        missedAfter,
        whilePaused,
        jitter);
  }

  /**
   * {@link #enqueue(String, OutgoingMessage)} to {@code queue}.
   *
   * @throws IllegalArgumentException as that method
   */
  public Schedule enqueue(Queue queue, OutgoingMessage message) {
    if (queue == null) {
      throw new IllegalArgumentException("schedule '" + name + "': queue must not be null");
    }
    return enqueue(queue.name(), message);
  }

  /**
   * @param policy what becomes of slots missed while no leader could fire them (the fleet was down)
   *     or while the schedule was paused: {@link MissedSlots#latest()} by default
   * @throws IllegalArgumentException if null
   */
  public Schedule missedSlots(MissedSlots policy) {
    if (policy == null) {
      throw new IllegalArgumentException("schedule '" + name + "': missed slots must not be null");
    }
    return new Schedule(
        name,
        kind,
        expression,
        interval,
        anchor,
        zone,
        queue,
        message,
        policy,
        missedAfter,
        whilePaused,
        jitter);
  }

  /**
   * @param lateness how late a slot may fire and still count as on time (and always fire); a later
   *     one is missed, and {@link #missedSlots} decides. Default one minute; zero to 365 days
   * @throws IllegalArgumentException if out of range
   */
  public Schedule missedAfter(Duration lateness) {
    Limits.checkNotNegative("missedAfter", lateness, Limits.MAX_DURATION);
    return new Schedule(
        name,
        kind,
        expression,
        interval,
        anchor,
        zone,
        queue,
        message,
        missedSlots,
        lateness,
        whilePaused,
        jitter);
  }

  /**
   * @param slots what becomes of the slots that fall while the schedule is paused: {@link
   *     PausedSlots#DROP} (default) forgets them, {@link PausedSlots#KEEP} treats them as missed
   *     when it resumes
   * @throws IllegalArgumentException if null
   */
  public Schedule whilePaused(PausedSlots slots) {
    if (slots == null) {
      throw new IllegalArgumentException("schedule '" + name + "': whilePaused must not be null");
    }
    return new Schedule(
        name,
        kind,
        expression,
        interval,
        anchor,
        zone,
        queue,
        message,
        missedSlots,
        missedAfter,
        slots,
        jitter);
  }

  /**
   * @param most each slot's message becomes available up to this much later, a random amount per
   *     slot, so many schedules on the same minute do not all start at once; default zero; at most
   *     365 days
   * @throws IllegalArgumentException if negative or too long
   */
  public Schedule jitter(Duration most) {
    Limits.checkNotNegative("jitter", most, Limits.MAX_DURATION);
    return new Schedule(
        name,
        kind,
        expression,
        interval,
        anchor,
        zone,
        queue,
        message,
        missedSlots,
        missedAfter,
        whilePaused,
        most);
  }

  /**
   * @return the schedule's name, unique in its store
   */
  public String name() {
    return name;
  }

  /**
   * @return how its slots fall
   */
  public Kind kind() {
    return kind;
  }

  /**
   * @return the cron expression; null for an interval schedule
   */
  public @Nullable String expression() {
    return expression;
  }

  /**
   * @return the interval; null for a cron schedule
   */
  public @Nullable Duration interval() {
    return interval;
  }

  /**
   * @return a slot of an interval schedule (the others are whole intervals away); the epoch unless
   *     {@link #startingAt} set it
   */
  public Instant anchor() {
    return anchor;
  }

  /**
   * @return the time zone of a cron schedule's wall-clock times ({@code UTC} for intervals)
   */
  public String zone() {
    return zone;
  }

  /**
   * @return the queue each slot's message goes to; null until {@link #enqueue} is called
   */
  public @Nullable String queue() {
    return queue;
  }

  /**
   * @return what each slot enqueues; null until {@link #enqueue} is called
   */
  public @Nullable OutgoingMessage message() {
    return message;
  }

  /**
   * @return what becomes of missed slots
   */
  public MissedSlots missedSlots() {
    return missedSlots;
  }

  /**
   * @return how late a slot may fire and still be on time
   */
  public Duration missedAfter() {
    return missedAfter;
  }

  /**
   * @return what becomes of slots that fall while it is paused
   */
  public PausedSlots whilePaused() {
    return whilePaused;
  }

  /**
   * @return the most a slot's message is delayed at random
   */
  public Duration jitter() {
    return jitter;
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
    return other instanceof Schedule s
        && name.equals(s.name)
        && kind == s.kind
        && Objects.equals(expression, s.expression)
        && Objects.equals(interval, s.interval)
        && anchor.equals(s.anchor)
        && zone.equals(s.zone)
        && Objects.equals(queue, s.queue)
        && sameMessage(message, s.message)
        && missedSlots.equals(s.missedSlots)
        && missedAfter.equals(s.missedAfter)
        && whilePaused == s.whilePaused
        && jitter.equals(s.jitter);
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
    return Objects.hash(name, kind, expression, interval, anchor, zone, queue);
  }

  @Override
  public String toString() {
    String when =
        switch (kind) {
          case CRON -> "cron '" + expression + "' in " + zone;
          case QUARTZ -> "quartz '" + expression + "' in " + zone;
          case INTERVAL ->
              "every " + interval + (anchor.equals(Instant.EPOCH) ? "" : " from " + anchor);
        };
    return "Schedule[" + name + ", " + when + ", to " + queue + "]";
  }
}
