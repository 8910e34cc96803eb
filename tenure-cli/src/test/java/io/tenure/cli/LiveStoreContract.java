package io.tenure.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.AgentAssignment;
import io.tenure.AgentUri;
import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.QueueMessage;
import io.tenure.QueuePolicy;
import io.tenure.Stores;
import io.tenure.cli.Cli.Result;
import io.tenure.spi.ClaimRequest;
import io.tenure.spi.MembershipWrite;
import io.tenure.spi.NewNode;
import io.tenure.spi.Resolution;
import io.tenure.spi.Store;
import io.tenure.spi.StoreSettings;
import io.tenure.spi.TablePrefix;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;

/**
 * What the operator-command contracts share: the provider's store and prefix, running {@code
 * tenure} against them, and seeding rows through the public API and SPI, as a service would.
 */
abstract class LiveStoreContract {
  /** The node id the tests claim messages under. */
  static final String CLAIMER = "test-claimer";

  /** The store URL to pass as {@code --store}. */
  abstract String url();

  /** The table prefix to pass as {@code --prefix}. */
  abstract String prefix();

  /** Runs {@code tenure ARGS --store URL --prefix PREFIX}. */
  Result tenure(String... args) {
    return Cli.run(withStore(args));
  }

  /** Runs {@code tenure ARGS --store URL --prefix PREFIX} after {@code setup} saw the wiring. */
  Result tenure(Consumer<CommandLine> setup, String... args) {
    return Cli.run(setup, withStore(args));
  }

  private String[] withStore(String... args) {
    List<String> all = new ArrayList<>(Arrays.asList(args));
    all.addAll(List.of("--store", url(), "--prefix", prefix()));
    return all.toArray(String[]::new);
  }

  /** Opens the store for the duration of {@code work}. */
  <T> T inStore(Function<Store, T> work) {
    try (Store store = Stores.open(new StoreSettings(url(), TablePrefix.of(prefix()), true))) {
      return work.apply(store);
    }
  }

  /**
   * @return the ids of new pending messages, one per payload, with the key (or none)
   */
  List<Long> enqueue(String queue, @Nullable String key, List<OutgoingMessage> messages) {
    return inStore(
        store ->
            Queue.on(store.queues(), queue, QueuePolicy.defaults())
                .enqueueAll(messages.stream().map(m -> key == null ? m : m.key(key)).toList()));
  }

  /**
   * @return the ids of {@code count} new pending text messages with the key (or none)
   */
  List<Long> enqueue(String queue, @Nullable String key, int count) {
    return enqueue(
        queue,
        key,
        IntStream.range(0, count).mapToObj(i -> OutgoingMessage.text("message " + i)).toList());
  }

  /**
   * Claims every available message of the queue and dead-letters it with {@code error}, the way a
   * consumer's non-retryable failure does; repeats while claims return messages, so messages that
   * share a key die one after another.
   *
   * @return how many died
   */
  int killPending(String queue, String error) {
    return inStore(
        store -> {
          int killed = 0;
          List<QueueMessage> claimed;
          while (!(claimed = claim(store, queue, 1000)).isEmpty()) {
            store
                .queues()
                .resolve(
                    claimed.stream()
                        .map(m -> new Resolution(m.claim(), new Resolution.DeadLetter(error)))
                        .toList(),
                    null);
            killed += claimed.size();
          }
          return killed;
        });
  }

  /**
   * @return the ids of {@code count} new dead letters with the key (or none) and the error
   */
  List<Long> deadLetters(String queue, @Nullable String key, int count, String error) {
    List<Long> ids = enqueue(queue, key, count);
    assertThat(killPending(queue, error)).isEqualTo(count);
    return ids;
  }

  /** Claims up to {@code max} messages and leaves them in flight. */
  List<QueueMessage> claimOnly(String queue, int max) {
    return inStore(store -> claim(store, queue, max));
  }

  private static List<QueueMessage> claim(Store store, String queue, int max) {
    return store.queues().claim(ClaimRequest.of(queue, CLAIMER, max, Duration.ofMinutes(10)));
  }

  /**
   * @return the message as stored now
   */
  QueueMessage message(long id) {
    return inStore(store -> store.queues().find(id).orElseThrow());
  }

  /**
   * @return per queue its counts (pending, inflight, dead, done): what "nothing changed" compares
   */
  Map<String, List<Long>> counts() {
    return inStore(
        store ->
            store.queues().stats().stream()
                .collect(
                    java.util.stream.Collectors.toMap(
                        s -> s.queue(),
                        s -> List.of(s.pending(), s.inflight(), s.dead(), s.done()))));
  }

  /**
   * Joins a node to the membership, as a starting node does.
   *
   * @return its incarnation id
   */
  String join(String name) {
    String nodeId = UUID.randomUUID().toString();
    inStore(
        store -> {
          long version = store.membership().read().version();
          NewNode node = new NewNode(nodeId, name, "", Set.of(), Duration.ofSeconds(10));
          assertThat(store.membership().join(node, version)).isEqualTo(MembershipWrite.APPLIED);
          return null;
        });
    return nodeId;
  }

  /** Writes an assignment row with the operator's last-writer-wins upsert. */
  void assign(
      String uri,
      @Nullable String owner,
      @Nullable String target,
      long epoch,
      boolean paused,
      @Nullable String pinnedTo) {
    inStore(
        store -> {
          store
              .agents()
              .upsert(
                  new AgentAssignment(AgentUri.parse(uri), owner, target, epoch, paused, pinnedTo));
          return null;
        });
  }

  /** The one-line error every refusal must be. */
  static void assertOneErrorLine(Result result, int exitCode) {
    assertThat(result.exitCode()).as(result.toString()).isEqualTo(exitCode);
    assertThat(result.errLines())
        .as(result.toString())
        .singleElement()
        .asString()
        .startsWith("tenure: ");
    assertThat(result.out()).as(result.toString()).isEmpty();
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> list(Map<String, Object> json, String field) {
    return (List<Map<String, Object>>) json.get(field);
  }
}
