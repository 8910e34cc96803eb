package io.tenure;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.inmemory.InMemoryStore;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/**
 * SPEC §13.4: an application's log lines written in a handler or an agent's call carry the node,
 * the queue and message, the agent and its epoch, in the MDC keys of {@link LogKeys}; the keys do
 * not leak into the caller's thread.
 */
class LogKeysTest {
  private static final Duration BOUND = Duration.ofSeconds(20);

  @Test
  void handlers_and_agent_calls_see_the_node_queue_message_agent_and_epoch() throws Exception {
    InMemoryStore store = InMemoryStore.create();
    Queue emails = Queue.on(store.queues(), "emails", QueuePolicy.defaults());
    Queue ledger = Queue.on(store.queues(), "ledger", QueuePolicy.defaults());
    CompletableFuture<Map<String, String>> inHandler = new CompletableFuture<>();
    CompletableFuture<Map<String, String>> inExclusive = new CompletableFuture<>();
    CompletableFuture<Map<String, String>> inAgentStart = new CompletableFuture<>();
    AgentUri projection = new AgentUri("projection", "orders");
    AgentFamily family =
        AgentFamily.of(
            "projection",
            Set.of(projection),
            uri ->
                new Agent() {
                  @Override
                  public void start(AgentContext context) {
                    inAgentStart.complete(copy());
                  }

                  @Override
                  public void stop(AgentContext context) {}
                });

    MDC.put("caller", "kept");
    try (TenureNode node =
        TenureNode.builder(store)
            .name("mdc-node")
            .agentFamily(family)
            .agentSweepInterval(Duration.ofMillis(50))
            .initialPlacementDelay(Duration.ZERO, Duration.ZERO)
            .consumer(emails, 1, d -> inHandler.complete(copy()))
            .exclusiveConsumer(ledger, d -> inExclusive.complete(copy()))
            .build()) {
      node.start();
      long email = emails.enqueue(OutgoingMessage.text("hello"));
      long entry = ledger.enqueue(OutgoingMessage.text("credit"));

      Map<String, String> handler = inHandler.get(BOUND.toSeconds(), TimeUnit.SECONDS);
      assertThat(handler)
          .containsEntry(LogKeys.NODE, "mdc-node")
          .containsEntry(LogKeys.NODE_ID, node.nodeId())
          .containsEntry(LogKeys.QUEUE, "emails")
          .containsEntry(LogKeys.MESSAGE_ID, Long.toString(email))
          .doesNotContainKeys(LogKeys.AGENT, "caller");

      Map<String, String> exclusive = inExclusive.get(BOUND.toSeconds(), TimeUnit.SECONDS);
      assertThat(exclusive)
          .containsEntry(LogKeys.NODE, "mdc-node")
          .containsEntry(LogKeys.QUEUE, "ledger")
          .containsEntry(LogKeys.MESSAGE_ID, Long.toString(entry))
          .containsEntry(LogKeys.AGENT, "queue://ledger")
          .containsKey(LogKeys.EPOCH);

      Map<String, String> agent = inAgentStart.get(BOUND.toSeconds(), TimeUnit.SECONDS);
      assertThat(agent)
          .containsEntry(LogKeys.NODE, "mdc-node")
          .containsEntry(LogKeys.NODE_ID, node.nodeId())
          .containsEntry(LogKeys.AGENT, projection.toString())
          .containsKey(LogKeys.EPOCH)
          .doesNotContainKeys(LogKeys.QUEUE, LogKeys.MESSAGE_ID);
      assertThat(Long.parseLong(agent.get(LogKeys.EPOCH))).isPositive();
    } finally {
      assertThat(MDC.get("caller"))
          .as("the caller's own context is left as it was")
          .isEqualTo("kept");
      assertThat(MDC.get(LogKeys.NODE)).as("no key leaks into the caller's thread").isNull();
      MDC.remove("caller");
    }
  }

  private static Map<String, String> copy() {
    Map<String, String> context = MDC.getCopyOfContextMap();
    return context == null ? Map.of() : new HashMap<>(context);
  }
}
