package io.tenure.internal.schedules;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.field.CronField;
import com.cronutils.model.field.CronFieldName;
import com.cronutils.model.field.expression.Always;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.model.time.generator.FieldValueGeneratorFactory;
import com.cronutils.parser.CronParser;
import io.tenure.CronSyntax;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.time.zone.ZoneRulesException;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The slots of a cron expression: the instants at which the schedule's time zone shows a wall-clock
 * time the expression matches. cron-utils decides which wall-clock times match (it is asked in UTC,
 * where no clock jumps); this class decides which instants they are, so that a daylight-saving
 * change does this:
 *
 * <ul>
 *   <li>A wall time that does not exist (spring forward) fires once, shifted by the length of the
 *       gap, as {@link ZonedDateTime#of} resolves it: a daily 02:30 in Europe/Berlin fires at 03:30
 *       summer time on 2026-03-29, in America/New_York at 03:30 on 2026-03-08. If the shifted
 *       instant is also a slot of its own (02:30 and 03:30 both match), it fires once.
 *   <li>A wall time that occurs twice (fall back) fires once, at its first occurrence, the earlier
 *       offset: a daily 02:30 in Europe/Berlin fires at 02:30 summer time (00:30 UTC) on
 *       2026-10-25.
 *   <li>Except that a schedule whose hour field matches every hour fires by the real clock through
 *       the repeated hour, at both occurrences: {@code 0 * * * *} fires once per real hour, 23
 *       times on a spring-forward day and 25 on a fall-back day, and a {@code 0/15 * * * * ?} fires
 *       every 15 seconds without an hour's pause. (Such a schedule loses nothing in a gap either:
 *       its shifted slots are slots of their own.)
 * </ul>
 *
 * <p>So a daily schedule fires exactly once on every day, and the days around a change are
 * unaffected. cron-utils 9.2.1, asked in the zone itself, does otherwise: it skips a wall time in a
 * gap (no 02:30 at all on a spring-forward day), and for a repeated one its next-execution search
 * returns the first occurrence only while its last-execution search returns both; its hourly
 * schedules already fire 23 and 25 times.
 *
 * <p>Slots are whole seconds. A Quartz expression's calendar ends in 2099 and begins in 1970 (it is
 * cron-utils'); a Unix expression's has no practical bound.
 */
final class CronSlots implements Slots {
  /** Where the search for a first slot starts: the start of cron-utils' Quartz calendar. */
  private static final LocalDateTime CALENDAR_START = LocalDateTime.of(1970, 1, 1, 0, 0);

  private final String description;
  private final ZoneRules rules;

  /** The expression's matching wall-clock times: cron-utils in UTC, where no clock jumps. */
  private final ExecutionTime wallTimes;

  /** The hour field matches every hour: the repeated hour of a fall-back fires twice. */
  private final boolean everyHour;

  private CronSlots(
      String description, ZoneRules rules, ExecutionTime wallTimes, boolean everyHour) {
    this.description = description;
    this.rules = rules;
    this.wallTimes = wallTimes;
    this.everyHour = everyHour;
  }

  /** See {@link Slots#cron}. */
  static CronSlots of(CronSyntax syntax, String expression, String zoneId) {
    Arguments.notNull("syntax", syntax);
    Arguments.notBlank("expression", expression);
    Arguments.notBlank("zoneId", zoneId);
    Cron cron = parse(syntax, expression);
    ZoneId zone = zone(zoneId);
    CronSlots slots =
        new CronSlots(
            name(syntax) + " cron expression '" + expression + "' in " + zone,
            zone.getRules(),
            ExecutionTime.forCron(cron),
            matchesEveryHour(cron));
    if (slots.firstWallAfter(CALENDAR_START.minusSeconds(1)).isEmpty()) {
      throw new IllegalArgumentException("cron expression '" + expression + "' never fires");
    }
    return slots;
  }

  private static Cron parse(CronSyntax syntax, String expression) {
    CronType type =
        switch (syntax) {
          case UNIX -> CronType.UNIX;
          case QUARTZ -> CronType.QUARTZ;
        };
    Cron cron;
    try {
      cron = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(type)).parse(expression);
      cron.validate();
    } catch (RuntimeException e) {
      // cron-utils throws IllegalArgumentException for what it recognises as invalid, other
      // runtime exceptions for some input it does not: either way the expression is refused.
      throw new IllegalArgumentException(
          "invalid " + name(syntax) + " cron expression '" + expression + "': " + reason(e), e);
    }
    CronField year = cron.retrieve(CronFieldName.YEAR);
    if (year != null && !(year.getExpression() instanceof Always)) {
      throw new IllegalArgumentException(
          "the year field of Quartz cron expression '"
              + expression
              + "' must be '*' (a schedule repeats without end), got '"
              + year.getExpression().asString()
              + "'");
    }
    return cron;
  }

  private static ZoneId zone(String zoneId) {
    try {
      return ZoneId.of(zoneId);
    } catch (ZoneRulesException e) {
      throw new IllegalArgumentException("unknown time zone '" + zoneId + "'", e);
    } catch (DateTimeException e) {
      throw new IllegalArgumentException(
          "invalid time zone '" + zoneId + "': " + e.getMessage(), e);
    }
  }

  private static boolean matchesEveryHour(Cron cron) {
    CronField hours = cron.retrieve(CronFieldName.HOUR);
    return FieldValueGeneratorFactory.forCronField(hours).generateCandidates(0, 23).size() == 24;
  }

  private static String name(CronSyntax syntax) {
    return switch (syntax) {
      case UNIX -> "Unix";
      case QUARTZ -> "Quartz";
    };
  }

  private static String reason(RuntimeException e) {
    return e.getMessage() == null ? e.toString() : e.getMessage();
  }

  @Override
  public Instant nextAfter(Instant after) {
    Arguments.notNull("after", after);
    Instant from = after;
    Segment segment = segmentAt(after);
    while (true) {
      ZoneOffset offset = segment.offset();
      Optional<LocalDateTime> wall =
          firstWallAfter(LocalDateTime.ofInstant(clockFrom(segment, from), offset));
      Instant onTheClock = wall.map(w -> w.toInstant(offset)).orElse(null);
      if (onTheClock != null && segment.end() != null && !onTheClock.isBefore(segment.end())) {
        onTheClock = null;
      }
      Instant first = earlier(onTheClock, firstShiftedOutOfGap(segment, from));
      if (first != null) {
        return checkedAfter(first, after);
      }
      if (wall.isEmpty() || segment.end() == null) {
        throw new IllegalArgumentException(description + " has no slot after " + after);
      }
      from = segment.end().minusNanos(1);
      segment = segmentAt(segment.end());
    }
  }

  @Override
  public Optional<Instant> latestAtOrBefore(Instant at) {
    Arguments.notNull("at", at);
    Instant to = at;
    Segment segment = segmentAt(at);
    while (true) {
      Optional<LocalDateTime> wall =
          lastWallAtOrBefore(LocalDateTime.ofInstant(to, segment.offset()));
      if (wall.isEmpty()) {
        return Optional.empty();
      }
      Instant onTheClock = wall.get().toInstant(segment.offset());
      Instant clockStart = clockStart(segment);
      if (clockStart != null && onTheClock.isBefore(clockStart)) {
        onTheClock = null;
      }
      Instant latest = later(onTheClock, lastShiftedOutOfGap(segment, to));
      if (latest != null) {
        return Optional.of(checkedAtOrBefore(latest, at));
      }
      if (segment.start() == null) {
        return Optional.empty();
      }
      to = segment.start().getInstant().minusNanos(1);
      segment = segmentAt(to);
    }
  }

  /**
   * A stretch of time with one offset, from the transition that began it (null: the zone's first
   * offset) to the instant of the next (null: the zone's last offset).
   */
  private record Segment(
      @Nullable ZoneOffsetTransition start, ZoneOffset offset, @Nullable Instant end) {}

  private Segment segmentAt(Instant instant) {
    ZoneOffsetTransition next = rules.nextTransition(instant);
    return new Segment(
        rules.previousTransition(instant.plusNanos(1)),
        rules.getOffset(instant),
        next == null ? null : next.getInstant());
  }

  /**
   * Where a search forward for slots shown on the clock begins: the repeated hour after a fall-back
   * shows wall times that already fired, unless the schedule fires every hour.
   */
  private Instant clockFrom(Segment segment, Instant from) {
    Instant start = clockStart(segment);
    return start != null && from.isBefore(start) ? start.minusNanos(1) : from;
  }

  /** The first instant of a segment whose clock may show a slot, null if it began for ever ago. */
  private @Nullable Instant clockStart(Segment segment) {
    ZoneOffsetTransition start = segment.start();
    if (start == null) {
      return null;
    }
    return start.isOverlap() && !everyHour ? windowEnd(start) : start.getInstant();
  }

  /**
   * The first slot after {@code from} that a spring-forward gap at the segment's start shifted: a
   * wall time in the gap, resolved with the offset before it (02:30 becomes 03:30 summer time).
   */
  private @Nullable Instant firstShiftedOutOfGap(Segment segment, Instant from) {
    ZoneOffsetTransition gap = segment.start();
    if (gap == null || !gap.isGap() || !from.isBefore(windowEnd(gap))) {
      return null;
    }
    ZoneOffset before = gap.getOffsetBefore();
    return firstWallAfter(LocalDateTime.ofInstant(from, before))
        .filter(w -> w.isBefore(gap.getDateTimeAfter()))
        .map(w -> w.toInstant(before))
        .orElse(null);
  }

  /** The latest slot at or before {@code to} that a gap at the segment's start shifted. */
  private @Nullable Instant lastShiftedOutOfGap(Segment segment, Instant to) {
    ZoneOffsetTransition gap = segment.start();
    if (gap == null || !gap.isGap() || to.isBefore(gap.getInstant())) {
      return null;
    }
    ZoneOffset before = gap.getOffsetBefore();
    LocalDateTime lastInGap = gap.getDateTimeAfter().minusNanos(1);
    LocalDateTime upTo = LocalDateTime.ofInstant(to, before);
    return lastWallAtOrBefore(upTo.isBefore(lastInGap) ? upTo : lastInGap)
        .filter(w -> !w.isBefore(gap.getDateTimeBefore()))
        .map(w -> w.toInstant(before))
        .orElse(null);
  }

  /** The end of a transition's window: of the gap's shifted slots, or of the repeated hour. */
  private static Instant windowEnd(ZoneOffsetTransition transition) {
    return transition.getInstant().plus(transition.getDuration().abs());
  }

  /** The first matching wall time strictly after {@code after}. */
  private Optional<LocalDateTime> firstWallAfter(LocalDateTime after) {
    // Whole seconds only: cron-utils carries a fraction of a second over into a Quartz result.
    ZonedDateTime from = after.truncatedTo(ChronoUnit.SECONDS).atZone(ZoneOffset.UTC);
    return wallTimes.nextExecution(from).map(ZonedDateTime::toLocalDateTime);
  }

  /** The last matching wall time at or before {@code at}. */
  private Optional<LocalDateTime> lastWallAtOrBefore(LocalDateTime at) {
    ZonedDateTime before = at.truncatedTo(ChronoUnit.SECONDS).plusSeconds(1).atZone(ZoneOffset.UTC);
    return wallTimes.lastExecution(before).map(ZonedDateTime::toLocalDateTime);
  }

  private Instant checkedAfter(Instant slot, Instant after) {
    if (!slot.isAfter(after)) {
      throw new IllegalStateException(
          description + ": next slot after " + after + " is " + slot + ", indicates a bug");
    }
    return slot;
  }

  private Instant checkedAtOrBefore(Instant slot, Instant at) {
    if (slot.isAfter(at)) {
      throw new IllegalStateException(
          description + ": latest slot at or before " + at + " is " + slot + ", indicates a bug");
    }
    return slot;
  }

  private static @Nullable Instant earlier(@Nullable Instant a, @Nullable Instant b) {
    return a == null || (b != null && b.isBefore(a)) ? b : a;
  }

  private static @Nullable Instant later(@Nullable Instant a, @Nullable Instant b) {
    return a == null || (b != null && b.isAfter(a)) ? b : a;
  }

  @Override
  public String toString() {
    return description;
  }
}
