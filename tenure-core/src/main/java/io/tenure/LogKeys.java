package io.tenure;

/**
 * The SLF4J MDC keys Tenure sets in its threads and around every handler and agent call (SPEC
 * §13.4), so an application's log lines say which node, agent, queue and message they were written
 * for: with Logback, {@code %X{tenure.node} %X{tenure.queue} %X{tenure.messageId}} in the pattern.
 * A key is absent where it does not apply (no message id on a node's heartbeat thread).
 */
public final class LogKeys {
  /** The node's name, in every thread a node runs. */
  public static final String NODE = "tenure.node";

  /** The node's id (new at every start), in every thread a node runs. */
  public static final String NODE_ID = "tenure.nodeId";

  /**
   * The epoch the work runs under: the leader's epoch on the leader's thread while it leads, the
   * agent's ownership epoch in an agent's calls and in an exclusive queue's consumer.
   */
  public static final String EPOCH = "tenure.epoch";

  /** The agent's URI, in its start and stop calls and in an exclusive queue's consumer. */
  public static final String AGENT = "tenure.agent";

  /** The queue's name, in its consumer's threads and handlers. */
  public static final String QUEUE = "tenure.queue";

  /** The message's id in its handler; a batch handler gets the ids joined by commas. */
  public static final String MESSAGE_ID = "tenure.messageId";

  private LogKeys() {}
}
