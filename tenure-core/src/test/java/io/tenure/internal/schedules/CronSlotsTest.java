package io.tenure.internal.schedules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import io.tenure.CronSyntax;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.zone.ZoneOffsetTransition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A cron schedule's slots: its wall-clock times in its zone, a time in a spring-forward gap shifted
 * by the gap, a time repeated by a fall-back at its first occurrence (both, for a schedule that
 * fires every hour), cron-utils' validation passed on with the expression quoted.
 */
class CronSlotsTest {
  private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
  private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");

  /** Zones with a DST change of an hour, of half an hour, and at midnight; and one without. */
  private static final List<String> ZONES =
      List.of(
          "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Santiago", "UTC");

  private static final List<String> EXPRESSIONS =
      List.of(
          "30 2 * * *",
          "30 1 * * *",
          "0 * * * *",
          "*/20 1-3 * * *",
          "15,45 2,3 * * *",
          "0 */2 * * *",
          "*/10 * * * *",
          "30 0 * * *",
          "59 23 * * *",
          "0 0 1 * MON");

  private static Slots unix(String expression, ZoneId zone) {
    return Slots.cron(CronSyntax.UNIX, expression, zone.getId());
  }

  /** Slots from {@code from} (excluded) up to {@code to} (excluded), going forward. */
  private static List<Instant> forward(Slots slots, Instant from, Instant to) {
    List<Instant> found = new ArrayList<>();
    for (Instant s = slots.nextAfter(from); s.isBefore(to); s = slots.nextAfter(s)) {
      found.add(s);
    }
    return found;
  }

  /** The same slots, found going backward from {@code to}. */
  private static List<Instant> backward(Slots slots, Instant from, Instant to) {
    List<Instant> found = new ArrayList<>();
    Optional<Instant> s = slots.latestAtOrBefore(to.minusNanos(1));
    while (s.isPresent() && s.get().isAfter(from)) {
      found.addFirst(s.get());
      s = slots.latestAtOrBefore(s.get().minusNanos(1));
    }
    return found;
  }

  private static Instant startOf(LocalDate day, ZoneId zone) {
    return day.atStartOfDay(zone).toInstant();
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    // zone, day of the change, the daily 02:30's slots the day before, on the day, the day after
    "Europe/Berlin,    2026-03-29, 2026-03-28T01:30:00Z, 2026-03-29T01:30:00Z, 2026-03-30T00:30:00Z",
    "Europe/Berlin,    2026-10-25, 2026-10-24T00:30:00Z, 2026-10-25T00:30:00Z, 2026-10-26T01:30:00Z",
    "America/New_York, 2026-03-08, 2026-03-07T07:30:00Z, 2026-03-08T07:30:00Z, 2026-03-09T06:30:00Z",
    "America/New_York, 2026-11-01, 2026-10-31T06:30:00Z, 2026-11-01T07:30:00Z, 2026-11-02T07:30:00Z"
  })
  void a_daily_0230_fires_exactly_once_on_each_day_around_a_change(
      String zoneId, LocalDate day, Instant before, Instant on, Instant after) {
    ZoneId zone = ZoneId.of(zoneId);
    Slots slots = unix("30 2 * * *", zone);
    Instant from = startOf(day.minusDays(1), zone);
    Instant to = startOf(day.plusDays(2), zone);

    assertThat(forward(slots, from, to)).containsExactly(before, on, after);
    assertThat(backward(slots, from, to)).containsExactly(before, on, after);
  }

  @Test
  void a_wall_time_in_the_spring_forward_gap_fires_shifted_by_the_gap_as_java_time_resolves_it() {
    LocalDateTime missing = LocalDateTime.parse("2026-03-29T02:30");
    Instant shifted = ZonedDateTime.of(missing, BERLIN).toInstant();

    assertThat(shifted).isEqualTo(Instant.parse("2026-03-29T01:30:00Z"));
    assertThat(ZonedDateTime.ofInstant(shifted, BERLIN).toLocalDateTime())
        .isEqualTo(LocalDateTime.parse("2026-03-29T03:30"));
    assertThat(unix("30 2 * * *", BERLIN).nextAfter(Instant.parse("2026-03-29T00:00:00Z")))
        .isEqualTo(shifted);
  }

  @Test
  void a_wall_time_repeated_by_a_fall_back_fires_once_at_its_first_occurrence() {
    // In New York the hour from 01:00 to 02:00 repeats.
    Slots slots = unix("30 1 * * *", NEW_YORK);
    Instant from = Instant.parse("2026-10-31T12:00:00Z");
    Instant to = Instant.parse("2026-11-02T00:00:00Z");

    assertThat(forward(slots, from, to)).containsExactly(Instant.parse("2026-11-01T05:30:00Z"));
    assertThat(backward(slots, from, to)).containsExactly(Instant.parse("2026-11-01T05:30:00Z"));
    assertThat(slots.latestAtOrBefore(Instant.parse("2026-11-01T06:45:00Z")))
        .contains(Instant.parse("2026-11-01T05:30:00Z"));
  }

  @Test
  void a_yearly_slot_in_a_repeated_hour_is_found_at_its_first_occurrence_from_months_later() {
    // 02:30 on 25 October only: 2026's falls in Berlin's repeated hour. Asked after the next
    // spring-forward, the search passes that gap and must not take 02:30 at the offset before it.
    Slots slots = unix("30 2 25 10 *", BERLIN);

    assertThat(slots.latestAtOrBefore(Instant.parse("2027-03-28T01:30:00Z")))
        .contains(Instant.parse("2026-10-25T00:30:00Z"));
    assertThat(slots.latestAtOrBefore(Instant.parse("2027-06-01T00:00:00Z")))
        .contains(Instant.parse("2026-10-25T00:30:00Z"));
    assertThat(slots.nextAfter(Instant.parse("2026-06-01T00:00:00Z")))
        .isEqualTo(Instant.parse("2026-10-25T00:30:00Z"));
    assertThat(slots.nextAfter(Instant.parse("2026-10-25T00:30:00Z")))
        .isEqualTo(Instant.parse("2027-10-25T00:30:00Z"));
  }

  @Test
  void a_gap_slot_that_is_also_a_slot_of_its_own_fires_once() {
    Slots slots = unix("30 2,3 * * *", BERLIN);
    Instant from = startOf(LocalDate.parse("2026-03-29"), BERLIN);

    assertThat(forward(slots, from, from.plus(Duration.ofDays(1))))
        .containsExactly(Instant.parse("2026-03-29T01:30:00Z"));
  }

  @Test
  void a_gap_slot_takes_its_place_among_the_later_wall_times_it_overtook() {
    // 02:45 does not exist and fires at 03:45 summer time, after 03:15.
    Slots slots = unix("15,45 2,3 * * *", BERLIN);
    Instant from = startOf(LocalDate.parse("2026-03-29"), BERLIN);

    assertThat(forward(slots, from, from.plus(Duration.ofDays(1))))
        .containsExactly(
            Instant.parse("2026-03-29T01:15:00Z"), Instant.parse("2026-03-29T01:45:00Z"));
  }

  @Test
  void a_gap_at_midnight_shifts_a_slot_into_the_next_hour_of_the_same_day() {
    // Santiago springs forward at midnight, 2026-09-06 00:00 -04:00 to 01:00 -03:00.
    ZoneId santiago = ZoneId.of("America/Santiago");
    ZoneOffsetTransition change =
        santiago.getRules().nextTransition(Instant.parse("2026-08-01T00:00:00Z"));
    assertThat(change.isGap()).isTrue();
    LocalDate day = change.getDateTimeBefore().toLocalDate();

    Slots slots = unix("30 0 * * *", santiago);
    Instant from = change.getInstant().minus(Duration.ofHours(1));
    assertThat(slots.nextAfter(from))
        .isEqualTo(ZonedDateTime.of(day.atTime(0, 30), santiago).toInstant())
        .isEqualTo(change.getInstant().plus(Duration.ofMinutes(30)));
  }

  @ParameterizedTest(name = "{0} {1}: {2} slots")
  @CsvSource({
    "Europe/Berlin,    2026-03-29, 23",
    "Europe/Berlin,    2026-10-25, 25",
    "America/New_York, 2026-03-08, 23",
    "America/New_York, 2026-11-01, 25"
  })
  void an_hourly_schedule_fires_once_per_real_hour_across_a_change(
      String zoneId, LocalDate day, int slotsOnTheDay) {
    ZoneId zone = ZoneId.of(zoneId);
    Slots slots = unix("0 * * * *", zone);
    Map<LocalDate, Integer> perDay = new TreeMap<>();
    Instant from = startOf(day.minusDays(1), zone).minusNanos(1);
    List<Instant> found = forward(slots, from, startOf(day.plusDays(2), zone));
    found.forEach(s -> perDay.merge(LocalDate.ofInstant(s, zone), 1, Integer::sum));

    assertThat(perDay)
        .containsExactly(
            Map.entry(day.minusDays(1), 24),
            Map.entry(day, slotsOnTheDay),
            Map.entry(day.plusDays(1), 24));
    for (int i = 1; i < found.size(); i++) {
      assertThat(Duration.between(found.get(i - 1), found.get(i))).isEqualTo(Duration.ofHours(1));
    }
    assertThat(backward(slots, from, startOf(day.plusDays(2), zone))).isEqualTo(found);
  }

  @ParameterizedTest(name = "{0}: {1} slots")
  @CsvSource({"2026-03-29, 5520", "2026-10-25, 6000"})
  void a_quartz_schedule_with_seconds_keeps_its_pace_across_a_change(
      LocalDate day, int slotsOnTheDay) {
    Slots slots = Slots.cron(CronSyntax.QUARTZ, "0/15 * * * * ?", "Europe/Berlin");
    Instant from = startOf(day, BERLIN).minusNanos(1);
    List<Instant> found = forward(slots, from, startOf(day.plusDays(1), BERLIN));

    assertThat(found).hasSize(slotsOnTheDay);
    assertThat(found.getFirst()).isEqualTo(startOf(day, BERLIN));
    for (int i = 1; i < found.size(); i++) {
      assertThat(Duration.between(found.get(i - 1), found.get(i)))
          .isEqualTo(Duration.ofSeconds(15));
    }
  }

  @Provide
  Arbitrary<Slots> schedules() {
    return Combinators.combine(Arbitraries.of(EXPRESSIONS), Arbitraries.of(ZONES))
        .as((expression, zone) -> unix(expression, ZoneId.of(zone)));
  }

  /** Instants within two days of a 2026 change in one of the zones, or anywhere in 2026. */
  @Provide
  Arbitrary<Instant> instants() {
    List<Instant> changes = new ArrayList<>();
    for (String zone : ZONES) {
      ZoneOffsetTransition t =
          ZoneId.of(zone).getRules().nextTransition(Instant.parse("2025-12-31T00:00:00Z"));
      for (; t != null && t.getInstant().isBefore(Instant.parse("2027-01-01T00:00:00Z")); ) {
        changes.add(t.getInstant());
        t = ZoneId.of(zone).getRules().nextTransition(t.getInstant());
      }
    }
    Arbitrary<Instant> nearAChange =
        Combinators.combine(
                Arbitraries.of(changes),
                Arbitraries.longs().between(-2 * 86_400_000L, 2 * 86_400_000L))
            .as((change, millis) -> change.plusMillis(millis));
    Arbitrary<Instant> anywhere =
        Arbitraries.longs()
            .between(0, 365L * 86_400_000L)
            .map(millis -> Instant.parse("2026-01-01T00:00:00Z").plusMillis(millis));
    Arbitrary<Instant> onTheMinute =
        nearAChange.map(i -> i.truncatedTo(java.time.temporal.ChronoUnit.MINUTES));
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(5, nearAChange),
        net.jqwik.api.Tuple.of(3, onTheMinute),
        net.jqwik.api.Tuple.of(2, anywhere));
  }

  @Property(tries = 300)
  void next_after_and_latest_at_or_before_agree_with_no_slot_between(
      @ForAll("schedules") Slots slots, @ForAll("instants") Instant at) {
    Instant next = slots.nextAfter(at);
    Instant latest = slots.latestAtOrBefore(at).orElseThrow();

    assertThat(next).isAfter(at);
    assertThat(latest).isBeforeOrEqualTo(at);
    assertThat(slots.nextAfter(latest)).isEqualTo(next);
    assertThat(slots.latestAtOrBefore(next)).contains(next);
    assertThat(slots.latestAtOrBefore(next.minusNanos(1))).contains(latest);
    assertThat(next.getNano()).isZero();
  }

  /**
   * The reference: the expression's wall times from a day before a change to a day after it (as
   * cron-utils finds them in UTC, where no clock jumps), each resolved as the class documents.
   */
  @Property(tries = 100)
  void slots_are_the_matching_wall_times_resolved_as_documented(
      @ForAll("expressionsAndChanges") ExpressionNearChange c) {
    ExecutionTime wallTimes =
        ExecutionTime.forCron(
            new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX))
                .parse(c.expression()));
    boolean everyHour = c.expression().split(" ")[1].equals("*");
    LocalDateTime start = LocalDateTime.ofInstant(c.change(), c.zone()).minusDays(1);
    TreeSet<Instant> expected = new TreeSet<>();
    LocalDateTime w = wallTimes.nextExecution(start.atZone(ZoneOffset.UTC)).get().toLocalDateTime();
    for (; w.isBefore(start.plusDays(2)); w = next(wallTimes, w)) {
      List<ZoneOffset> offsets = c.zone().getRules().getValidOffsets(w);
      expected.add(ZonedDateTime.of(w, c.zone()).toInstant());
      if (offsets.size() == 2 && everyHour) {
        expected.add(w.toInstant(offsets.get(1)));
      }
    }
    Instant from = ZonedDateTime.of(start, c.zone()).toInstant().plus(Duration.ofHours(3));
    Instant to =
        ZonedDateTime.of(start.plusDays(2), c.zone()).toInstant().minus(Duration.ofHours(3));
    Slots slots = unix(c.expression(), c.zone());

    List<Instant> inRange = List.copyOf(expected.subSet(from, false, to, false));
    assertThat(forward(slots, from, to)).isEqualTo(inRange);
    assertThat(backward(slots, from, to)).isEqualTo(inRange);
  }

  private static LocalDateTime next(ExecutionTime wallTimes, LocalDateTime wall) {
    return wallTimes.nextExecution(wall.atZone(ZoneOffset.UTC)).get().toLocalDateTime();
  }

  record ExpressionNearChange(String expression, ZoneId zone, Instant change) {}

  @Provide
  Arbitrary<ExpressionNearChange> expressionsAndChanges() {
    List<ExpressionNearChange> all = new ArrayList<>();
    for (String zone : ZONES) {
      ZoneId id = ZoneId.of(zone);
      ZoneOffsetTransition t = id.getRules().nextTransition(Instant.parse("2025-12-31T00:00:00Z"));
      List<Instant> changes = new ArrayList<>();
      for (; t != null && t.getInstant().isBefore(Instant.parse("2027-01-01T00:00:00Z")); ) {
        changes.add(t.getInstant());
        t = id.getRules().nextTransition(t.getInstant());
      }
      if (changes.isEmpty()) {
        changes.add(Instant.parse("2026-06-01T00:00:00Z"));
      }
      for (String expression : EXPRESSIONS) {
        for (Instant change : changes) {
          all.add(new ExpressionNearChange(expression, id, change));
        }
      }
    }
    return Arbitraries.of(all);
  }

  @Test
  void a_quartz_schedule_has_no_slot_after_2099_nor_before_1970() {
    Slots slots = Slots.cron(CronSyntax.QUARTZ, "0 0 12 * * ?", "UTC");

    assertThat(slots.nextAfter(Instant.parse("2099-12-31T11:00:00Z")))
        .isEqualTo(Instant.parse("2099-12-31T12:00:00Z"));
    assertThatThrownBy(() -> slots.nextAfter(Instant.parse("2099-12-31T12:00:00Z")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Quartz cron expression '0 0 12 * * ?' in UTC has no slot after 2099-12-31T12:00:00Z");
    assertThat(slots.latestAtOrBefore(Instant.parse("1970-01-01T12:00:00Z")))
        .contains(Instant.parse("1970-01-01T12:00:00Z"));
    assertThat(slots.latestAtOrBefore(Instant.parse("1970-01-01T11:59:59Z"))).isEmpty();
  }

  @Test
  void a_unix_schedule_has_slots_far_into_the_future() {
    Slots slots = unix("0 12 * * *", ZoneId.of("UTC"));

    assertThat(slots.nextAfter(Instant.parse("9999-12-31T12:00:00Z")))
        .isEqualTo(Instant.parse("+10000-01-01T12:00:00Z"));
  }

  @Test
  void a_quartz_expression_may_give_the_year_as_a_star() {
    Slots slots = Slots.cron(CronSyntax.QUARTZ, "0 0 12 * * ? *", "UTC");

    assertThat(slots.nextAfter(Instant.parse("2026-01-01T00:00:00Z")))
        .isEqualTo(Instant.parse("2026-01-01T12:00:00Z"));
  }

  @Test
  void a_unix_schedule_restricting_day_of_month_and_day_of_week_fires_on_either() {
    Slots slots = unix("0 0 1 * MON", ZoneId.of("UTC"));
    Instant from = Instant.parse("2026-06-25T00:00:00Z");

    assertThat(forward(slots, from, Instant.parse("2026-07-10T00:00:00Z")))
        .containsExactly(
            Instant.parse("2026-06-29T00:00:00Z"), // a Monday
            Instant.parse("2026-07-01T00:00:00Z"), // a Wednesday, the first
            Instant.parse("2026-07-06T00:00:00Z"));
  }

  @Test
  void a_schedule_describes_itself_as_the_messages_quote_it() {
    assertThat(unix("30 2 * * *", BERLIN))
        .hasToString("Unix cron expression '30 2 * * *' in Europe/Berlin");
    assertThat(Slots.cron(CronSyntax.QUARTZ, "0/15 * * * * ?", "UTC"))
        .hasToString("Quartz cron expression '0/15 * * * * ?' in UTC");
  }

  @Test
  void a_fixed_offset_zone_is_accepted() {
    Slots slots = Slots.cron(CronSyntax.UNIX, "0 12 * * *", "+05:30");

    assertThat(slots.nextAfter(Instant.parse("2026-01-01T00:00:00Z")))
        .isEqualTo(Instant.parse("2026-01-01T06:30:00Z"));
  }

  @Test
  void an_instant_with_a_fraction_of_a_second_is_between_whole_second_slots() {
    Slots slots = Slots.cron(CronSyntax.QUARTZ, "* * * * * ?", "UTC");
    Instant at = Instant.parse("2026-06-01T12:00:00.5Z");

    assertThat(slots.nextAfter(at)).isEqualTo(Instant.parse("2026-06-01T12:00:01Z"));
    assertThat(slots.latestAtOrBefore(at)).contains(Instant.parse("2026-06-01T12:00:00Z"));
    assertThat(slots.nextAfter(Instant.parse("2026-06-01T12:00:00Z")))
        .isEqualTo(Instant.parse("2026-06-01T12:00:01Z"));
    assertThat(slots.latestAtOrBefore(Instant.parse("2026-06-01T12:00:00Z")))
        .contains(Instant.parse("2026-06-01T12:00:00Z"));
  }

  @Test
  void an_invalid_unix_expression_is_refused_with_cron_utils_reason() {
    assertThatThrownBy(() -> Slots.cron(CronSyntax.UNIX, "61 * * * *", "UTC"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "invalid Unix cron expression '61 * * * *': Failed to parse cron expression. Value 61"
                + " not in range [0, 59]");
  }

  @Test
  void an_expression_of_the_other_syntax_is_refused_naming_the_syntax() {
    assertThatThrownBy(() -> Slots.cron(CronSyntax.QUARTZ, "0/15 * * * *", "UTC"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "invalid Quartz cron expression '0/15 * * * *': Cron expression contains 5 parts but"
                + " we expect one of [6, 7]");
    assertThatThrownBy(() -> Slots.cron(CronSyntax.UNIX, "0 30 2 * * ?", "UTC"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("invalid Unix cron expression '0 30 2 * * ?': ");
  }

  @Test
  void an_expression_that_never_fires_is_refused() {
    assertThatThrownBy(() -> Slots.cron(CronSyntax.UNIX, "0 0 30 2 *", "UTC"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cron expression '0 0 30 2 *' never fires");
    assertThatThrownBy(() -> Slots.cron(CronSyntax.QUARTZ, "0 0 0 31 4 ?", "UTC"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cron expression '0 0 0 31 4 ?' never fires");
  }

  @Test
  void an_expression_that_fires_once_in_decades_is_accepted() {
    // The fifth Monday of February: 2016, 2044.
    Slots slots = Slots.cron(CronSyntax.QUARTZ, "0 0 0 ? 2 MON#5", "UTC");

    assertThat(slots.nextAfter(Instant.parse("2026-01-01T00:00:00Z")))
        .isEqualTo(Instant.parse("2044-02-29T00:00:00Z"));
    assertThat(slots.latestAtOrBefore(Instant.parse("2026-01-01T00:00:00Z")))
        .contains(Instant.parse("2016-02-29T00:00:00Z"));
  }

  @Test
  void a_quartz_year_other_than_a_star_is_refused() {
    assertThatThrownBy(() -> Slots.cron(CronSyntax.QUARTZ, "0 0 12 * * ? 2030", "UTC"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "the year field of Quartz cron expression '0 0 12 * * ? 2030' must be '*' (a schedule"
                + " repeats without end), got '2030'");
  }

  @Test
  void an_unknown_or_malformed_zone_is_refused_quoting_it() {
    assertThatThrownBy(() -> Slots.cron(CronSyntax.UNIX, "0 * * * *", "Europe/Berlinn"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown time zone 'Europe/Berlinn'");
    assertThatThrownBy(() -> Slots.cron(CronSyntax.UNIX, "0 * * * *", "+25:00"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("invalid time zone '+25:00': ");
  }

  @Test
  void null_or_blank_arguments_are_refused_naming_them() {
    assertThatThrownBy(() -> Slots.cron(null, "0 * * * *", "UTC"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("syntax must not be null");
    assertThatThrownBy(() -> Slots.cron(CronSyntax.UNIX, null, "UTC"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expression must not be null");
    assertThatThrownBy(() -> Slots.cron(CronSyntax.UNIX, " ", "UTC"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expression must not be empty or blank, got ' '");
    assertThatThrownBy(() -> Slots.cron(CronSyntax.UNIX, "0 * * * *", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("zoneId must not be null");
    assertThatThrownBy(() -> Slots.cron(CronSyntax.UNIX, "0 * * * *", ""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("zoneId must not be empty or blank, got ''");
    Slots slots = unix("0 * * * *", BERLIN);
    assertThatThrownBy(() -> slots.nextAfter(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("after must not be null");
    assertThatThrownBy(() -> slots.latestAtOrBefore(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("at must not be null");
  }

  @Provide
  Arbitrary<String> cronish() {
    return Arbitraries.strings()
        .withChars("0123456789*/,-? LW#MONFRI")
        .ofMinLength(1)
        .ofMaxLength(20);
  }

  @Property(tries = 300)
  void any_text_is_a_schedule_or_refused_with_an_illegal_argument_quoting_it(
      @ForAll("cronish") String text, @ForAll CronSyntax syntax) {
    try {
      Slots slots = Slots.cron(syntax, text, "UTC");
      assertThat(slots.nextAfter(Instant.parse("2026-01-01T00:00:00Z"))).isNotNull();
    } catch (IllegalArgumentException e) {
      assertThat(e.getMessage()).contains("'" + text + "'");
    }
  }
}
