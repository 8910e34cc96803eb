package io.tenure.cli;

import io.tenure.ClusterEvent;
import io.tenure.NodeInfo;
import io.tenure.spi.Store;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tenure events}: the cluster history (SPEC §3.8) as {@code GET /api/events} reads it,
 * filtered here, oldest first; with {@code --follow} it polls for new events until stopped.
 */
@Command(
    name = "events",
    description = {
      "Show the cluster's history, oldest first.",
      "Joins, leader changes, deaths, ejections, and agents started, stopped, moved, released and"
          + " restored.",
      "Filters apply to the newest 10000 events the store keeps. With --follow it then polls the"
          + " store every --interval and prints each new event until Ctrl-C; with --json that is one"
          + " JSON object per line, one per event."
    })
final class EventsCommand extends StoreCommand {
  /** The most events the store returns in one read ({@code EventStore.recent}). */
  private static final int MAX_READ = 10_000;

  /** The first window a follow poll reads; it doubles while every event in it is new. */
  private static final int POLL_WINDOW = 100;

  /**
   * Ids remembered while following, so an event committed late (a lower id) is still printed once.
   */
  private static final int REMEMBERED = 20_000;

  @Option(
      names = "--kind",
      paramLabel = "KIND",
      split = ",",
      description =
          "Only events of these kinds, comma-separated or repeated: JOINED, ACTIVATED, LEFT,"
              + " DECLARED_DEAD, EJECTED, LEADER_ACQUIRED, LEADER_LOST, AGENT_STARTED, AGENT_STOPPED,"
              + " AGENT_MOVED, AGENT_RELEASED, AGENT_RESTORED.")
  List<String> kinds = new ArrayList<>();

  @Option(
      names = "--node",
      paramLabel = "NAME",
      description = "Only events of this node: a name or an incarnation id.")
  @Nullable String node;

  @Option(
      names = "--since",
      paramLabel = "WHEN",
      description =
          "Only events at or after WHEN: a duration ago by the database clock (10m, 2h, PT30S)"
              + " or an instant (2026-05-01T12:00:00Z).")
  @Nullable String since;

  @Option(
      names = "--limit",
      paramLabel = "N",
      defaultValue = "50",
      description = "Show the newest N matching events, 1 to 10000. Default: ${DEFAULT-VALUE}.")
  int limit = 50;

  @Option(
      names = "--follow",
      description = "Keep polling and print new events as they are written, until Ctrl-C.")
  boolean follow;

  @Option(
      names = "--interval",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      defaultValue = "1s",
      description = "How often --follow polls, 100ms to 1m. Default: ${DEFAULT-VALUE}.")
  Duration interval = Duration.ofSeconds(1);

  /** Counted down to end a follow: by Ctrl-C's shutdown hook, or by a test. */
  final CountDownLatch stop = new CountDownLatch(1);

  private final Set<ClusterEvent.Kind> wanted = EnumSet.noneOf(ClusterEvent.Kind.class);
  private @Nullable Instant sinceInstant;
  private @Nullable Duration sinceAgo;

  @Override
  void checkArguments() {
    for (String kind : kinds) {
      try {
        wanted.add(ClusterEvent.Kind.valueOf(kind.strip().toUpperCase(Locale.ROOT)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "unknown event kind '"
                + kind
                + "'; use one of "
                + String.join(
                    ", ",
                    EnumSet.allOf(ClusterEvent.Kind.class).stream().map(Enum::name).toList()));
      }
    }
    if (node != null && node.isBlank()) {
      throw new IllegalArgumentException("--node must name a node, got '" + node + "'");
    }
    if (since != null) {
      parseSince(since);
    }
    if (limit < 1 || limit > MAX_READ) {
      throw new IllegalArgumentException("--limit must be 1 to 10000, got " + limit);
    }
    if (interval.compareTo(Duration.ofMillis(100)) < 0
        || interval.compareTo(Duration.ofMinutes(1)) > 0) {
      throw new IllegalArgumentException("--interval must be 100ms to 1m, got " + interval);
    }
  }

  private void parseSince(String value) {
    try {
      sinceAgo = new DurationConverter().convert(value);
      if (sinceAgo.isNegative()) {
        throw new IllegalArgumentException("--since must not be a negative duration, got " + value);
      }
    } catch (picocli.CommandLine.TypeConversionException notADuration) {
      try {
        sinceInstant = Instant.parse(value);
      } catch (java.time.format.DateTimeParseException e) {
        throw new IllegalArgumentException(
            "--since takes a duration ago (10m, PT2H) or an instant"
                + " (2026-05-01T12:00:00Z), got '"
                + value
                + "'");
      }
    }
  }

  @Override
  int run(Store store, Output output) {
    Instant from =
        sinceInstant != null ? sinceInstant : sinceAgo != null ? store.now().minus(sinceAgo) : null;
    Names names = new Names(store);
    boolean filtered = !wanted.isEmpty() || node != null || from != null;
    List<ClusterEvent> read = oldestFirst(store.events().recent(filtered ? MAX_READ : limit));
    names.learn(read);
    List<ClusterEvent> shown = read.stream().filter(e -> matches(e, names, from)).toList();
    shown = shown.subList(Math.max(0, shown.size() - limit), shown.size());
    if (!follow) {
      if (output.json()) {
        output.object(Map.of("events", shown.stream().map(e -> json(e, names)).toList()));
      } else if (shown.isEmpty()) {
        output.line(filtered ? "no events match." : "no events.");
      } else {
        shown.forEach(e -> output.line(text(e, names)));
      }
      return ExitCodes.OK;
    }
    shown.forEach(e -> print(e, names, output));
    // Everything there now is history, printed or not: only events written from here on follow.
    follow(store, output, names, from, filtered ? read : store.events().recent(MAX_READ));
    return ExitCodes.OK;
  }

  /**
   * Polls until {@link #stop} or Ctrl-C; every new matching event is printed once, in id order.
   *
   * @param history the events there were at the start (the newest 10,000): never printed again
   */
  private void follow(
      Store store, Output output, Names names, @Nullable Instant from, List<ClusterEvent> history) {
    Set<Long> seen = new LinkedHashSet<>();
    history.forEach(e -> seen.add(e.id()));
    Thread hook = new Thread(stop::countDown, "tenure-events-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      while (!stop.await(interval.toMillis(), TimeUnit.MILLISECONDS)) {
        List<ClusterEvent> fresh = poll(store, seen);
        names.learn(fresh);
        fresh.stream().filter(e -> matches(e, names, from)).forEach(e -> print(e, names, output));
        fresh.forEach(e -> seen.add(e.id()));
        while (seen.size() > REMEMBERED) {
          seen.remove(seen.iterator().next());
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // Ctrl-C: the hook is running, and the JVM exits once it is done
      }
    }
  }

  /** The events not seen yet, oldest first; reads more while all it read were new. */
  private static List<ClusterEvent> poll(Store store, Set<Long> seen) {
    int window = POLL_WINDOW;
    while (true) {
      List<ClusterEvent> recent = store.events().recent(window);
      List<ClusterEvent> fresh = recent.stream().filter(e -> !seen.contains(e.id())).toList();
      if (fresh.size() < recent.size() || recent.size() < window || window == MAX_READ) {
        return oldestFirst(fresh);
      }
      window = Math.min(MAX_READ, window * 4);
    }
  }

  private void print(ClusterEvent event, Names names, Output output) {
    if (output.json()) {
      output.object(json(event, names));
    } else {
      output.line(text(event, names));
    }
  }

  private boolean matches(ClusterEvent event, Names names, @Nullable Instant from) {
    return (wanted.isEmpty() || wanted.contains(event.kind()))
        && (node == null || node.equals(event.nodeId()) || node.equals(names.of(event.nodeId())))
        && (from == null || !event.at().isBefore(from));
  }

  private static List<ClusterEvent> oldestFirst(List<ClusterEvent> events) {
    return events.stream().sorted(Comparator.comparingLong(ClusterEvent::id)).toList();
  }

  /** The fields of {@code GET /api/events} (docs/ADMIN-API.md). */
  private static Map<String, @Nullable Object> json(ClusterEvent event, Names names) {
    Map<String, @Nullable Object> fields = new LinkedHashMap<>();
    fields.put("id", event.id());
    fields.put("at", event.at());
    fields.put("kind", event.kind());
    fields.put("nodeId", event.nodeId());
    fields.put("nodeName", names.of(event.nodeId()));
    fields.put("epoch", event.epoch());
    fields.put("detail", event.detail());
    return fields;
  }

  /** e.g. {@code 2026-05-01T12:00:01.250Z LEADER_ACQUIRED node-1 epoch 3 acquired the lease}. */
  private static String text(ClusterEvent event, Names names) {
    String name = names.of(event.nodeId());
    String who = name == null ? event.nodeId() : name;
    String epoch = event.epoch() == null ? "" : "  epoch " + event.epoch();
    return "%-27s  %-15s  %s%s  %s"
        .formatted(event.at(), event.kind(), who, epoch, event.detail())
        .stripTrailing();
  }

  /**
   * Node names by incarnation id: the current members, and the names departed nodes gave when they
   * joined (a JOINED event's detail is {@code name NAME}).
   */
  private static final class Names {
    private final Store store;
    private final Map<String, String> byId = new HashMap<>();

    Names(Store store) {
      this.store = store;
      readMembers();
    }

    void learn(List<ClusterEvent> events) {
      boolean unknown = false;
      for (ClusterEvent event : events) {
        if (event.kind() == ClusterEvent.Kind.JOINED && event.detail().startsWith("name ")) {
          byId.put(event.nodeId(), event.detail().substring("name ".length()));
        }
        unknown |= !byId.containsKey(event.nodeId());
      }
      if (unknown) {
        readMembers();
      }
    }

    @Nullable String of(String nodeId) {
      return byId.get(nodeId);
    }

    private void readMembers() {
      for (NodeInfo info : store.membership().read().nodes()) {
        byId.put(info.nodeId(), info.name());
      }
    }
  }
}
