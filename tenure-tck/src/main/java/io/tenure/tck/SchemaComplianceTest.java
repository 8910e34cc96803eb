package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.Marker;
import io.tenure.MarkerKey;
import io.tenure.Markers;
import io.tenure.SchemaMissingException;
import io.tenure.StoreUnavailableException;
import io.tenure.TransitionResult.Outcome;
import io.tenure.UnsupportedDatabaseException;
import io.tenure.spi.Store;
import io.tenure.spi.TablePrefix;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** SPEC §2: schema ownership, prefixes, time zones and typed errors, on every provider. */
public abstract class SchemaComplianceTest extends FixtureSupport {
  private static final int CONCURRENT_STARTS = 8;
  private static final Duration CLOCK_SLACK = Duration.ofSeconds(30);

  @Test
  void eight_nodes_starting_at_once_against_an_empty_database_all_succeed() {
    Supplier<Store> emptyDatabase = fixture.emptyDatabase();
    List<Callable<Store>> starts = new ArrayList<>();
    for (int i = 0; i < CONCURRENT_STARTS; i++) {
      starts.add(emptyDatabase::get);
    }

    List<Store> stores = Race.run(starts);

    int version = stores.get(0).describe().schemaVersion();
    assertThat(version).isPositive();
    assertThat(stores).allSatisfy(s -> assertThat(s.describe().schemaVersion()).isEqualTo(version));
    Markers.builder(stores.get(3).markers()).build().transition("t", "r", "ARCHIVED", null);
    assertThat(stores)
        .allSatisfy(
            s ->
                assertThat(s.markers().find(MarkerKey.of("t", "r")))
                    .map(Marker::state)
                    .contains("ARCHIVED"));
  }

  @Test
  void migrating_again_changes_nothing_and_keeps_the_data() {
    TablePrefix prefix = freshPrefix();
    Store first = fixture.open(prefix);
    Markers.builder(first.markers()).build().transition("t", "kept", "ARCHIVED", null);

    Store second = fixture.open(prefix);

    assertThat(second.describe().schemaVersion()).isEqualTo(first.describe().schemaVersion());
    assertThat(second.markers().find(MarkerKey.of("t", "kept"))).isPresent();
  }

  @Test
  void two_prefixes_in_one_database_are_fully_independent() {
    Store blue = fixture.open(freshPrefix());
    Store green = fixture.open(freshPrefix());
    Markers blueMarkers = Markers.builder(blue.markers()).build();
    Markers greenMarkers = Markers.builder(green.markers()).build();

    assertThat(blueMarkers.transition("t", "same", "ARCHIVED", null).outcome())
        .isEqualTo(Outcome.APPLIED);
    assertThat(greenMarkers.transition("t", "same", "SOFT_DELETED", null).outcome())
        .isEqualTo(Outcome.APPLIED);
    assertThat(blueMarkers.clear("t", "same", "ARCHIVED")).isTrue();

    assertThat(blueMarkers.get("t", "same")).isEmpty();
    assertThat(greenMarkers.get("t", "same")).map(Marker::state).contains("SOFT_DELETED");
  }

  /**
   * Stored times and the database clock do not depend on the JVM's zone or the session's. The JVM
   * runs in Asia/Kathmandu (+05:45, no DST) while writing and America/St_Johns (-03:30, with DST)
   * while reading. The sessions run in America/Los_Angeles while writing, whose DST began at
   * 2024-03-10T10:00:00Z, between the two saved times (01:30 PST and 03:30 PDT local: a conversion
   * through local time shifts one of them by an hour), and in Asia/Kathmandu while reading.
   * Providers that cannot set a named session zone use its offset (see the fixture).
   */
  @Test
  void times_round_trip_exactly_whatever_the_jvm_and_session_time_zones() {
    TimeZone original = TimeZone.getDefault();
    TablePrefix prefix = freshPrefix();
    Marker beforeDst =
        new Marker(
            MarkerKey.of("t", "pst"),
            "ARCHIVED",
            null,
            Instant.parse("2024-03-10T09:30:00.123456Z"));
    Marker afterDst =
        new Marker(
            MarkerKey.of("t", "pdt"),
            "ARCHIVED",
            null,
            Instant.parse("2024-03-10T10:30:00.654321Z"));
    try {
      TimeZone.setDefault(TimeZone.getTimeZone("Asia/Kathmandu"));
      Store pacific = fixture.openWithSessionTimeZone(prefix, ZoneId.of("America/Los_Angeles"));
      Markers writer = Markers.builder(pacific.markers()).build();
      writer.save(beforeDst);
      writer.save(afterDst);
      Instant applied =
          writer.transition("t", "now", "ARCHIVED", null)
                  instanceof io.tenure.TransitionResult.Applied a
              ? a.marker().markedAt()
              : Instant.EPOCH;

      assertThat(pacific.markers().find(beforeDst.key())).contains(beforeDst);
      assertThat(pacific.markers().find(afterDst.key())).contains(afterDst);
      assertThat(pacific.now()).isCloseTo(Instant.now(), within(CLOCK_SLACK));
      assertThat(applied).isCloseTo(Instant.now(), within(CLOCK_SLACK));

      TimeZone.setDefault(TimeZone.getTimeZone("America/St_Johns"));
      Store eastern = fixture.openWithSessionTimeZone(prefix, ZoneId.of("Asia/Kathmandu"));
      assertThat(eastern.markers().find(beforeDst.key())).contains(beforeDst);
      assertThat(eastern.markers().find(afterDst.key())).contains(afterDst);
      assertThat(eastern.markers().find(MarkerKey.of("t", "now")).map(Marker::markedAt))
          .contains(applied);
      assertThat(eastern.now()).isCloseTo(Instant.now(), within(CLOCK_SLACK));
    } finally {
      TimeZone.setDefault(original);
    }
  }

  @Test
  void the_database_clock_moves_forward() {
    Store store = freshStore();
    Instant first = store.now();
    Instant second = store.now();
    assertThat(second).isAfterOrEqualTo(first);
    assertThat(first).isCloseTo(Instant.now(), within(CLOCK_SLACK));
  }

  @Test
  void a_dropped_table_is_a_typed_schema_error_not_an_empty_result() {
    TablePrefix prefix = freshPrefix();
    Store store = fixture.open(prefix);
    Markers markers = Markers.builder(store.markers()).build();

    fixture.dropTables(prefix);

    assertThatThrownBy(() -> markers.get("t", "r")).isInstanceOf(SchemaMissingException.class);
    assertThatThrownBy(() -> markers.transition("t", "r", "ARCHIVED", null))
        .isInstanceOf(SchemaMissingException.class);
    assertThatThrownBy(() -> markers.clear("t", "r", "ARCHIVED"))
        .isInstanceOf(SchemaMissingException.class);
  }

  @Test
  void a_store_opened_without_migration_on_an_empty_database_reports_the_missing_schema() {
    Store store = fixture.openWithoutMigration(freshPrefix());

    assertThatThrownBy(() -> store.markers().find(MarkerKey.of("t", "r")))
        .isInstanceOf(SchemaMissingException.class)
        .hasMessageContaining("markers");
  }

  @Test
  void a_store_that_requires_its_schema_refuses_a_missing_one_and_creates_none() {
    TablePrefix prefix = freshPrefix();

    assertThatThrownBy(() -> fixture.openRequiringSchema(prefix))
        .isInstanceOf(SchemaMissingException.class)
        .hasMessageContaining("tenure migrate");
    assertThatThrownBy(() -> fixture.openRequiringSchema(prefix))
        .as("the refused open created no schema")
        .isInstanceOf(SchemaMissingException.class);
    assertThat(schemaVersionWithoutMigration(prefix)).isZero();
  }

  @Test
  void a_store_that_requires_its_schema_opens_a_current_one_and_reads_and_writes_it() {
    TablePrefix prefix = freshPrefix();
    Store migrated = fixture.open(prefix);
    Markers.builder(migrated.markers()).build().transition("t", "before", "ARCHIVED", null);

    Store required = fixture.openRequiringSchema(prefix);

    assertThat(required.describe().schemaVersion()).isEqualTo(migrated.describe().schemaVersion());
    assertThat(required.markers().find(MarkerKey.of("t", "before"))).isPresent();
    Markers.builder(required.markers()).build().transition("t", "after", "DELETED", null);
    assertThat(migrated.markers().find(MarkerKey.of("t", "after")))
        .map(Marker::state)
        .contains("DELETED");
  }

  /** The version a store without migration sees; 0 also when there is no database to open. */
  private int schemaVersionWithoutMigration(TablePrefix prefix) {
    try {
      return fixture.openWithoutMigration(prefix).describe().schemaVersion();
    } catch (SchemaMissingException noDatabase) {
      return 0;
    }
  }

  @Test
  void an_unsupported_database_is_refused() {
    assertThatThrownBy(fixture::openUnsupportedDatabase)
        .isInstanceOf(UnsupportedDatabaseException.class)
        .hasMessageContaining("support");
  }

  @Test
  void a_closed_store_is_unavailable() {
    Store store = freshStore();
    store.close();
    store.close();

    assertThatThrownBy(store::now).isInstanceOf(StoreUnavailableException.class);
    assertThatThrownBy(() -> store.markers().find(MarkerKey.of("t", "r")))
        .isInstanceOf(StoreUnavailableException.class);
  }

  @Test
  void an_invalid_table_prefix_is_refused_naming_it() {
    for (String bad : List.of("", "Tenure_", "1abc", "a-b", "x".repeat(31), "a;drop")) {
      assertThatThrownBy(() -> TablePrefix.of(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'" + bad + "'");
    }
  }

  private static org.assertj.core.data.TemporalUnitOffset within(Duration slack) {
    return new org.assertj.core.data.TemporalUnitWithinOffset(
        slack.toMillis(), java.time.temporal.ChronoUnit.MILLIS);
  }
}
