package io.tenure.spring;

import io.tenure.AgentFamily;
import io.tenure.Queue;
import io.tenure.Schedule;
import io.tenure.Tenure;
import io.tenure.TenureNode;
import io.tenure.TenureNodeBuilder;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.PropertyResolver;

/**
 * Runs the application's Tenure node with the context: builds it once every singleton exists (with
 * the properties, the {@link AgentFamily} beans, the {@link TenureHandler} and {@link
 * TenureSchedule} methods and the {@link TenureNodeCustomizer}s), declares the schedules and starts
 * it, in a late phase ({@link #PHASE}: after the web server started); on shutdown it closes the
 * node, which leaves the cluster gracefully, before any bean is destroyed, so before the {@code
 * DataSource} closes.
 *
 * <p>The settings are checked when this bean is created, by building a node that is never started:
 * a bad combination of properties stops the context before anything runs.
 */
public final class TenureNodeLifecycle implements SmartLifecycle {
  /**
   * After the web server starts ({@code DEFAULT_PHASE - 2048}) and before its graceful shutdown
   * ({@code DEFAULT_PHASE - 1024}) on the way down: the node leaves while requests in flight can
   * still enqueue.
   */
  public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 512;

  private static final Logger LOG = LoggerFactory.getLogger(TenureNodeLifecycle.class);

  private final Tenure tenure;
  private final TenureQueues queues;
  private final TenureProperties properties;
  private final String name;
  private final AnnotatedMethods methods;
  private final PropertyResolver resolver;
  private final ObjectProvider<AgentFamily> families;
  private final ObjectProvider<Queue> queueBeans;
  private final ObjectProvider<TenureNodeCustomizer> customizers;
  private final ObjectProvider<AdminEndpoint> admin;
  private volatile @Nullable TenureNode node;

  TenureNodeLifecycle(
      Tenure tenure,
      TenureQueues queues,
      TenureProperties properties,
      PropertyResolver resolver,
      AnnotatedMethods methods,
      ObjectProvider<AgentFamily> families,
      ObjectProvider<Queue> queueBeans,
      ObjectProvider<TenureNodeCustomizer> customizers,
      ObjectProvider<AdminEndpoint> admin) {
    this.tenure = tenure;
    this.queues = queues;
    this.properties = properties;
    this.resolver = resolver;
    this.methods = methods;
    this.families = families;
    this.queueBeans = queueBeans;
    this.customizers = customizers;
    this.admin = admin;
    this.name = nodeName(properties, resolver);
    // Never started: only the builder's checks run, so bad settings stop the context here.
    NodeConfigurer.build(
        NodeConfigurer.configure(
            tenure.node(), properties, name, properties.getNode().getAddress()));
  }

  /**
   * The node's settings checked before Tenure opens its store (so a bad value creates no table):
   * the builder's checks on a store of nothing. What depends on the store itself (its statement
   * timeout, against {@code tenure.node.fence-after}) is checked again when this bean is created.
   */
  static void checkBeforeOpening(TenureProperties properties, PropertyResolver resolver) {
    try (io.tenure.inmemory.InMemoryStore nothing = io.tenure.inmemory.InMemoryStore.create()) {
      NodeConfigurer.build(
              NodeConfigurer.configure(
                  io.tenure.TenureNode.builder(nothing),
                  properties,
                  nodeName(properties, resolver),
                  properties.getNode().getAddress()))
          .close();
    }
  }

  private static String nodeName(TenureProperties properties, PropertyResolver resolver) {
    String given = properties.getNode().getName();
    if (given != null) {
      return given;
    }
    String application = resolver.getProperty("spring.application.name");
    if (application == null || application.isBlank()) {
      return "node";
    }
    if (!application.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,127}")) {
      throw new IllegalArgumentException(
          "tenure.node.name defaults to spring.application.name, '"
              + application
              + "', which is not a node name (1 to 128 of [A-Za-z0-9._-] starting with a letter"
              + " or digit); set tenure.node.name");
    }
    return application;
  }

  /**
   * @return the node while it runs: leader or not, its consumers' numbers, agent actions
   */
  public Optional<TenureNode> node() {
    return Optional.ofNullable(node);
  }

  /**
   * @return the node's name: {@code tenure.node.name}, else {@code spring.application.name}, else
   *     {@code node}
   */
  public String nodeName() {
    return name;
  }

  @Override
  public synchronized void start() {
    if (node != null) {
      return;
    }
    queueBeans.orderedStream().forEach(queues::adopt);
    HandlerPlan plan = HandlerPlan.of(methods.all(), resolver, properties);
    if (!properties.getNode().isEnabled()) {
      if (!plan.consumers().isEmpty()) {
        LOG.warn(
            "tenure.node.enabled=false: no node runs here, so {} handler method(s) and {}"
                + " schedule(s) are not run by this application",
            plan.consumers().size(),
            plan.schedules().size());
      }
      return;
    }
    TenureNode built = build(plan);
    try {
      for (Schedule schedule : plan.schedules()) {
        tenure.schedules().declare(schedule);
      }
      admin.ifAvailable(endpoint -> endpoint.attach(built));
      built.start();
    } catch (RuntimeException e) {
      built.close();
      throw e;
    }
    node = built;
    LOG.info(
        "Tenure node {} ({}) started on {}: {} queue consumer(s), {} schedule(s)",
        name,
        built.nodeId(),
        tenure,
        plan.consumers().size(),
        plan.schedules().size());
  }

  private TenureNode build(HandlerPlan plan) {
    String address = properties.getNode().getAddress();
    AdminEndpoint endpoint = admin.getIfAvailable();
    if (address.isEmpty() && endpoint != null) {
      address = endpoint.advertisedUrl();
    }
    TenureNodeBuilder builder = NodeConfigurer.configure(tenure.node(), properties, name, address);
    families.orderedStream().forEach(builder::agentFamily);
    List<HandlerPlan.Consumer> consumers = plan.consumers();
    for (HandlerPlan.Consumer consumer : consumers) {
      Queue queue = queues.queue(consumer.queue());
      if (consumer.exclusive()) {
        builder.exclusiveConsumer(queue, consumer.handler());
      } else {
        builder.consumer(queue, consumer.concurrency(), consumer.handler());
      }
    }
    customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
    return NodeConfigurer.build(builder);
  }

  /** Closes the node: it leaves the cluster, handing its agents on and finishing its messages. */
  @Override
  public synchronized void stop() {
    TenureNode running = node;
    if (running != null) {
      node = null;
      running.close();
      LOG.info("Tenure node {} left the cluster", name);
    }
  }

  @Override
  public boolean isRunning() {
    return node != null;
  }

  @Override
  public int getPhase() {
    return PHASE;
  }
}
