package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.HookDecision;
import io.tenure.HookStatus;
import io.tenure.Marker;
import io.tenure.MarkerChange;
import io.tenure.MarkerHookException;
import io.tenure.MarkerKey;
import io.tenure.Markers;
import io.tenure.TransitionResult;
import io.tenure.TransitionResult.Outcome;
import io.tenure.spi.CreateResult;
import io.tenure.spi.MarkerStore;
import io.tenure.spi.Store;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** SPEC §7: create-if-absent markers, on every provider. */
public abstract class MarkersComplianceTest extends FixtureSupport {
  private static final String TENANT = "acme";

  private Store store;
  private MarkerStore markerStore;

  @BeforeEach
  void openStore() {
    store = freshStore();
    markerStore = store.markers();
  }

  private Markers markers() {
    return Markers.builder(markerStore).build();
  }

  @Test
  void a_transition_creates_the_marker_with_the_database_time() {
    Instant before = store.now();
    TransitionResult result = markers().transition(TENANT, "invoice-1", "ARCHIVED", "paid");
    Instant after = store.now();

    assertThat(result).isInstanceOf(TransitionResult.Applied.class);
    Marker marker = ((TransitionResult.Applied) result).marker();
    assertThat(marker.key()).isEqualTo(MarkerKey.of(TENANT, "invoice-1"));
    assertThat(marker.state()).isEqualTo("ARCHIVED");
    assertThat(marker.reason()).isEqualTo("paid");
    assertThat(marker.markedAt()).isBetween(before.minusMillis(1), after.plusMillis(1));
    assertThat(markers().get(TENANT, "invoice-1")).contains(marker);
  }

  @Test
  void applying_the_same_marker_twice_is_idempotent() {
    Marker first = applied(markers().transition(TENANT, "invoice-2", "ARCHIVED", "first"));

    TransitionResult second = markers().transition(TENANT, "invoice-2", "ARCHIVED", "second");

    assertThat(second).isEqualTo(new TransitionResult.AlreadySatisfied(first));
    assertThat(markers().get(TENANT, "invoice-2")).contains(first);
  }

  @Test
  void a_different_state_is_a_conflict_returning_the_stored_marker() {
    Marker archived = applied(markers().transition(TENANT, "invoice-3", "ARCHIVED", null));

    TransitionResult result = markers().transition(TENANT, "invoice-3", "SOFT_DELETED", "gdpr");

    assertThat(result).isEqualTo(new TransitionResult.Conflict(archived));
    assertThat(markers().get(TENANT, "invoice-3")).contains(archived);
  }

  @Test
  void archive_and_soft_delete_race_exactly_one_applies_and_the_other_conflicts() {
    List<HookStatus> statuses = Collections.synchronizedList(new ArrayList<>());
    Markers racing = bothWritersPassTheCheckThenWrite(2, statuses);

    List<TransitionResult> results =
        Race.run(
            List.of(
                () -> racing.transition(TENANT, "doc-1", "ARCHIVED", "a"),
                () -> racing.transition(TENANT, "doc-1", "SOFT_DELETED", "b")));

    assertThat(results)
        .extracting(TransitionResult::outcome)
        .containsExactlyInAnyOrder(Outcome.APPLIED, Outcome.CONFLICT);
    Marker stored = markers().get(TENANT, "doc-1").orElseThrow();
    assertThat(results)
        .contains(new TransitionResult.Applied(stored), new TransitionResult.Conflict(stored));
    assertThat(statuses).containsExactlyInAnyOrder(HookStatus.SUCCEEDED, HookStatus.FAILED);
  }

  @Test
  void two_archives_race_one_applies_and_the_other_is_already_satisfied() {
    List<HookStatus> statuses = Collections.synchronizedList(new ArrayList<>());
    Markers racing = bothWritersPassTheCheckThenWrite(2, statuses);

    List<TransitionResult> results =
        Race.run(
            List.of(
                () -> racing.transition(TENANT, "doc-2", "ARCHIVED", "a"),
                () -> racing.transition(TENANT, "doc-2", "ARCHIVED", "b")));

    assertThat(results)
        .extracting(TransitionResult::outcome)
        .containsExactlyInAnyOrder(Outcome.APPLIED, Outcome.ALREADY_SATISFIED);
    Marker stored = markers().get(TENANT, "doc-2").orElseThrow();
    assertThat(results)
        .contains(
            new TransitionResult.Applied(stored), new TransitionResult.AlreadySatisfied(stored));
    assertThat(statuses).containsExactlyInAnyOrder(HookStatus.SUCCEEDED, HookStatus.FAILED);
  }

  @Test
  void of_eight_racing_writers_exactly_one_applies_and_its_marker_is_the_one_stored() {
    int writers = 8;
    List<HookStatus> statuses = Collections.synchronizedList(new ArrayList<>());
    Markers racing = bothWritersPassTheCheckThenWrite(writers, statuses);
    List<Callable<TransitionResult>> calls = new ArrayList<>();
    for (int i = 0; i < writers; i++) {
      String state = i % 2 == 0 ? "ARCHIVED" : "SOFT_DELETED";
      String reason = "writer-" + i;
      calls.add(() -> racing.transition(TENANT, "doc-8", state, reason));
    }

    List<TransitionResult> results = Race.run(calls);

    Marker stored = markers().get(TENANT, "doc-8").orElseThrow();
    assertThat(results)
        .filteredOn(r -> r.outcome() == Outcome.APPLIED)
        .containsExactly(new TransitionResult.Applied(stored));
    assertThat(results)
        .filteredOn(r -> r.outcome() != Outcome.APPLIED)
        .allSatisfy(
            r ->
                assertThat(r)
                    .isIn(
                        new TransitionResult.AlreadySatisfied(stored),
                        new TransitionResult.Conflict(stored)));
    assertThat(statuses).filteredOn(s -> s == HookStatus.SUCCEEDED).hasSize(1);
    assertThat(statuses).hasSize(writers);
  }

  @Test
  void the_store_creates_only_when_absent_and_returns_the_row_already_there() {
    MarkerChange first = MarkerChange.of(TENANT, "doc-3", "ARCHIVED", "one");
    MarkerChange second = MarkerChange.of(TENANT, "doc-3", "SOFT_DELETED", "two");

    CreateResult created = markerStore.createIfAbsent(first);
    CreateResult refused = markerStore.createIfAbsent(second);

    assertThat(created.created()).isTrue();
    assertThat(refused).isEqualTo(new CreateResult(false, created.marker()));
    assertThat(markerStore.find(first.key())).contains(created.marker());
  }

  @Test
  void a_before_hook_veto_writes_nothing_and_runs_no_after_hook() {
    List<HookStatus> statuses = new ArrayList<>();
    Markers vetoing =
        Markers.builder(markerStore)
            .beforeTransition((change, current) -> HookDecision.veto("legal hold"))
            .afterTransition((change, status, result) -> statuses.add(status))
            .build();

    TransitionResult result = vetoing.transition(TENANT, "doc-4", "SOFT_DELETED", null);

    assertThat(result).isEqualTo(new TransitionResult.Vetoed("legal hold"));
    assertThat(markers().get(TENANT, "doc-4")).isEmpty();
    assertThat(statuses).isEmpty();
  }

  @Test
  void a_failing_after_hook_is_reported_and_the_applied_marker_stands() {
    Markers failing =
        Markers.builder(markerStore)
            .afterTransition(
                (change, status, result) -> {
                  throw new IllegalStateException("hook 1");
                })
            .afterTransition(
                (change, status, result) -> {
                  throw new IllegalStateException("hook 2");
                })
            .build();

    assertThatThrownBy(() -> failing.transition(TENANT, "doc-5", "ARCHIVED", null))
        .isInstanceOfSatisfying(
            MarkerHookException.class,
            e -> {
              assertThat(e.result().outcome()).isEqualTo(Outcome.APPLIED);
              assertThat(e.getCause()).hasMessage("hook 1");
              assertThat(e.getSuppressed())
                  .extracting(Throwable::getMessage)
                  .containsExactly("hook 2");
            });
    assertThat(markers().get(TENANT, "doc-5")).map(Marker::state).contains("ARCHIVED");
  }

  @Test
  void clear_deletes_only_when_the_expected_state_is_stored() {
    Marker archived = applied(markers().transition(TENANT, "doc-6", "ARCHIVED", null));

    assertThat(markers().clear(TENANT, "doc-6", "SOFT_DELETED")).isFalse();
    assertThat(markers().get(TENANT, "doc-6")).contains(archived);
    assertThat(markers().clear(TENANT, "doc-6", "ARCHIVED")).isTrue();
    assertThat(markers().get(TENANT, "doc-6")).isEmpty();
    assertThat(markers().clear(TENANT, "doc-6", "ARCHIVED")).isFalse();
  }

  @Test
  void after_a_clear_the_resource_can_be_marked_again() {
    applied(markers().transition(TENANT, "doc-7", "ARCHIVED", null));
    markers().clear(TENANT, "doc-7", "ARCHIVED");

    TransitionResult again = markers().transition(TENANT, "doc-7", "SOFT_DELETED", null);

    assertThat(again.outcome()).isEqualTo(Outcome.APPLIED);
  }

  @Test
  void the_same_resource_id_in_two_tenants_is_independent() {
    Marker a = applied(markers().transition("tenant-a", "shared-id", "ARCHIVED", null));
    Marker b = applied(markers().transition("tenant-b", "shared-id", "SOFT_DELETED", null));

    assertThat(markers().clear("tenant-a", "shared-id", "ARCHIVED")).isTrue();

    assertThat(a.tenant()).isEqualTo("tenant-a");
    assertThat(markers().get("tenant-a", "shared-id")).isEmpty();
    assertThat(markers().get("tenant-b", "shared-id")).contains(b);
  }

  @Test
  void ids_are_case_and_space_sensitive_and_keep_their_unicode() {
    applied(markers().transition(TENANT, "Doc-9", "ARCHIVED", null));
    Marker unicode = applied(markers().transition(TENANT, "dóc-9 ✓ 𝄞", "SOFT_DELETED", "ünïcödé"));

    assertThat(markers().get(TENANT, "doc-9")).isEmpty();
    assertThat(markers().get(TENANT, "DOC-9")).isEmpty();
    assertThat(markers().get(TENANT, "dóc-9 ✓ 𝄞")).contains(unicode);
    assertThat(markers().transition(TENANT, "doc-9", "SOFT_DELETED", null).outcome())
        .isEqualTo(Outcome.APPLIED);
  }

  @Test
  void save_overwrites_whatever_is_stored_last_writer_wins() {
    applied(markers().transition(TENANT, "doc-10", "ARCHIVED", null));
    Marker imported =
        new Marker(
            MarkerKey.of(TENANT, "doc-10"),
            "SOFT_DELETED",
            "import",
            Instant.parse("2021-06-01T12:34:56.789012Z"));

    markers().save(imported);

    assertThat(markers().get(TENANT, "doc-10")).contains(imported);
  }

  @Test
  void save_then_get_round_trips_every_field_to_the_microsecond() {
    Marker marker =
        new Marker(
            MarkerKey.of(TENANT, "doc-11"),
            "ARCHIVED",
            "x".repeat(MarkerChange.MAX_REASON_LENGTH),
            Instant.parse("1999-12-31T23:59:59.999999Z"));
    Marker early =
        new Marker(
            MarkerKey.of(TENANT, "doc-12"),
            "ARCHIVED",
            null,
            Instant.parse("1970-01-01T00:00:00.000001Z"));

    markers().save(marker);
    markers().save(early);

    assertThat(markers().get(TENANT, "doc-11")).contains(marker);
    assertThat(markers().get(TENANT, "doc-12")).contains(early);
  }

  @Test
  void the_earliest_and_latest_times_a_marker_may_carry_round_trip_exactly() {
    Marker earliest =
        new Marker(MarkerKey.of(TENANT, "doc-13"), "ARCHIVED", null, Marker.EARLIEST_MARKED_AT);
    Marker latest =
        new Marker(MarkerKey.of(TENANT, "doc-14"), "ARCHIVED", null, Marker.LATEST_MARKED_AT);

    markers().save(earliest);
    markers().save(latest);

    assertThat(markers().get(TENANT, "doc-13")).contains(earliest);
    assertThat(markers().get(TENANT, "doc-14")).contains(latest);
    assertThat(earliest.markedAt()).isEqualTo(Instant.parse("0001-01-01T00:00:00Z"));
    assertThat(latest.markedAt()).isEqualTo(Instant.parse("9999-12-31T23:59:59.999999Z"));
  }

  @Test
  void get_all_returns_the_stored_markers_of_the_tenant_only() {
    Marker one = applied(markers().transition(TENANT, "batch-1", "ARCHIVED", null));
    Marker three = applied(markers().transition(TENANT, "batch-3", "SOFT_DELETED", null));
    applied(markers().transition("other", "batch-2", "ARCHIVED", null));

    Map<String, Marker> found =
        markers().getAll(TENANT, List.of("batch-1", "batch-2", "batch-3", "batch-1", "missing"));

    assertThat(found).containsExactlyInAnyOrderEntriesOf(Map.of("batch-1", one, "batch-3", three));
  }

  @Test
  void get_all_reads_a_full_batch_and_refuses_a_larger_one() {
    List<String> ids =
        IntStream.range(0, MarkerStore.MAX_BATCH).mapToObj(i -> "many-" + i).toList();
    markers().transition(TENANT, "many-7", "ARCHIVED", null);

    assertThat(markers().getAll(TENANT, ids)).containsOnlyKeys("many-7");
    List<String> tooMany = new ArrayList<>(ids);
    tooMany.add("one-more");
    assertThatThrownBy(() -> markers().getAll(TENANT, tooMany))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(String.valueOf(MarkerStore.MAX_BATCH));
  }

  @Test
  void malformed_ids_states_and_reasons_are_refused_naming_the_value_and_write_nothing() {
    String tooLong = "r".repeat(MarkerKey.MAX_RESOURCE_LENGTH + 1);
    assertRefused(
        () -> markers().transition(null, "r", "ARCHIVED", null), "tenant must not be null");
    assertRefused(
        () -> markers().transition(" ", "r", "ARCHIVED", null), "tenant must not be empty");
    assertRefused(
        () -> markers().transition(TENANT, "", "ARCHIVED", null), "resource must not be empty");
    assertRefused(() -> markers().transition(TENANT, tooLong, "ARCHIVED", null), "at most 255");
    assertRefused(
        () -> markers().transition("t".repeat(129), "r", "ARCHIVED", null), "at most 128");
    assertRefused(() -> markers().transition(TENANT, " r", "ARCHIVED", null), "whitespace");
    assertRefused(() -> markers().transition(TENANT, "r\n", "ARCHIVED", null), "whitespace");
    assertRefused(
        () -> markers().transition(TENANT, "a\u0007b", "ARCHIVED", null), "control characters");
    assertRefused(() -> markers().transition(TENANT, "r", "archived", null), "'archived'");
    assertRefused(
        () -> markers().transition(TENANT, "r", "ARCHIVED", "x".repeat(1001)), "at most 1000");
    assertRefused(() -> markers().clear(TENANT, "r", "bad state"), "'bad state'");
    assertRefused(() -> markers().getAll("", List.of()), "tenant must not be empty");
    for (Instant outOfRange :
        List.of(
            Instant.MAX,
            Instant.MIN,
            Instant.parse("+10000-01-01T00:00:00Z"),
            Instant.parse("0000-12-31T23:59:59.999999Z"))) {
      assertRefused(
          () -> markers().save(new Marker(MarkerKey.of(TENANT, "r"), "ARCHIVED", null, outOfRange)),
          "markedAt must be between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999999Z, got "
              + outOfRange);
    }

    assertThat(markers().get(TENANT, "r")).isEmpty();
    assertThat(markers().getAll(TENANT, List.of(tooLong.substring(1)))).isEmpty();
  }

  private static void assertRefused(Runnable call, String messagePart) {
    assertThatThrownBy(call::run)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(messagePart);
  }

  /**
   * A markers service whose before-hook holds every writer until {@code writers} have passed the
   * pre-check, so all of them then write: the race is forced, not hoped for.
   */
  private Markers bothWritersPassTheCheckThenWrite(int writers, List<HookStatus> statuses) {
    Runnable allPassedTheCheck = Race.barrier(writers);
    return Markers.builder(markerStore)
        .beforeTransition(
            (change, current) -> {
              allPassedTheCheck.run();
              return HookDecision.proceed();
            })
        .afterTransition((change, status, result) -> statuses.add(status))
        .build();
  }

  @Test
  void ids_that_are_not_well_formed_utf16_are_refused_and_no_marker_is_written() {
    // Each database rewrote a lone surrogate: t\uD800x and t?x were one tenant, so a marker of one
    // was a conflict for the other.
    String refusal;
    try {
      markers().transition("t\uD800x", "invoice-1", "ARCHIVED", null);
      refusal = "none";
    } catch (IllegalArgumentException e) {
      refusal = e.getMessage();
    }
    TransitionResult plain = markers().transition("t?x", "invoice-1", "SOFT_DELETED", null);
    assertThat(plain).as("t?x is a tenant of its own").isInstanceOf(TransitionResult.Applied.class);
    assertThat(refusal).startsWith("tenant has an unpaired surrogate U+D800 at index 1");

    assertThatThrownBy(() -> markers().transition(TENANT, "invoice-\uDC00", "ARCHIVED", null))
        .hasMessageStartingWith("resource has an unpaired surrogate U+DC00 at index 8");
    assertThatThrownBy(() -> markers().transition(TENANT, "invoice-1", "ARCHIVED", "why \uD83D"))
        .hasMessageStartingWith("reason has an unpaired surrogate U+D83D at index 4");
    assertThatThrownBy(() -> markers().getAll("t\uD800x", List.of("invoice-1")))
        .hasMessageStartingWith("tenant has an unpaired surrogate");

    assertThat(markers().get(TENANT, "invoice-1")).isEmpty();
    assertThat(markers().get(TENANT, "invoice-?")).isEmpty();
    assertThat(markers().get("t\uFFFDx", "invoice-1")).isEmpty();
    assertThat(markers().get("t?x", "invoice-1"))
        .contains(((TransitionResult.Applied) plain).marker());
  }

  @Test
  void supplementary_characters_round_trip_exactly_and_ids_that_differ_in_one_stay_distinct() {
    String grinning = "t-\uD83D\uDE00"; // U+1F600
    String beaming = "t-\uD83D\uDE01"; // U+1F601: differs from it only in the low surrogate
    String resource = "\uD840\uDC00".repeat(127) + "x"; // U+20000 x 127: 255 UTF-16 units

    Marker archived =
        applied(markers().transition(grinning, resource, "ARCHIVED", "why \uD83D\uDE00"));
    Marker deleted = applied(markers().transition(beaming, resource, "SOFT_DELETED", null));
    Marker other =
        applied(markers().transition(grinning, resource.replace('x', 'y'), "SOFT_DELETED", null));

    assertThat(archived.key()).isEqualTo(MarkerKey.of(grinning, resource));
    assertThat(archived.reason()).isEqualTo("why \uD83D\uDE00");
    assertThat(markers().get(grinning, resource)).contains(archived);
    assertThat(markers().get(beaming, resource)).contains(deleted);
    assertThat(markers().getAll(grinning, List.of(resource, resource.replace('x', 'y'))))
        .containsOnly(Map.entry(resource, archived), Map.entry(resource.replace('x', 'y'), other));
    assertThat(markers().clear(beaming, resource, "SOFT_DELETED")).isTrue();
    assertThat(markers().get(grinning, resource)).contains(archived);
  }

  private static Marker applied(TransitionResult result) {
    assertThat(result).isInstanceOf(TransitionResult.Applied.class);
    return ((TransitionResult.Applied) result).marker();
  }
}
