package io.tenure.internal.queue;

import io.tenure.Agent;
import io.tenure.AgentContext;
import io.tenure.AgentFamily;
import io.tenure.AgentUri;
import io.tenure.spi.AgentGuard;
import io.tenure.spi.QueueStore;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Exclusive queues (SPEC §6.9) as an agent family: the agent {@code queue://NAME} consumes its
 * queue, one message at a time in strict order, on whichever single node the leader placed it. Its
 * consumer carries the agent's ownership epoch on every claim and resolve, so a node that lost the
 * agent can neither take the next message nor finish one its successor owns. Every node that can
 * run exclusive queues should register the same ones.
 */
public final class ExclusiveQueues implements AgentFamily {
  /** The agent scheme of exclusive queues. */
  public static final String SCHEME = "queue";

  private final QueueStore store;
  private final Map<String, ConsumerSpec> byName;
  private final Duration drainDeadline;

  private ExclusiveQueues(
      QueueStore store, Map<String, ConsumerSpec> byName, Duration drainDeadline) {
    this.store = store;
    this.byName = Map.copyOf(byName);
    this.drainDeadline = drainDeadline;
  }

  /**
   * The agent families a node runs: those registered, and the exclusive queues' family if it
   * consumes any, whose scheme no registered family may take.
   *
   * @param families the registered families by scheme
   * @param exclusive the exclusive consumers by queue name
   * @return {@code families}, plus this family under {@link #SCHEME} if {@code exclusive} is not
   *     empty
   * @throws IllegalArgumentException if a registered family has the scheme {@link #SCHEME} and
   *     there are exclusive consumers
   */
  public static Map<String, AgentFamily> withFamilies(
      Map<String, AgentFamily> families,
      Map<String, ConsumerSpec> exclusive,
      QueueStore store,
      Duration drainDeadline) {
    Map<String, AgentFamily> all = new java.util.LinkedHashMap<>(families);
    if (exclusive.isEmpty()) {
      return all;
    }
    if (families.containsKey(SCHEME)) {
      throw new IllegalArgumentException(
          "an agent family for scheme '"
              + SCHEME
              + "' is registered; it is reserved for exclusive queues");
    }
    all.put(SCHEME, new ExclusiveQueues(store, exclusive, drainDeadline));
    return all;
  }

  /**
   * @return the agent that consumes {@code queue}
   */
  public static AgentUri agentOf(String queue) {
    return new AgentUri(SCHEME, queue);
  }

  @Override
  public String scheme() {
    return SCHEME;
  }

  @Override
  public Set<AgentUri> wantedAgents() {
    return byName.keySet().stream()
        .map(ExclusiveQueues::agentOf)
        .collect(Collectors.toUnmodifiableSet());
  }

  @Override
  public Agent build(AgentUri uri) {
    ConsumerSpec spec = byName.get(uri.name());
    if (spec == null) {
      throw new IllegalStateException(
          "this node has no exclusive consumer for queue '"
              + uri.name()
              + "'; register the same exclusive queues on every node");
    }
    return new QueueAgent(spec);
  }

  private final class QueueAgent implements Agent {
    private final ConsumerSpec spec;
    private volatile QueueConsumer consumer;

    QueueAgent(ConsumerSpec spec) {
      this.spec = spec;
    }

    @Override
    public void start(AgentContext context) {
      AgentGuard guard = new AgentGuard(context.uri(), context.nodeId(), context.ownershipEpoch());
      consumer = QueueConsumer.exclusive(store, spec, guard);
      consumer.start();
    }

    @Override
    public void stop(AgentContext context) {
      QueueConsumer running = consumer;
      if (running != null) {
        // Four fifths of the stop deadline for the handler, the rest for writing its outcome.
        Duration share = context.deadline().multipliedBy(4).dividedBy(5);
        running.close(share.compareTo(drainDeadline) < 0 ? share : drainDeadline);
      }
    }
  }
}
