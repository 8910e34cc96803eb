package io.tenure.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tenure.Agent;
import io.tenure.AgentContext;
import io.tenure.AgentFamily;
import io.tenure.AgentUri;
import io.tenure.ConsumerStats;
import io.tenure.Delivery;
import io.tenure.MessageStatus;
import io.tenure.OnTimeout;
import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.QueueMessage;
import io.tenure.QueuePolicy;
import io.tenure.TenureNode;
import io.tenure.spi.ClaimRequest;
import io.tenure.spi.Resolution;
import io.tenure.spi.Store;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The admin API, health, metrics and console, served by a real node on a real store; one subclass
 * per provider. Waits are for conditions (a node becoming leader), never fixed sleeps.
 */
abstract class AdminServerContract {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final String QUEUE = "orders";

  private final HttpClient http = HttpClient.newHttpClient();
  private Store store;
  private TenureNode node;
  private AdminServer server;
  private Queue queue;

  /** Opens a fresh, migrated store for one test. */
  abstract Store openStore();

  /** A plain connection to the database of {@link #openStore()}, for rows written by hand. */
  abstract java.sql.Connection openConnection() throws java.sql.SQLException;

  @BeforeEach
  void startNode() {
    store = openStore();
    queue = Queue.on(store.queues(), QUEUE, QueuePolicy.defaults());
    server = AdminServer.builder(store).bind("127.0.0.1", 0).build().start();
    node =
        TenureNode.builder(store)
            .name("n1")
            .address(server.advertisedUrl())
            .agentFamily(family("projection", "a", "b"))
            .build();
    server.attach(node);
    node.start();
    await(
        "n1 leads and runs both agents", () -> node.isLeader() && node.runningAgents().size() == 2);
  }

  @AfterEach
  void stop() {
    if (node != null) {
      node.close();
    }
    if (server != null) {
      server.close();
    }
    if (store != null) {
      store.close();
    }
  }

  @Test
  void cluster_names_this_node_the_leader_and_its_agents() throws Exception {
    Map<String, Object> cluster = getJson("/api/cluster");

    Map<?, ?> me = (Map<?, ?>) cluster.get("self");
    assertThat(me.get("nodeId")).isEqualTo(node.nodeId());
    assertThat(me.get("name")).isEqualTo("n1");
    Map<?, ?> wakeups = (Map<?, ?>) me.get("wakeups");
    assertThat(wakeups.get("enabled")).isEqualTo(true);
    assertThat(new java.util.HashSet<Object>(wakeups.keySet()))
        .containsExactlyInAnyOrder("enabled", "sent", "received", "dropped", "woken");
    Map<?, ?> leader = (Map<?, ?>) cluster.get("leader");
    assertThat(leader.get("nodeId")).isEqualTo(node.nodeId());
    assertThat(leader.get("name")).isEqualTo("n1");
    assertThat((Long) leader.get("epoch")).isPositive();
    List<?> nodes = (List<?>) cluster.get("nodes");
    assertThat(nodes).hasSize(1);
    Map<?, ?> self = (Map<?, ?>) nodes.get(0);
    assertThat(self.get("status")).isEqualTo("ACTIVE");
    assertThat(self.get("leader")).isEqualTo(true);
    assertThat(self.get("agents")).isEqualTo(2L);
    assertThat(self.get("address")).isEqualTo(server.advertisedUrl());
  }

  @Test
  void agents_show_their_owner_by_name_and_no_hand_off_once_settled() throws Exception {
    List<?> agents = (List<?>) getJson("/api/agents").get("agents");

    assertThat(agents.stream().<Object>map(a -> ((Map<?, ?>) a).get("uri")).toList())
        .containsExactly("projection://a", "projection://b");
    for (Object agent : agents) {
      Map<?, ?> fields = (Map<?, ?>) agent;
      assertThat(fields.get("ownerName")).isEqualTo("n1");
      assertThat(fields.get("handoff")).isEqualTo(false);
      assertThat(fields.get("family")).isEqualTo("projection");
    }
  }

  @Test
  void schedules_are_listed_paused_resumed_triggered_and_deleted() throws Exception {
    assertThat((List<?>) getJson("/api/schedules").get("schedules")).isEmpty();
    io.tenure.Tenure tenure = io.tenure.Tenure.on(store, "test");
    tenure.queue(QUEUE, QueuePolicy.defaults());
    tenure
        .schedules()
        .declare(
            io.tenure.Schedule.cron("nightly", "30 2 * * *")
                .zone("Europe/Berlin")
                .enqueue(QUEUE, OutgoingMessage.text("run")));

    Map<?, ?> listed = (Map<?, ?>) ((List<?>) getJson("/api/schedules").get("schedules")).get(0);
    Response paused = post("/api/schedules/nightly/pause", "{}", null);
    Response pausedAgain = post("/api/schedules/nightly/pause", "{}", null);
    Response triggered = post("/api/schedules/nightly/trigger", "{}", null);
    Response unknown = post("/api/schedules/nope/pause", "{}", null);
    Response malformed = post("/api/schedules/%20padded/pause", "{}", null);

    assertThat(listed.get("name")).isEqualTo("nightly");
    assertThat(listed.get("when")).isEqualTo("30 2 * * *");
    assertThat(listed.get("zone")).isEqualTo("Europe/Berlin");
    assertThat(listed.get("paused")).isEqualTo(false);
    assertThat(paused.status()).isEqualTo(200);
    assertThat(paused.body()).contains("\"changed\":true");
    assertThat(pausedAgain.body()).contains("\"changed\":false");
    assertThat(store.schedules().read("nightly").orElseThrow().paused()).isTrue();
    assertThat(triggered.status()).isEqualTo(200);
    long id = store.schedules().read("nightly").orElseThrow().lastMessageId();
    assertThat(triggered.body()).contains("\"id\":" + id);
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(malformed.status()).isEqualTo(400);
    assertThat(post("/api/schedules/nightly/resume", "{}", null).body())
        .contains("\"changed\":true");
    assertThat(post("/api/schedules/nightly/delete", "{}", null).status()).isEqualTo(200);
    assertThat(store.schedules().read("nightly")).isEmpty();
    assertThat(get("/metrics").body())
        .contains("tenure_schedule_slots_fired_total")
        .contains("tenure_schedule_fire_lag_seconds{stat=\"max\"}")
        .contains("tenure_queue_wakeups_sent_total")
        .contains("tenure_queue_wakeups_received_total")
        .contains("tenure_queue_wakeups_dropped_total");
  }

  @Test
  void a_queue_is_paused_limited_and_shown_with_its_use_and_bad_limits_change_nothing()
      throws Exception {
    Response paused = post("/api/queues/reports/pause", "{}", null);
    Response pausedAgain = post("/api/queues/reports/pause", "{}", null);
    Response limited =
        post(
            "/api/queues/reports/limits",
            "{\"maxInFlight\": 4, \"rate\": {\"claims\": 10, \"perMs\": 60000,"
                + " \"perGroup\": true}}",
            null);
    Response unknownField = post("/api/queues/reports/limits", "{\"max\": 4}", null);
    Response negative = post("/api/queues/reports/limits", "{\"maxInFlight\": -1}", null);
    Response badRate = post("/api/queues/reports/limits", "{\"rate\": 5}", null);
    Response badName = post("/api/queues/Reports/pause", "{}", null);

    assertThat(paused.status()).isEqualTo(200);
    assertThat(paused.body()).contains("\"paused\":true").contains("\"changed\":true");
    assertThat(pausedAgain.body()).contains("\"changed\":false");
    assertThat(limited.status()).as(limited.body()).isEqualTo(200);
    assertThat(limited.body())
        .contains("\"maxInFlight\":4")
        .contains("\"claims\":10")
        .contains("\"perMs\":60000")
        .contains("\"perGroup\":true");
    for (Response bad : List.of(unknownField, negative, badRate, badName)) {
      assertThat(bad.status()).as(bad.body()).isEqualTo(400);
    }
    assertThat(unknownField.body()).contains("'max'");
    assertThat(negative.body()).contains("max in flight must be 0 (no limit) to 1000000, got -1");
    io.tenure.QueueControl stored = store.queues().controls().read("reports");
    assertThat(stored.paused()).isTrue();
    assertThat(stored.limits().maxInFlight()).as("the bad calls changed nothing").isEqualTo(4);

    Map<?, ?> control = getJson("/api/queues/reports/control");
    assertThat(control.get("queue")).isEqualTo("reports");
    assertThat(control.get("paused")).isEqualTo(true);
    assertThat(control.get("inFlight")).isEqualTo(0L);
    List<?> queues = (List<?>) getJson("/api/queues").get("queues");
    assertThat(queues)
        .as("a paused queue without messages is listed")
        .anySatisfy(q -> assertThat(((Map<?, ?>) q).get("name")).isEqualTo("reports"))
        .anySatisfy(q -> assertThat(((Map<?, ?>) q).get("paused")).isEqualTo(true));
    assertThat(get("/metrics").body())
        .containsPattern("tenure_queue_paused\\{queue=\"reports\",scope=\"store\"} 1(\\.0)?\n")
        .containsPattern(
            "tenure_queue_limit_inflight\\{queue=\"reports\",scope=\"store\"} 4(\\.0)?\n");
    assertThat(post("/api/queues/reports/resume", "{}", null).body()).contains("\"changed\":true");
    assertThat(post("/api/queues/reports/limits", "{}", null).body())
        .as("an empty body lifts every limit")
        .contains("\"maxInFlight\":0")
        .contains("\"rate\":null");
  }

  @Test
  void a_message_is_cancelled_pending_or_running_and_a_finished_or_unknown_one_is_refused()
      throws Exception {
    long running = queue.enqueue(OutgoingMessage.text("now"));
    long waiting = queue.enqueue(OutgoingMessage.text("later"));
    assertThat(
            store
                .queues()
                .claim(new ClaimRequest(QUEUE, "test", 1, Duration.ofMinutes(1), false, null)))
        .extracting(io.tenure.QueueMessage::id)
        .containsExactly(running);

    Response first = post("/api/messages/" + running + "/cancel", "{}", null);
    Response second = post("/api/messages/" + waiting + "/cancel", "{}", null);
    Response again = post("/api/messages/" + running + "/cancel", "{}", null);
    Response unknown = post("/api/messages/999999/cancel", "{}", null);
    Response malformed = post("/api/messages/abc/cancel", "{}", null);

    assertThat(first.status()).isEqualTo(200);
    assertThat(first.body()).contains("\"cancelled\":\"RUNNING\"");
    assertThat(second.body()).contains("\"cancelled\":\"PENDING\"");
    assertError(again, 409, "is CANCELLED");
    assertError(unknown, 404, "no message 999999");
    assertError(malformed, 400, "'abc'");
    assertThat(store.queues().find(waiting).orElseThrow().status())
        .isEqualTo(io.tenure.MessageStatus.CANCELLED);
  }

  @Test
  void a_message_is_deleted_run_now_and_retried_and_a_refusal_names_its_status_and_changes_nothing()
      throws Exception {
    long running = queue.enqueue(OutgoingMessage.text("now"));
    long delayed = queue.enqueue(OutgoingMessage.text("later").delay(Duration.ofHours(1)));
    assertThat(
            store
                .queues()
                .claim(new ClaimRequest(QUEUE, "test", 1, Duration.ofMinutes(1), false, null)))
        .extracting(QueueMessage::id)
        .containsExactly(running);

    Response deleteRunning = post("/api/messages/" + running + "/delete", "{}", null);
    Response retryRunning = post("/api/messages/" + running + "/retry", "{}", null);
    Response runNow = post("/api/messages/" + delayed + "/run-now", "{}", null);
    Response runAgain = post("/api/messages/" + delayed + "/run-now", "{}", null);
    Response runRunning = post("/api/messages/" + running + "/run-now", "{}", null);
    post("/api/messages/" + running + "/cancel", "{}", null);
    Response retry = post("/api/messages/" + running + "/retry", "{}", null);
    Response delete = post("/api/messages/" + delayed + "/delete", "{}", null);
    Response deleteAgain = post("/api/messages/" + delayed + "/delete", "{}", null);
    Response malformed = post("/api/messages/abc/retry", "{}", null);
    Response get = get("/api/messages/" + delayed + "/delete");

    assertError(deleteRunning, 409, "is in flight; cancel it first");
    assertError(retryRunning, 409, "is INFLIGHT; only dead or cancelled messages can be retried");
    assertThat(runNow.status()).as(runNow.body()).isEqualTo(200);
    assertThat(runNow.json())
        .containsEntry("id", delayed)
        .containsEntry("availableNow", true)
        .containsEntry("changed", true);
    assertThat(runAgain.json()).containsEntry("changed", false);
    assertError(runRunning, 409, "is INFLIGHT; only pending messages can be run now");
    assertThat(retry.status()).as(retry.body()).isEqualTo(200);
    assertThat(retry.json()).containsEntry("id", running).containsEntry("retried", true);
    QueueMessage retried = store.queues().find(running).orElseThrow();
    assertThat(retried.status()).isEqualTo(MessageStatus.PENDING);
    assertThat(retried.attempts()).isZero();
    assertThat(delete.json()).containsEntry("id", delayed).containsEntry("deleted", true);
    assertThat(store.queues().find(delayed)).isEmpty();
    assertError(deleteAgain, 404, "no message " + delayed);
    assertError(malformed, 400, "'abc'");
    assertThat(get.status()).as("a change is a POST").isEqualTo(405);
  }

  @Test
  void a_queues_messages_are_filtered_by_group() throws Exception {
    long a1 = queue.enqueue(OutgoingMessage.text("a1").group("tenant-a"));
    queue.enqueue(OutgoingMessage.text("b1").group("tenant-b"));
    queue.enqueue(OutgoingMessage.text("none"));
    long a2 = queue.enqueue(OutgoingMessage.text("a2").group("tenant-a"));

    List<?> tenantA =
        (List<?>) getJson("/api/queues/" + QUEUE + "/messages?group=tenant-a").get("messages");
    List<?> afterA1 =
        (List<?>)
            getJson("/api/queues/" + QUEUE + "/messages?group=tenant-a&after=" + a1)
                .get("messages");
    List<?> nobody =
        (List<?>) getJson("/api/queues/" + QUEUE + "/messages?group=nobody").get("messages");

    assertThat(tenantA.stream().map(m -> (Object) ((Map<?, ?>) m).get("id")).toList())
        .containsExactly(a1, a2);
    assertThat(afterA1.stream().map(m -> (Object) ((Map<?, ?>) m).get("id")).toList())
        .containsExactly(a2);
    assertThat(nobody).isEmpty();
  }

  @Test
  void a_queues_messages_are_browsed_by_status_and_page_and_bad_parameters_are_named()
      throws Exception {
    long first = queue.enqueue(OutgoingMessage.text("a").group("tenant-1"));
    long second = queue.enqueue(OutgoingMessage.text("b").key("k"));
    long third = queue.enqueue(OutgoingMessage.text("c"));
    store.queues().claim(new ClaimRequest(QUEUE, "node-x", 1, Duration.ofMinutes(1), false, null));
    store.queues().cancel(third);

    List<?> all = (List<?>) getJson("/api/queues/" + QUEUE + "/messages").get("messages");
    List<?> inFlight =
        (List<?>) getJson("/api/queues/" + QUEUE + "/messages?status=INFLIGHT").get("messages");
    List<?> page =
        (List<?>)
            getJson("/api/queues/" + QUEUE + "/messages?after=" + first + "&limit=1")
                .get("messages");

    assertThat(all.stream().map(m -> (Object) ((Map<?, ?>) m).get("id")).toList())
        .containsExactly(first, second, third);
    Map<?, ?> claimed = (Map<?, ?>) inFlight.get(0);
    assertThat(inFlight).hasSize(1);
    assertThat(claimed.get("id")).isEqualTo(first);
    assertThat(claimed.get("owner")).isEqualTo("node-x");
    assertThat(claimed.get("group")).isEqualTo("tenant-1");
    assertThat(claimed.get("leaseUntil")).isNotNull();
    assertThat(page.stream().map(m -> (Object) ((Map<?, ?>) m).get("id")).toList())
        .containsExactly(second);
    assertThat(((Map<?, ?>) all.get(2)).get("status")).isEqualTo("CANCELLED");
    assertError(get("/api/queues/" + QUEUE + "/messages?status=RUNNING"), 400, "'RUNNING'");
    assertError(get("/api/queues/" + QUEUE + "/messages?after=-1"), 400, "after");
    assertError(get("/api/queues/nothing-here/messages"), 404, "no queue 'nothing-here'");
  }

  @Test
  void locks_show_each_lock_with_its_state_holder_and_token() throws Exception {
    assertThat((List<?>) getJson("/api/locks").get("locks")).isEmpty();
    io.tenure.spi.LockGrant grant =
        store
            .locks()
            .acquire(
                "report", java.util.UUID.randomUUID().toString(), "api-1", Duration.ofMinutes(5))
            .orElseThrow();

    List<?> locks = (List<?>) getJson("/api/locks").get("locks");

    assertThat(locks).hasSize(1);
    Map<?, ?> lock = (Map<?, ?>) locks.get(0);
    assertThat(lock.get("name")).isEqualTo("report");
    assertThat(lock.get("state")).isEqualTo("HELD");
    assertThat(lock.get("holder")).isEqualTo("api-1");
    assertThat(((Number) lock.get("token")).longValue()).isEqualTo(grant.token());
    assertThat(lock.get("expiresAt")).isEqualTo(grant.expiresAt().toString());
  }

  @Test
  void a_hand_written_agent_row_that_cannot_be_read_leaves_agents_cluster_and_metrics_answering()
      throws Exception {
    try (java.sql.Connection connection = openConnection();
        java.sql.PreparedStatement insert =
            connection.prepareStatement(
                "INSERT INTO "
                    + store.describe().prefix().table("agents")
                    + " (agent_uri, owner_node, target_node, epoch, paused, pinned_to) VALUES (?, NULL, NULL, 1, ?, NULL)")) {
      insert.setString(1, "WORKER://worker-1");
      insert.setBoolean(2, false);
      insert.executeUpdate();
    }

    List<?> agents = (List<?>) getJson("/api/agents").get("agents");
    assertThat(agents.stream().<Object>map(a -> ((Map<?, ?>) a).get("uri")).toList())
        .containsExactly("projection://a", "projection://b");
    assertThat(((List<?>) getJson("/api/cluster").get("nodes"))).hasSize(1);
    String metrics = get("/metrics").body();
    java.util.regex.Matcher skipped =
        java.util.regex.Pattern.compile("(?m)^tenure_agent_rows_skipped_total (\\S+)$")
            .matcher(metrics);
    assertThat(skipped.find()).as(metrics).isTrue();
    assertThat(Double.parseDouble(skipped.group(1))).isGreaterThanOrEqualTo(2.0);
  }

  @Test
  void pausing_an_agent_stops_it_before_the_call_returns_and_resume_restarts_it() throws Exception {
    Response paused = post("/api/agents/pause", "{\"uri\":\"projection://a\"}", null);

    assertThat(paused.status()).isEqualTo(200);
    assertThat(node.runningAgents()).containsExactly(AgentUri.parse("projection://b"));
    assertThat(store.agents().read(AgentUri.parse("projection://a")).orElseThrow().paused())
        .isTrue();

    assertThat(post("/api/agents/resume", "{\"uri\":\"projection://a\"}", null).status())
        .isEqualTo(200);
    await("a runs again", () -> node.runningAgents().size() == 2);
  }

  @Test
  void queues_report_store_counts_and_dead_letters_can_be_listed_and_replayed_once()
      throws Exception {
    long dead = deadLetter("poison");
    queue.enqueue(OutgoingMessage.text("waiting"));

    Map<?, ?> orders =
        ((List<?>) getJson("/api/queues").get("queues"))
            .stream()
                .map(q -> (Map<?, ?>) q)
                .filter(q -> q.get("name").equals(QUEUE))
                .findFirst()
                .orElseThrow();
    assertThat(orders.get("dead")).isEqualTo(1L);
    assertThat(orders.get("pending")).isEqualTo(1L);

    List<?> letters = (List<?>) getJson("/api/queues/orders/dead?limit=10").get("messages");
    assertThat(letters).hasSize(1);
    Map<?, ?> letter = (Map<?, ?>) letters.get(0);
    assertThat(letter.get("id")).isEqualTo(dead);
    assertThat(letter.get("payload")).isEqualTo("poison");
    assertThat(letter.get("payloadEncoding")).isEqualTo("utf-8");
    assertThat((String) letter.get("error")).contains("boom");

    Response replayed = post("/api/queues/orders/dead/" + dead + "/replay", "", null);
    assertThat(replayed.status()).isEqualTo(200);
    assertThat(replayed.json()).isEqualTo(Map.of("replayed", 1L));
    assertThat(store.queues().find(dead).orElseThrow().status()).isEqualTo(MessageStatus.PENDING);

    Response again = post("/api/queues/orders/dead/" + dead + "/replay", "", null);
    assertThat(again.status()).isEqualTo(409);
    assertThat((String) again.json().get("error")).contains("not a dead letter");
    assertThat(store.queues().find(dead).orElseThrow().status()).isEqualTo(MessageStatus.PENDING);
  }

  @Test
  void purge_by_filter_removes_only_matching_dead_letters() throws Exception {
    long keep = deadLetter("keep me");
    long purge = deadLetter("purge me");
    store.queues().find(keep).orElseThrow();

    Response purged =
        post("/api/queues/orders/dead/purge", "{\"errorContains\":\"purge me\"}", null);

    assertThat(purged.json()).isEqualTo(Map.of("purged", 1L));
    assertThat(store.queues().find(purge)).isEmpty();
    assertThat(store.queues().find(keep)).isPresent();
  }

  @Test
  void events_list_the_history_newest_first_with_node_names() throws Exception {
    List<?> events = (List<?>) getJson("/api/events?limit=50").get("events");

    assertThat(events.stream().<Object>map(e -> ((Map<?, ?>) e).get("kind")).toList())
        .contains("JOINED", "LEADER_ACQUIRED", "AGENT_STARTED");
    List<Long> ids = events.stream().map(e -> (Long) ((Map<?, ?>) e).get("id")).toList();
    assertThat(ids).isSortedAccordingTo((a, b) -> Long.compare(b, a));
    assertThat(events.stream().<Object>map(e -> ((Map<?, ?>) e).get("nodeName")).toList())
        .contains("n1");
  }

  @Test
  void bad_input_gets_a_one_line_error_and_changes_nothing() throws Exception {
    long dead = deadLetter("poison");

    assertError(get("/api/events?limit=0"), 400, "limit must be a whole number from 1 to 10000");
    assertError(get("/api/queues/nope/dead"), 404, "no queue 'nope'");
    assertError(post("/api/queues/nope/dead/replay", "", null), 404, "no queue 'nope'");
    assertError(post("/api/queues/orders/dead/999999/replay", "", null), 404, "no message 999999");
    assertError(
        post("/api/queues/orders/dead/replay", "{\"status\":\"PENDING\"}", null),
        400,
        "unknown filter field");
    assertError(post("/api/agents/pause", "{\"uri\":", null), 400, "not a JSON object");
    assertError(post("/api/agents/pause", "{\"uri\":\"not a uri\"}", null), 400, "");
    assertError(
        post("/api/agents/pause", "{\"uri\":\"projection://zzz\"}", null),
        404,
        "no agent projection://zzz");
    assertError(
        post("/api/agents/pin", "{\"uri\":\"projection://a\",\"node\":\"ghost\"}", null),
        400,
        "ghost");
    assertError(get("/api/nothing"), 404, "no such path");
    assertError(
        send(HttpRequest.newBuilder(uri("/api/cluster")).DELETE()), 405, "DELETE is not allowed");
    assertError(
        post(
            "/api/agents/pause",
            "{\"uri\":\"" + "x".repeat(AdminServer.MAX_BODY_BYTES) + "\"}",
            null),
        413,
        "over");

    assertThat(store.queues().find(dead).orElseThrow().status()).isEqualTo(MessageStatus.DEAD);
    assertThat(store.agents().readAll())
        .allSatisfy(
            a -> {
              assertThat(a.paused()).isFalse();
              assertThat(a.pinnedTo()).isNull();
            });
  }

  @Test
  void a_cross_site_change_is_refused_and_changes_nothing() throws Exception {
    long dead = deadLetter("poison");
    String replay = "/api/queues/orders/dead/" + dead + "/replay";

    // What a page elsewhere can send without a preflight: a text/plain POST.
    assertError(
        send(
            HttpRequest.newBuilder(uri(replay))
                .header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString(""))),
        415,
        "Content-Type: application/json");
    assertError(
        send(HttpRequest.newBuilder(uri(replay)).POST(HttpRequest.BodyPublishers.ofString(""))),
        415,
        "");
    assertError(
        send(
            HttpRequest.newBuilder(uri(replay))
                .header("Content-Type", "application/json")
                .header("Origin", "http://evil.example")
                .POST(HttpRequest.BodyPublishers.ofString(""))),
        403,
        "evil.example");
    assertThat(store.queues().find(dead).orElseThrow().status()).isEqualTo(MessageStatus.DEAD);

    assertThat(
            send(HttpRequest.newBuilder(uri(replay))
                    .header("Content-Type", "application/json")
                    .header("Origin", "http://127.0.0.1:" + server.port())
                    .POST(HttpRequest.BodyPublishers.ofString("")))
                .status())
        .isEqualTo(200);
  }

  @Test
  void a_page_on_a_rebinding_domain_is_refused_on_every_route_and_changes_nothing()
      throws Exception {
    // DNS rebinding: a page at http://rebind.evil.example:PORT whose name now resolves to
    // 127.0.0.1.
    // The browser sends its own name as Host and a matching Origin: same-origin, as far as it
    // knows.
    String evil = "rebind.evil.example:" + server.port();
    List<String> asTheBrowser =
        List.of("Host: " + evil, "Origin: http://" + evil, "Content-Type: application/json");
    long dead = deadLetter("secret payload");

    Raw pause =
        raw(
            server.port(),
            "POST",
            "/api/agents/pause",
            asTheBrowser,
            "{\"uri\":\"projection://a\"}");
    Raw purge = raw(server.port(), "POST", "/api/queues/orders/dead/purge", asTheBrowser, "");
    Raw payload = raw(server.port(), "GET", "/api/messages/" + dead, asTheBrowser, "");

    for (Raw refused : List.of(pause, purge, payload)) {
      assertThat(refused.status()).as(refused.toString()).isEqualTo(421);
      assertThat(refused.body()).doesNotContain("secret payload").contains("rebind.evil.example");
    }
    for (String path :
        List.of(
            "/",
            "/app.js",
            "/health/live",
            "/health/ready",
            "/metrics",
            "/api/cluster",
            "/nothing")) {
      assertThat(raw(server.port(), "GET", path, asTheBrowser, "").status())
          .as(path)
          .isEqualTo(421);
    }
    assertThat(store.agents().read(AgentUri.parse("projection://a")).orElseThrow().paused())
        .isFalse();
    assertThat(node.runningAgents()).hasSize(2);
    assertThat(store.queues().find(dead).orElseThrow().status()).isEqualTo(MessageStatus.DEAD);
  }

  @Test
  void the_bound_address_and_the_loopback_names_with_its_port_are_served() throws Exception {
    int port = server.port();
    for (String host :
        List.of(
            "127.0.0.1:" + port,
            "localhost:" + port,
            "LOCALHOST:" + port,
            "[::1]:" + port,
            "[0:0:0:0:0:0:0:1]:" + port)) {
      assertThat(raw(port, "GET", "/api/cluster", List.of("Host: " + host), "").status())
          .as(host)
          .isEqualTo(200);
    }
    for (String host :
        List.of(
            "127.0.0.1:" + (port == 1 ? 2 : port - 1),
            "127.0.0.1",
            "localhost.evil.example:" + port,
            "127.0.0.1.evil.example:" + port,
            "[::2]:" + port,
            "")) {
      assertThat(raw(port, "GET", "/health/live", List.of("Host: " + host), "").status())
          .as(host)
          .isEqualTo(421);
    }
    // An absolute-form target names the server itself, instead of the Host header (RFC 9112 3.2.2).
    assertThat(
            raw(
                    port,
                    "GET",
                    "http://rebind.evil.example:" + port + "/api/cluster",
                    List.of("Host: 127.0.0.1:" + port),
                    "")
                .status())
        .isEqualTo(421);
    // HTTP/1.1 requires exactly one Host; HTTP/1.0 clients (some load balancers' probes) send none.
    assertThat(raw(port, "GET", "/health/live", List.of(), "").status()).isEqualTo(400);
    assertThat(
            raw(
                    port,
                    "GET",
                    "/health/live",
                    List.of("Host: 127.0.0.1:" + port, "Host: rebind.evil.example:" + port),
                    "")
                .status())
        .isEqualTo(400);
    assertThat(raw(port, "GET", "/health/live", "HTTP/1.0", List.of(), "").status()).isEqualTo(200);
  }

  @Test
  void every_response_forbids_framing_sniffing_and_foreign_scripts() throws Exception {
    for (String path :
        List.of("/", "/app.js", "/api/cluster", "/api/nothing", "/health/live", "/metrics")) {
      Raw response =
          raw(server.port(), "GET", path, List.of("Host: 127.0.0.1:" + server.port()), "");
      assertThat(response.headers())
          .as(path)
          .containsEntry("x-frame-options", "DENY")
          .containsEntry("x-content-type-options", "nosniff");
      assertThat(response.headers().get("content-security-policy"))
          .as(path)
          .contains("frame-ancestors 'none'")
          .contains("base-uri 'none'");
    }
    String console =
        raw(server.port(), "GET", "/", List.of("Host: 127.0.0.1:" + server.port()), "")
            .headers()
            .get("content-security-policy");
    assertThat(console)
        .startsWith("default-src 'self';")
        .contains("form-action 'self'")
        .doesNotContain("unsafe");
  }

  @Test
  void deeply_nested_json_is_bad_input_and_the_server_keeps_serving() throws Exception {
    assertError(post("/api/agents/pause", "[".repeat(30_000), null), 400, "nested deeper than 64");
    assertError(
        post("/api/agents/pause", "{\"uri\":" + "[".repeat(65) + "]".repeat(65) + "}", null),
        400,
        "nested deeper than 64");

    assertThat(get("/api/cluster").status()).isEqualTo(200);
    assertThat(store.agents().readAll()).noneMatch(a -> a.paused());
  }

  @Test
  void an_id_that_is_not_a_number_is_bad_input_naming_it() throws Exception {
    long dead = deadLetter("poison");

    assertError(get("/api/messages/abc"), 400, "'abc'");
    assertError(get("/api/messages/99999999999999999999"), 400, "'99999999999999999999'");
    assertError(post("/api/queues/orders/dead/abc/replay", "", null), 400, "'abc'");
    assertError(get("/api/messages/999999"), 404, "no message 999999");
    assertThat(store.queues().find(dead).orElseThrow().status()).isEqualTo(MessageStatus.DEAD);
  }

  @Test
  void the_published_address_has_no_trailing_slash_so_paths_join_onto_it() throws Exception {
    assertThat(server.advertisedUrl()).doesNotEndWith("/");
    assertThat(server.url()).doesNotEndWith("/");
    String address =
        (String)
            ((Map<?, ?>) ((List<?>) getJson("/api/cluster").get("nodes")).get(0)).get("address");

    assertThat(send(HttpRequest.newBuilder(URI.create(address + "/metrics")).GET()).status())
        .isEqualTo(200);
    assertThat(send(HttpRequest.newBuilder(URI.create(address + "/health/live")).GET()).status())
        .isEqualTo(200);
    // Doubled slashes inside a path route as single ones.
    assertThat(get("/api//cluster").status()).isEqualTo(200);
    assertThat(get("///metrics").status()).isEqualTo(200);
  }

  @Test
  void with_a_token_every_api_call_and_metrics_need_it_but_health_and_the_console_files_do_not()
      throws Exception {
    long dead = deadLetter("secret payload");
    try (AdminServer guarded =
        AdminServer.builder(store)
            .node(node)
            .bind("127.0.0.1", 0)
            .token("s3cret")
            .build()
            .start()) {
      String base = "http://127.0.0.1:" + guarded.port();
      for (String path :
          List.of(
              "/api/cluster",
              "/api/agents",
              "/api/queues",
              "/api/events",
              "/api/queues/orders/dead",
              "/api/messages/" + dead,
              "/metrics")) {
        Response refused = send(HttpRequest.newBuilder(URI.create(base + path)).GET());
        assertError(refused, 401, "needs 'Authorization: Bearer TOKEN'");
        assertThat(refused.body()).doesNotContain("secret payload");
        assertError(
            send(
                HttpRequest.newBuilder(URI.create(base + path))
                    .header("Authorization", "Bearer wrong")
                    .GET()),
            401,
            "wrong bearer token");
        assertThat(
                send(HttpRequest.newBuilder(URI.create(base + path))
                        .header("Authorization", "Bearer s3cret")
                        .GET())
                    .status())
            .as(path)
            .isEqualTo(200);
      }
      for (String path :
          List.of("/", "/app.js", "/style.css", "/favicon.svg", "/health/live", "/health/ready")) {
        assertThat(send(HttpRequest.newBuilder(URI.create(base + path)).GET()).status())
            .as(path)
            .isEqualTo(200);
      }
      assertError(
          post(base, "/api/queues/orders/dead/" + dead + "/replay", "", null), 401, "Bearer TOKEN");
      assertThat(store.queues().find(dead).orElseThrow().status()).isEqualTo(MessageStatus.DEAD);
    }
  }

  @Test
  void beyond_loopback_a_token_is_required_and_checked_on_every_change() throws Exception {
    assertThatThrownBy(() -> AdminServer.builder(store).bind("0.0.0.0", 0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("give it a token");

    try (AdminServer guarded =
        AdminServer.builder(store).node(node).bind("0.0.0.0", 0).token("s3cret").build().start()) {
      String base = "http://127.0.0.1:" + guarded.port();
      long dead = deadLetter("poison");
      String replay = "/api/queues/orders/dead/" + dead + "/replay";

      assertError(post(base, replay, "", null), 401, "needs 'Authorization: Bearer TOKEN'");
      assertError(post(base, replay, "", "Bearer wrong"), 401, "wrong bearer token");
      assertThat(store.queues().find(dead).orElseThrow().status()).isEqualTo(MessageStatus.DEAD);
      assertError(
          send(HttpRequest.newBuilder(URI.create(base + "/api/cluster")).GET()),
          401,
          "Bearer TOKEN");
      assertThat(
              send(HttpRequest.newBuilder(URI.create(base + "/api/cluster"))
                      .header("Authorization", "Bearer s3cret")
                      .GET())
                  .status())
          .isEqualTo(200);
      // Bound to every interface, it answers to the machine's name: what it advertises to other
      // nodes.
      String name = java.net.InetAddress.getLocalHost().getHostName();
      assertThat(guarded.advertisedUrl()).isEqualTo("http://" + name + ":" + guarded.port());
      assertThat(
              raw(
                      guarded.port(),
                      "GET",
                      "/health/live",
                      List.of("Host: " + name + ":" + guarded.port()),
                      "")
                  .status())
          .isEqualTo(200);
      assertThat(
              raw(
                      guarded.port(),
                      "GET",
                      "/health/live",
                      List.of("Host: rebind.evil.example:" + guarded.port()),
                      "")
                  .status())
          .isEqualTo(421);

      assertThat(post(base, replay, "", "Bearer s3cret").status()).isEqualTo(200);
      assertThat(store.queues().find(dead).orElseThrow().status()).isEqualTo(MessageStatus.PENDING);
    }
  }

  @Test
  void health_is_live_and_ready_while_active_and_not_ready_once_the_node_left() throws Exception {
    assertThat(get("/health/live").status()).isEqualTo(200);
    assertThat(get("/health/ready").json()).isEqualTo(Map.of("status", "UP"));

    node.close();

    Response ready = get("/health/ready");
    assertThat(ready.status()).isEqualTo(503);
    assertThat((String) ready.json().get("reason")).contains("not in the membership table");
    assertThat(get("/health/live").status()).isEqualTo(200);
  }

  @Test
  void metrics_are_served_in_prometheus_format_with_queue_and_node_values() throws Exception {
    queue.enqueueAll(List.of(OutgoingMessage.text("1"), OutgoingMessage.text("2")));
    deadLetter("poison");

    String metrics = get("/metrics").body();

    assertThat(metrics).contains("tenure_queue_depth{queue=\"orders\",scope=\"store\"} 2.0");
    assertThat(metrics).contains("tenure_queue_dead{queue=\"orders\",scope=\"store\"} 1.0");
    assertThat(metrics).contains("tenure_node_leader 1.0");
    assertThat(metrics).contains("tenure_node_agents_running 2.0");
    assertThat(metrics).contains("tenure_cluster_nodes{scope=\"store\",status=\"ACTIVE\"} 1.0");
    long epoch = store.leases().read().epoch();
    assertThat(metrics).contains("tenure_cluster_leader_epoch{scope=\"store\"} " + (double) epoch);
    assertThat(metrics).contains("tenure_node_leader_epoch " + (double) epoch);
  }

  /**
   * The consumer's node runs on a ticker only its handlers move, one handler at a time, so each
   * call's duration is exactly its own step; the pickups are on the database's real clock, so only
   * their count is fixed.
   */
  @Test
  void a_queues_handler_and_pickup_histograms_and_timed_out_handlers_are_served() throws Exception {
    AtomicLong ticker = new AtomicLong();
    Queue timed =
        Queue.on(
            store.queues(),
            "timed",
            QueuePolicy.defaults()
                .withLease(Duration.ofHours(1))
                .withTimeout(Duration.ofSeconds(1), OnTimeout.DEAD_LETTER));
    timed.enqueueAll(
        List.of(
            OutgoingMessage.text("quick"),
            OutgoingMessage.text("quick"),
            OutgoingMessage.text("slow")));
    try (AdminServer admin = AdminServer.builder(store).bind("127.0.0.1", 0).build().start();
        TenureNode consumer =
            TenureNode.builder(store)
                .name("n2")
                .promotable(false)
                .address(admin.advertisedUrl())
                .ticker(ticker::get)
                .consumer(timed, 1, delivery -> stepTicker(delivery, ticker))
                .build()) {
      admin.attach(consumer);
      consumer.start();
      await(
          "two handled, one timed out, three handler calls returned",
          () -> {
            ConsumerStats stats = consumer.consumerStats().get(0);
            return stats.handled() == 2
                && stats.deadLettered() == 1
                && stats.handlerDuration().count() == 3;
          });

      String metrics =
          send(HttpRequest.newBuilder(URI.create(admin.url() + "/metrics")).GET()).body();
      Map<?, ?> fields =
          consumerOf(
              send(HttpRequest.newBuilder(URI.create(admin.url() + "/api/queues")).GET()).json(),
              "timed");

      assertThat(metrics)
          .contains("# TYPE tenure_queue_handler_seconds histogram")
          .contains("tenure_queue_handler_seconds_bucket{queue=\"timed\",le=\"0.25\"} 0\n")
          .contains("tenure_queue_handler_seconds_bucket{queue=\"timed\",le=\"0.5\"} 2\n")
          .contains("tenure_queue_handler_seconds_bucket{queue=\"timed\",le=\"2.5\"} 3\n")
          .contains("tenure_queue_handler_seconds_bucket{queue=\"timed\",le=\"+Inf\"} 3\n")
          .contains("tenure_queue_handler_seconds_count{queue=\"timed\"} 3\n")
          .contains("tenure_queue_handler_seconds_sum{queue=\"timed\"} 1.8\n")
          .contains("# TYPE tenure_queue_pickup_seconds histogram")
          .contains("tenure_queue_pickup_seconds_bucket{queue=\"timed\",le=\"+Inf\"} 3\n")
          .contains("tenure_queue_pickup_seconds_count{queue=\"timed\"} 3\n")
          .containsPattern("tenure_queue_timed_out_total\\{queue=\"timed\"} 1(\\.0)?\n");
      assertThat(fields.get("timedOut")).isEqualTo(1L);
      Map<?, ?> handler = (Map<?, ?>) fields.get("handlerSeconds");
      assertThat(handler.get("count")).isEqualTo(3L);
      assertThat(handler.get("sum")).isEqualTo(1.8);
      List<Object> buckets = List.copyOf((List<?>) handler.get("buckets"));
      assertThat(buckets)
          .contains(Map.<String, Object>of("le", 0.5, "count", 2L))
          .contains(Map.<String, Object>of("le", 2.5, "count", 3L));
      assertThat(((Map<?, ?>) fields.get("pickupSeconds")).get("count")).isEqualTo(3L);
    }
  }

  /** The first consumer of {@code queue} in a {@code GET /api/queues} answer. */
  private static Map<?, ?> consumerOf(Map<String, Object> answer, String queue) {
    for (Object listed : (List<?>) answer.get("queues")) {
      Map<?, ?> fields = (Map<?, ?>) listed;
      if (fields.get("name").equals(queue)) {
        return (Map<?, ?>) ((List<?>) fields.get("consumers")).get(0);
      }
    }
    throw new AssertionError("no queue " + queue + " in " + answer);
  }

  /**
   * A quick message's handler moves the ticker 300 ms; the slow one's 1.2 s, past its queue's 1 s
   * timeout, and returns once told.
   */
  private static void stepTicker(Delivery delivery, AtomicLong ticker) throws Exception {
    String payload = new String(delivery.message().payload(), StandardCharsets.UTF_8);
    if (payload.equals("quick")) {
      ticker.addAndGet(Duration.ofMillis(300).toNanos());
      return;
    }
    CountDownLatch told = new CountDownLatch(1);
    delivery.onCancel(told::countDown);
    ticker.addAndGet(Duration.ofMillis(1200).toNanos());
    assertThat(told.await(WAIT.toSeconds(), TimeUnit.SECONDS)).as("told of its timeout").isTrue();
  }

  @Test
  void on_a_follower_the_node_epoch_is_0_and_the_cluster_epoch_is_the_leaders() throws Exception {
    try (AdminServer followerAdmin =
            AdminServer.builder(store).bind("127.0.0.1", 0).build().start();
        TenureNode follower =
            TenureNode.builder(store)
                .name("n2")
                .promotable(false)
                .address(followerAdmin.advertisedUrl())
                .build()) {
      followerAdmin.attach(follower);
      follower.start();
      long epoch = store.leases().read().epoch();

      String metrics =
          send(HttpRequest.newBuilder(URI.create(followerAdmin.url() + "/metrics")).GET()).body();

      assertThat(metrics)
          .contains("tenure_node_leader 0.0")
          .contains("tenure_node_leader_epoch 0.0");
      assertThat(metrics)
          .contains("tenure_cluster_leader_epoch{scope=\"store\"} " + (double) epoch);
    }
  }

  @Test
  void store_wide_gauges_refresh_on_their_schedule_for_a_registry_nothing_scrapes()
      throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    ManualSchedule schedule = new ManualSchedule();
    queue.enqueueAll(List.of(OutgoingMessage.text("1"), OutgoingMessage.text("2")));
    try (AdminServer pushed =
        AdminServer.builder(store)
            .node(node)
            .bind("127.0.0.1", 0)
            .meterRegistry(registry)
            .metricsRefresh(Duration.ofSeconds(7))
            .metricsSchedule(schedule)
            .build()
            .start()) {
      assertThat(schedule.period).isEqualTo(Duration.ofSeconds(7));
      schedule.fire();
      assertThat(depth(registry)).isEqualTo(2.0);
      assertThat(
              registry
                  .get("tenure_cluster_nodes")
                  .tags("status", "ACTIVE", "scope", "store")
                  .gauge()
                  .value())
          .isEqualTo(1.0);

      queue.enqueue(OutgoingMessage.text("3"));
      assertThat(depth(registry)).as("a snapshot until the next refresh").isEqualTo(2.0);
      schedule.fire();
      assertThat(depth(registry)).isEqualTo(3.0);
      assertThat(registry.get("tenure_node_leader").gauge().value()).isEqualTo(1.0);

      assertError(
          send(HttpRequest.newBuilder(URI.create(pushed.url() + "/metrics")).GET()),
          404,
          "no Prometheus registry");
    }
    assertThat(schedule.closed).as("close() stops the refresh").isTrue();
  }

  @Test
  void the_default_schedule_refreshes_without_a_scrape() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    queue.enqueue(OutgoingMessage.text("1"));
    try (AdminServer pushed =
        AdminServer.builder(store)
            .node(node)
            .bind("127.0.0.1", 0)
            .meterRegistry(registry)
            .metricsRefresh(Duration.ofMillis(100))
            .build()
            .start()) {
      await(
          "the first refresh registered the queue's gauges",
          () -> registry.find("tenure_queue_depth").gauge() != null && depth(registry) == 1.0);
      queue.enqueue(OutgoingMessage.text("2"));
      await("a later refresh saw the second message", () -> depth(registry) == 2.0);
    }
  }

  @Test
  void builder_options_are_checked_at_once_naming_the_value() {
    AdminServer.Builder builder = AdminServer.builder(store);
    for (String bad :
        new String[] {
          "", " ", "evil example", "host:99999", "host:", "[::1", "[zz]", "a/b", "host:80:80"
        }) {
      assertThatThrownBy(() -> builder.allowedHosts(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() -> builder.allowedHosts("evil example"))
        .hasMessageContaining("'evil example'");
    assertThatThrownBy(() -> builder.metricsRefresh(Duration.ofMillis(10)))
        .hasMessageContaining("PT0.01S");
    assertThatThrownBy(() -> builder.meterRegistry(null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void an_allowed_name_is_served_with_any_port_and_a_name_with_a_port_only_on_it()
      throws Exception {
    try (AdminServer proxied =
        AdminServer.builder(store)
            .node(node)
            .bind("127.0.0.1", 0)
            .allowedHosts("Tenure.Internal", "proxy.example:8443", "[fd00::7]")
            .build()
            .start()) {
      int port = proxied.port();
      for (String host :
          List.of(
              "tenure.internal",
              "tenure.internal:443",
              "TENURE.INTERNAL:" + port,
              "proxy.example:8443",
              "[fd00:0:0:0:0:0:0:7]:9000",
              "localhost:" + port)) {
        assertThat(raw(port, "GET", "/api/cluster", List.of("Host: " + host), "").status())
            .as(host)
            .isEqualTo(200);
      }
      for (String host :
          List.of(
              "proxy.example",
              "proxy.example:8444",
              "tenure.internal.evil.example",
              "evil.tenure.internal")) {
        assertThat(raw(port, "GET", "/api/cluster", List.of("Host: " + host), "").status())
            .as(host)
            .isEqualTo(421);
      }
    }
  }

  @Test
  void the_console_is_served_from_the_jar_and_nothing_else_is() throws Exception {
    Response index = get("/");
    assertThat(index.status()).isEqualTo(200);
    assertThat(index.contentType()).startsWith("text/html");
    assertThat(index.body()).containsIgnoringCase("<html");
    assertThat(get("/app.js").contentType()).startsWith("text/javascript");
    assertThat(get("/style.css").contentType()).startsWith("text/css");
    assertThat(get("/../pom.xml").status()).isEqualTo(404);
    assertThat(get("/io/tenure/server/Json.class").status()).isEqualTo(404);
  }

  // ---- helpers ----

  /** A dead letter in the queue: enqueued, claimed and dead-lettered through the SPI. */
  private long deadLetter(String text) {
    long id = queue.enqueue(OutgoingMessage.text(text));
    // The node consumes nothing, so the claim takes the oldest pending: drain until this one is
    // taken.
    while (true) {
      List<QueueMessage> claimed =
          store
              .queues()
              .claim(new ClaimRequest(QUEUE, "test", 100, Duration.ofMinutes(1), false, null));
      assertThat(claimed).as("claimable messages").isNotEmpty();
      List<Resolution> resolutions =
          claimed.stream()
              .map(
                  m ->
                      new Resolution(
                          m.claim(),
                          m.id() == id
                              ? new Resolution.DeadLetter("boom: " + text)
                              : new Resolution.Release()))
              .toList();
      assertThat(store.queues().resolve(resolutions, null).allApplied()).isTrue();
      if (claimed.stream().anyMatch(m -> m.id() == id)) {
        return id;
      }
    }
  }

  private static AgentFamily family(String scheme, String... names) {
    Set<AgentUri> uris =
        java.util.Arrays.stream(names)
            .map(n -> new AgentUri(scheme, n))
            .collect(java.util.stream.Collectors.toSet());
    return AgentFamily.of(
        scheme,
        uris,
        uri -> {
          return new Agent() {
            @Override
            public void start(AgentContext context) {}

            @Override
            public void stop(AgentContext context) {}
          };
        });
  }

  private static void await(String what, BooleanSupplier condition) {
    long end = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > end) {
        throw new AssertionError("timed out waiting until " + what);
      }
      Thread.onSpinWait();
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted", e);
      }
    }
  }

  private record Response(int status, String body, String contentType) {
    Map<String, Object> json() {
      return Json.parseObject(body);
    }
  }

  private static double depth(SimpleMeterRegistry registry) {
    return registry
        .get("tenure_queue_depth")
        .tags("queue", QUEUE, "scope", "store")
        .gauge()
        .value();
  }

  /** The metrics refresh, run by the test when it says so. */
  private static final class ManualSchedule implements TenureMetrics.Schedule {
    volatile @Nullable Duration period;
    volatile @Nullable Runnable task;
    volatile boolean closed;

    @Override
    public AutoCloseable every(Duration period, Runnable task) {
      this.period = period;
      this.task = task;
      return () -> closed = true;
    }

    void fire() {
      assertThat(task).as("the server scheduled its refresh").isNotNull();
      task.run();
    }
  }

  /** A response read off the socket: the status, the headers (names in lower case) and the body. */
  private record Raw(int status, Map<String, String> headers, String body) {}

  private static Raw raw(int port, String method, String target, List<String> headers, String body)
      throws IOException {
    return raw(port, method, target, "HTTP/1.1", headers, body);
  }

  /**
   * Sends one request as written, on a socket: HttpClient will not send a Host header of the
   * caller's choosing, and a rebinding page's browser does.
   */
  private static Raw raw(
      int port, String method, String target, String protocol, List<String> headers, String body)
      throws IOException {
    try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
      socket.setSoTimeout((int) WAIT.toMillis());
      byte[] bytes = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
      StringBuilder head = new StringBuilder(method + " " + target + " " + protocol + "\r\n");
      headers.forEach(header -> head.append(header).append("\r\n"));
      head.append("Content-Length: ").append(bytes.length).append("\r\nConnection: close\r\n\r\n");
      socket
          .getOutputStream()
          .write(head.toString().getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
      socket.getOutputStream().write(bytes);
      socket.getOutputStream().flush();
      String response =
          new String(
              socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      int end = response.indexOf("\r\n\r\n");
      assertThat(end).as("a complete response head: " + response).isPositive();
      String[] lines = response.substring(0, end).split("\r\n");
      Map<String, String> fields = new java.util.LinkedHashMap<>();
      for (int i = 1; i < lines.length; i++) {
        int colon = lines[i].indexOf(':');
        fields.put(
            lines[i].substring(0, colon).trim().toLowerCase(java.util.Locale.ROOT),
            lines[i].substring(colon + 1).trim());
      }
      return new Raw(Integer.parseInt(lines[0].split(" ")[1]), fields, response.substring(end + 4));
    }
  }

  private static void assertError(Response response, int status, String fragment) {
    assertThat(response.status()).as(response.body()).isEqualTo(status);
    String error = (String) response.json().get("error");
    assertThat(error).contains(fragment).doesNotContain("\n");
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + server.port() + path);
  }

  private Map<String, Object> getJson(String path) throws IOException, InterruptedException {
    Response response = get(path);
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    return response.json();
  }

  private Response get(String path) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(uri(path)).GET());
  }

  private Response post(String path, String body, @Nullable String authorization)
      throws IOException, InterruptedException {
    return post("http://127.0.0.1:" + server.port(), path, body, authorization);
  }

  private Response post(String base, String path, String body, @Nullable String authorization)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base + path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return send(request);
  }

  private Response send(HttpRequest.Builder request) throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    return new Response(
        response.statusCode(),
        response.body(),
        response.headers().firstValue("Content-Type").orElse(""));
  }
}
