package io.tenure.spring;

import io.tenure.TenureNode;
import io.tenure.TenureNodeBuilder;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Applies the {@code tenure.node.*} and {@code tenure.consumer.*} properties to a node builder, and
 * words the builder's refusals in the properties' names: the builder says {@code leaseTtl}, the
 * user wrote {@code tenure.node.lease-ttl}.
 */
final class NodeConfigurer {
  /** The builder's names for its settings, longest first, and the property each one is. */
  private static final Map<String, String> TERMS = new LinkedHashMap<>();

  static {
    TERMS.put("initialPlacementDelay quiet", "tenure.node.initial-placement-quiet");
    TERMS.put("initialPlacementDelay max", "tenure.node.initial-placement-max-delay");
    TERMS.put("agent start timeout", "tenure.node.agent-start-timeout");
    TERMS.put("agent stop timeout", "tenure.node.agent-stop-timeout");
    TERMS.put("reclaims per tick", "tenure.consumer.reclaim-per-tick");
    TERMS.put("reclaim interval", "tenure.consumer.reclaim-interval");
    TERMS.put("drain deadline", "tenure.consumer.drain-deadline");
    TERMS.put("events to keep", "tenure.node.events-to-keep");
    TERMS.put("event max age", "tenure.node.event-max-age");
    TERMS.put("node name", "tenure.node.name");
    TERMS.put("node address", "tenure.node.address");
    TERMS.put("capability", "each of tenure.node.capabilities");
    TERMS.put("statementTimeout", "the store's statement timeout");
    for (String camel :
        new String[] {
          "heartbeatInterval",
          "selfFenceAfter",
          "staleAfter",
          "leaseTtl",
          "renewInterval",
          "fenceAfter",
          "acquireDelay",
          "defunctAfter",
          "agentSweepInterval"
        }) {
      TERMS.put(
          camel,
          "tenure.node." + camel.replaceAll("([A-Z])", "-$1").toLowerCase(java.util.Locale.ROOT));
    }
  }

  private NodeConfigurer() {}

  /**
   * @param name the node's name (the property, or its default)
   * @param address the node's address (the property, or the admin server's URL)
   * @return {@code builder} with every node and consumer property set
   * @throws IllegalArgumentException naming the property if the builder refuses one
   */
  static TenureNodeBuilder configure(
      TenureNodeBuilder builder, TenureProperties properties, String name, String address) {
    TenureNodeProperties node = properties.getNode();
    TenureConsumerProperties consumer = properties.getConsumer();
    return inPropertyTerms(
        () -> {
          builder.name(name).address(address).promotable(node.isPromotable());
          node.getCapabilities().forEach(builder::capability);
          builder
              .acquireDelay(node.getAcquireDelay())
              .heartbeatInterval(node.getHeartbeatInterval())
              .selfFenceAfter(node.getSelfFenceAfter())
              .staleAfter(node.getStaleAfter())
              .leaseTtl(node.getLeaseTtl())
              .renewInterval(node.getRenewInterval())
              .fenceAfter(node.getFenceAfter())
              .defunctAfter(node.getDefunctAfter())
              .cleanup(node.getCleanupBatchSize(), node.getCleanupMaxPerTick())
              .eventRetention(node.getEventsToKeep(), node.getEventMaxAge())
              .agentSweepInterval(node.getAgentSweepInterval())
              .agentCaps(node.getMaxMovesPerPass(), node.getMaxReconciliationsPerTick())
              .agentTimeouts(node.getAgentStartTimeout(), node.getAgentStopTimeout())
              .initialPlacementDelay(
                  node.getInitialPlacementQuiet(), node.getInitialPlacementMaxDelay())
              .queueReclaim(consumer.getReclaimInterval(), consumer.getReclaimPerTick())
              .drainDeadline(consumer.getDrainDeadline())
              .queuePolling(consumer.getPollMin(), consumer.getPollMax())
              .wakeups(consumer.isWakeups(), consumer.getWakeHost());
          return builder;
        });
  }

  /**
   * Builds the node, wording a refusal of the rules between settings in the properties' names.
   *
   * @throws IllegalArgumentException naming the properties if the settings do not go together
   */
  static TenureNode build(TenureNodeBuilder builder) {
    return inPropertyTerms(builder::build);
  }

  private static <T> T inPropertyTerms(Supplier<T> action) {
    try {
      return action.get();
    } catch (IllegalArgumentException e) {
      // No cause: Spring Boot reports the root cause, and this one names the properties.
      throw new IllegalArgumentException(
          "invalid Tenure node settings: " + inPropertyTerms(e.getMessage()));
    }
  }

  /**
   * @return {@code message} with each of the builder's setting names replaced by its property
   */
  static String inPropertyTerms(String message) {
    String out = message == null ? "" : message;
    for (Map.Entry<String, String> term : TERMS.entrySet()) {
      Matcher matcher =
          Pattern.compile("(?<![A-Za-z.-])" + Pattern.quote(term.getKey()) + "(?![A-Za-z-])")
              .matcher(out);
      out = matcher.replaceAll(Matcher.quoteReplacement(term.getValue()));
    }
    return out;
  }
}
