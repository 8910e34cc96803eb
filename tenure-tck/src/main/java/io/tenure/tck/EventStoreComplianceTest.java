package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.ClusterEvent;
import io.tenure.Limits;
import io.tenure.SchemaMissingException;
import io.tenure.StoreUnavailableException;
import io.tenure.spi.EventStore;
import io.tenure.spi.Store;
import io.tenure.spi.TablePrefix;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * SPEC §3.8: the bounded cluster history, and {@link EventStore}'s contract rule by rule (E1 to
 * E5), on every provider.
 */
public abstract class EventStoreComplianceTest extends FixtureSupport {
  private Store store;

  @BeforeEach
  void openStore() {
    store = freshStore();
  }

  @Test
  void the_history_lists_events_newest_first_and_trims_by_count() {
    for (int i = 0; i < 5; i++) {
      store
          .events()
          .append(
              ClusterEvent.Kind.JOINED,
              "node-" + i,
              i % 2 == 0 ? null : (long) i,
              "x".repeat(1200));
    }

    List<ClusterEvent> recent = store.events().recent(3);

    assertThat(recent)
        .extracting(ClusterEvent::nodeId)
        .containsExactly("node-4", "node-3", "node-2");
    assertThat(recent.get(0).epoch()).isNull();
    assertThat(recent.get(1).epoch()).isEqualTo(3L);
    assertThat(recent.get(0).detail()).hasSize(1000);
    assertThat(Duration.between(recent.get(0).at(), store.now()).abs())
        .isLessThan(Duration.ofSeconds(5));
    assertThat(store.events().trim(2, Duration.ofDays(1))).isEqualTo(3);
    assertThat(store.events().recent(10))
        .extracting(ClusterEvent::nodeId)
        .containsExactly("node-4", "node-3");
  }

  @Test
  void a_batch_of_events_is_appended_in_its_order_and_cut_like_one() {
    store.events().append(ClusterEvent.Kind.JOINED, "first", null, "");
    store
        .events()
        .appendAll(
            List.of(
                new io.tenure.spi.EventStore.NewEvent(
                    ClusterEvent.Kind.AGENT_STARTED, "n1", 7L, "a://x"),
                new io.tenure.spi.EventStore.NewEvent(
                    ClusterEvent.Kind.AGENT_STARTED, "n2", null, "y".repeat(1500))));
    store.events().appendAll(List.of());

    List<ClusterEvent> recent = store.events().recent(10);

    assertThat(recent).extracting(ClusterEvent::nodeId).containsExactly("n2", "n1", "first");
    assertThat(recent.get(1).epoch()).isEqualTo(7L);
    assertThat(recent.get(1).detail()).isEqualTo("a://x");
    assertThat(recent.get(0).epoch()).isNull();
    assertThat(recent.get(0).detail()).hasSize(1000);
  }

  /**
   * The age that cuts between the two events is measured from the database's now read just before
   * the trim, half the gap short of the old event's age: the trim keeps the new event unless it
   * starts more than half the gap (250 ms) after that read. A fixed 10 ms age failed on MariaDB
   * with one core busy, the append and the trim taking longer than that between them.
   */
  @Test
  void the_history_trims_by_age() {
    Duration gap = Duration.ofMillis(500);
    store.events().append(ClusterEvent.Kind.JOINED, "old", null, "");
    Instant old = store.events().recent(1).get(0).at();
    DatabaseClock.awaitPast(store, old.plus(gap));
    store.events().append(ClusterEvent.Kind.LEFT, "new", null, "");
    Duration betweenThem = Duration.between(old, store.now()).minus(gap.dividedBy(2));

    assertThat(store.events().trim(100, betweenThem)).isEqualTo(1);
    assertThat(store.events().recent(10)).extracting(ClusterEvent::nodeId).containsExactly("new");
    assertThatThrownBy(() -> store.events().recent(0)).isInstanceOf(IllegalArgumentException.class);
  }

  /** E4, E5: the refusal comes before the delete. */
  @Test
  void a_history_read_or_trim_out_of_range_is_refused_and_deletes_nothing() {
    EventStore events = store.events();
    events.append(ClusterEvent.Kind.JOINED, "kept", null, "");

    for (int limit : List.of(0, -1, 10_001)) {
      assertThatThrownBy(() -> events.recent(limit))
          .as("limit %d", limit)
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() -> events.trim(-1, Duration.ofDays(1)))
        .isInstanceOf(IllegalArgumentException.class);
    for (Duration age :
        List.of(Duration.ZERO, Duration.ofMillis(-1), Limits.MAX_RETENTION.plusNanos(1))) {
      assertThatThrownBy(() -> events.trim(0, age))
          .as("max age %s", age)
          .isInstanceOf(IllegalArgumentException.class);
    }

    assertThat(events.recent(10_000)).extracting(ClusterEvent::nodeId).containsExactly("kept");
  }

  /** E1. */
  @Test
  void a_closed_store_refuses_the_history_as_unavailable_and_a_dropped_table_as_missing() {
    Store closed = freshStore();
    EventStore closedEvents = closed.events();
    closed.close();

    assertThatThrownBy(() -> closedEvents.append(ClusterEvent.Kind.JOINED, "n", null, ""))
        .isInstanceOf(StoreUnavailableException.class);
    assertThatThrownBy(() -> closedEvents.recent(1)).isInstanceOf(StoreUnavailableException.class);

    TablePrefix prefix = freshPrefix();
    EventStore dropped = fixture.open(prefix).events();
    fixture.dropTables(prefix);

    assertThatThrownBy(() -> dropped.append(ClusterEvent.Kind.JOINED, "n", null, ""))
        .isInstanceOf(SchemaMissingException.class);
    assertThatThrownBy(() -> dropped.recent(1)).isInstanceOf(SchemaMissingException.class);
    assertThatThrownBy(() -> dropped.trim(1, Duration.ofDays(1)))
        .isInstanceOf(SchemaMissingException.class);
  }
}
