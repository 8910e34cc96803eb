package io.tenure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.spi.NewNode;
import io.tenure.spi.QueueStore;
import io.tenure.spi.Resolution;
import java.io.PrintWriter;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The one entry point on the in-memory provider: what an application builds from a {@link Tenure},
 * what the operator view reads and changes, and the refusals of bad input and of a closed Tenure,
 * each before anything is created.
 */
class TenureFacadeTest {
  private final String url = "memory:facade-" + UUID.randomUUID();
  private final Tenure tenure = Tenure.open(url);

  @AfterEach
  void close() {
    tenure.close();
  }

  @Test
  void a_queue_built_from_tenure_enqueues_and_the_admin_view_counts_it() {
    Queue emails = tenure.queue("emails", QueuePolicy.defaults());
    emails.enqueue(OutgoingMessage.text("one"));
    long second = emails.enqueue(OutgoingMessage.text("two").key("k"));

    assertThat(emails.stats().pending()).isEqualTo(2);
    assertThat(tenure.admin().queues())
        .singleElement()
        .satisfies(stats -> assertThat(stats.queue()).isEqualTo("emails"))
        .satisfies(stats -> assertThat(stats.pending()).isEqualTo(2));
    assertThat(tenure.admin().message(second))
        .hasValueSatisfying(m -> assertThat(m.key()).isEqualTo("k"));
    assertThat(tenure.admin().now()).isNotNull();
  }

  @Test
  void two_tenures_on_one_url_and_prefix_share_rows_and_another_prefix_sees_none() {
    tenure.queue("work", QueuePolicy.defaults()).enqueue(OutgoingMessage.text("x"));
    try (Tenure same = Tenure.open(url);
        Tenure other = Tenure.builder(url).prefix("other_").open()) {
      assertThat(same.admin().queues()).extracting(QueueStats::queue).containsExactly("work");
      assertThat(other.admin().queues()).isEmpty();
      assertThat(other.toString()).contains("prefix other_");
    }
  }

  @Test
  void dead_letters_are_listed_oldest_first_filtered_paged_replayed_and_purged() {
    Queue orders = tenure.queue("orders", QueuePolicy.defaults());
    long a = orders.enqueue(OutgoingMessage.text("a").key("customer-1"));
    long b = orders.enqueue(OutgoingMessage.text("b").key("customer-2"));
    long c = orders.enqueue(OutgoingMessage.text("c").key("customer-1"));
    killAll("orders", "card declined");
    Admin admin = tenure.admin();

    assertThat(admin.deadLetters("orders", MessageFilter.ALL, 0, 10))
        .extracting(QueueMessage::id)
        .containsExactly(a, b, c);
    assertThat(admin.deadLetters("orders", MessageFilter.ALL.key("customer-1"), 0, 10))
        .extracting(QueueMessage::id)
        .containsExactly(a, c);
    assertThat(admin.deadLetters("orders", MessageFilter.ALL, a, 1))
        .extracting(QueueMessage::id)
        .containsExactly(b);
    assertThat(admin.deadLetters("orders", MessageFilter.ALL.errorContains("timeout"), 0, 10))
        .isEmpty();

    admin.replay("orders", b);
    assertThat(admin.message(b)).hasValueSatisfying(m -> assertStatus(m, MessageStatus.PENDING));
    assertThatThrownBy(() -> admin.replay("orders", b))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("message " + b)
        .hasMessageContaining("not a dead letter");
    assertThatThrownBy(() -> admin.replay("emails", a))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("queue 'emails' has no message " + a);

    assertThat(admin.purgeDeadLetters("orders", MessageFilter.ALL.key("customer-1"), 1))
        .isEqualTo(1);
    assertThat(admin.message(a)).isEmpty();
    assertThat(admin.replayDeadLetters("orders", MessageFilter.ALL, 10)).isEqualTo(1);
    assertThat(admin.message(c)).hasValueSatisfying(m -> assertStatus(m, MessageStatus.PENDING));
    assertThat(admin.queues())
        .singleElement()
        .satisfies(stats -> assertThat(stats.dead()).isZero())
        .satisfies(stats -> assertThat(stats.pending()).isEqualTo(2));
  }

  @Test
  void bad_admin_input_is_refused_naming_it_and_changes_nothing() {
    Queue orders = tenure.queue("orders", QueuePolicy.defaults());
    orders.enqueue(OutgoingMessage.text("a"));
    killAll("orders", "boom");
    Admin admin = tenure.admin();

    assertThatThrownBy(() -> admin.deadLetters("Orders!", MessageFilter.ALL, 0, 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'Orders!'");
    assertThatThrownBy(() -> admin.deadLetters("orders", null, 0, 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("filter must not be null");
    assertThatThrownBy(() -> admin.deadLetters("orders", MessageFilter.ALL, -1, 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("afterId must be 0 or more, got -1");
    assertThatThrownBy(() -> admin.purgeDeadLetters("orders", MessageFilter.ALL, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("limit must be 1 to 10000, got 0");
    assertThatThrownBy(() -> admin.replayDeadLetters("orders", MessageFilter.ALL, 10_001))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("got 10001");
    assertThatThrownBy(() -> admin.events(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> MessageFilter.ALL.olderThan(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("older than");
    assertThat(admin.queues()).singleElement().satisfies(s -> assertThat(s.dead()).isEqualTo(1));
  }

  @Test
  void the_admin_view_names_the_leader_and_lists_nodes_agents_and_events() {
    var store = tenure.store();
    store.membership().joinQueued(new NewNode("n-1", "api-1", "", Set.of(), Duration.ofSeconds(3)));
    assertThat(tenure.admin().leader()).isEmpty();
    long epoch = store.leases().acquire("n-1", Duration.ofMinutes(1)).orElseThrow().epoch();
    store
        .agents()
        .upsert(new AgentAssignment(AgentUri.parse("b://two"), null, null, 0, false, null));
    store
        .agents()
        .upsert(new AgentAssignment(AgentUri.parse("a://one"), null, null, 0, true, null));
    store.events().append(ClusterEvent.Kind.JOINED, "n-1", null, "joined by hand");

    Admin admin = tenure.admin();
    assertThat(admin.leader()).contains(new Leader("n-1", "api-1", epoch, leaseEnd()));
    assertThat(admin.nodes()).extracting(NodeInfo::name).containsExactly("api-1");
    assertThat(admin.agents())
        .extracting(a -> a.uri().toString())
        .containsExactly("a://one", "b://two");
    assertThat(admin.events(10)).extracting(ClusterEvent::detail).contains("joined by hand");
  }

  @Test
  void a_node_built_from_tenure_runs_on_its_store() {
    try (TenureNode node = tenure.node().name("worker-1").build()) {
      node.start();
      assertThat(tenure.admin().nodes())
          .extracting(NodeInfo::name, NodeInfo::status)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("worker-1", NodeStatus.ACTIVE));
    }
    assertThat(tenure.admin().nodes()).isEmpty();
  }

  @Test
  void markers_are_one_instance_and_hooks_come_from_their_own_builder() {
    assertThat(tenure.markers()).isSameAs(tenure.markers());
    assertThat(tenure.markers().transition("acme", "invoice-1", "ARCHIVED", null))
        .isInstanceOf(TransitionResult.Applied.class);
    Markers vetoing =
        tenure.markersWithHooks().beforeTransition((c, m) -> HookDecision.veto("hold")).build();
    assertThat(vetoing.transition("acme", "invoice-2", "ARCHIVED", null))
        .isInstanceOf(TransitionResult.Vetoed.class);
    assertThat(tenure.markers().get("acme", "invoice-2")).isEmpty();
  }

  @Test
  void a_closed_tenure_refuses_everything_naming_itself_and_closes_once() {
    Queue before = tenure.queue("work", QueuePolicy.defaults());
    tenure.close();
    tenure.close();

    List<Consumer<Tenure>> uses =
        List.of(
            t -> t.queue("work", QueuePolicy.defaults()),
            Tenure::markers,
            Tenure::markersWithHooks,
            Tenure::node,
            Tenure::admin,
            Tenure::locks,
            Tenure::store);
    for (Consumer<Tenure> use : uses) {
      assertThatThrownBy(() -> use.accept(tenure))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("memory")
          .hasMessageContaining("closed");
    }
    // What was built before the close fails as the store does once closed.
    assertThatThrownBy(() -> before.enqueue(OutgoingMessage.text("late")))
        .isInstanceOf(StoreUnavailableException.class);
  }

  @Test
  void a_missing_or_blank_url_or_data_source_is_refused_before_anything_opens() {
    assertThatThrownBy(() -> Tenure.open(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("store URL must not be null or blank");
    assertThatThrownBy(() -> Tenure.builder(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("store URL must not be null or blank");
    assertThatThrownBy(() -> Tenure.builder((DataSource) null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("data source must not be null");
  }

  @Test
  void an_unknown_scheme_is_refused_naming_the_url_and_the_forms_known() {
    assertThatThrownBy(() -> Tenure.open("oracle:thin:@db:1521/x?password=secret"))
        .isInstanceOf(UnsupportedDatabaseException.class)
        .hasMessageContaining("oracle:thin:@db:1521/x?password=***")
        .hasMessageNotContaining("secret")
        .hasMessageContaining("memory:NAME");
  }

  @Test
  void bad_options_are_refused_when_set_naming_the_value() {
    assertThatThrownBy(() -> Tenure.builder(url).prefix("Bad-Prefix"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'Bad-Prefix'");
    assertThatThrownBy(() -> Tenure.builder(url).poolSize(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pool size must be between 1 and 200, got 0");
    assertThatThrownBy(() -> Tenure.builder(url).requireSchema(true).open())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("turn migrate off");
    assertThatThrownBy(() -> Tenure.builder(url).coordinationDataSource(countingDataSource()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Tenure.builder(dataSource)");
    assertThatThrownBy(() -> Tenure.builder(countingDataSource()).poolSize(5))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("poolSize applies to a store opened by URL");
    assertThatThrownBy(() -> Tenure.builder(url).name("tab\tname"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("lock holder");
  }

  /**
   * SPEC §11 through the facade, on its real keeper thread: a lock outlives its TTL while held,
   * carries the process's name, and closing the Tenure releases it.
   */
  @Test
  void a_lock_is_kept_by_its_keeper_thread_and_released_when_the_tenure_closes() {
    String shared = "memory:facade-locks-" + UUID.randomUUID();
    Duration ttl = Duration.ofSeconds(6);
    try (Tenure holder = Tenure.builder(shared).name("api-1").open();
        Tenure other = Tenure.open(shared)) {
      HeldLock lock = holder.locks().tryAcquire("report", ttl).orElseThrow();
      Instant firstExpiry = other.locks().find("report").orElseThrow().expiresAt();

      // Renewed every 2 s: the expiry moves on twice, and at no time may another take it.
      java.util.concurrent.atomic.AtomicReference<Instant> seen =
          new java.util.concurrent.atomic.AtomicReference<>(firstExpiry);
      int moves = 0;
      long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (moves < 2 && System.nanoTime() < end) {
        Instant now = other.locks().find("report").orElseThrow().expiresAt();
        if (now.isAfter(seen.get())) {
          seen.set(now);
          moves++;
        }
        assertThat(other.locks().tryAcquire("report", ttl)).isEmpty();
        sleep(Duration.ofMillis(100));
      }
      assertThat(moves).as("renewals seen within 30 s").isEqualTo(2);
      assertThat(lock.stillHeld()).isTrue();
      assertThat(other.locks().find("report").orElseThrow().holder()).isEqualTo("api-1");

      holder.close();

      assertThat(lock.stillHeld()).isFalse();
      assertThat(other.locks().tryAcquire("report", ttl)).isPresent();
    }
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  @Test
  void requiring_a_schema_that_is_not_there_creates_none() {
    String fresh = "memory:facade-fresh-" + UUID.randomUUID();
    for (int i = 0; i < 2; i++) {
      assertThatThrownBy(
              () -> Tenure.builder(fresh).migrate(false).requireSchema(true).open().close())
          .isInstanceOf(SchemaMissingException.class);
    }
    try (Tenure migrated = Tenure.open(fresh);
        Tenure existing = Tenure.builder(fresh).migrate(false).requireSchema(true).open()) {
      migrated.queue("q", QueuePolicy.defaults()).enqueue(OutgoingMessage.text("x"));
      assertThat(existing.admin().queues()).hasSize(1);
    }
  }

  @Test
  void a_data_source_without_a_provider_that_takes_one_is_refused_untouched() {
    AtomicInteger borrowed = new AtomicInteger();
    DataSource dataSource = countingDataSource(borrowed);
    assertThatThrownBy(() -> Tenure.builder(dataSource).open())
        .isInstanceOf(UnsupportedDatabaseException.class)
        .hasMessageContaining("no Tenure store provider on the class path opens a DataSource")
        .hasMessageContaining("tenure-jdbc");
    assertThat(borrowed).hasValue(0);
  }

  /**
   * Claims every pending message of {@code queue} and dead-letters it through the SPI, in rounds: a
   * key's younger message is claimable only once its older one is dead.
   */
  private void killAll(String queue, String error) {
    QueueStore queues = tenure.store().queues();
    List<QueueMessage> claimed;
    while (!(claimed =
            queues.claim(io.tenure.spi.ClaimRequest.of(queue, "n", 100, Duration.ofMinutes(1))))
        .isEmpty()) {
      queues.resolve(
          claimed.stream()
              .map(m -> new Resolution(m.claim(), new Resolution.DeadLetter(error)))
              .toList(),
          null);
    }
  }

  private java.time.Instant leaseEnd() {
    return tenure.store().leases().read().expiresAt();
  }

  private static void assertStatus(QueueMessage message, MessageStatus status) {
    assertThat(message.status()).isEqualTo(status);
  }

  private static DataSource countingDataSource() {
    return countingDataSource(new AtomicInteger());
  }

  /** A data source that counts the connections asked of it and has none to give. */
  private static DataSource countingDataSource(AtomicInteger borrowed) {
    return (DataSource)
        Proxy.newProxyInstance(
            TenureFacadeTest.class.getClassLoader(),
            new Class<?>[] {DataSource.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "getConnection" -> {
                    borrowed.incrementAndGet();
                    throw new java.sql.SQLException("no database here");
                  }
                  case "getLogWriter" -> (PrintWriter) null;
                  case "toString" -> "counting data source";
                  case "hashCode" -> System.identityHashCode(proxy);
                  case "equals" -> proxy == args[0];
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }
}
