package io.tenure.spring;

import io.tenure.OnTimeout;
import io.tenure.QueuePolicy;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.util.unit.DataSize;

/**
 * The {@code tenure.queues.NAME.*} properties: one queue's {@link QueuePolicy} and the concurrency
 * of its handler. What is not set keeps {@link QueuePolicy#defaults()}. The policy is checked as a
 * whole when {@link TenureQueues} is created, and a refusal names the queue's properties.
 */
public class TenureQueueProperties {
  /** Claims a message gets before it becomes a dead letter, at least 1 (default 10). */
  private @Nullable Integer maxAttempts;

  /** The first retry's delay (default 1s). */
  private @Nullable Duration backoffBase;

  /** Each further retry waits this many times the one before, at least 1 (default 2). */
  private @Nullable Double backoffFactor;

  /** The longest retry delay, at least backoff-base (default 10m). */
  private @Nullable Duration backoffCap;

  /** The random spread of each retry delay, 0 to 1 (default 0.2). */
  private @Nullable Double jitter;

  /** How long a claim holds without an extension, at least 100ms (default 30s). */
  private @Nullable Duration lease;

  /** How long done messages are kept (default 0: deleted at once). */
  private @Nullable Duration retainDone;

  /** How long dead letters are kept (default 14d). */
  private @Nullable Duration retainDead;

  /** The largest payload an enqueue accepts, at most 64MB (default 1MB). */
  private @Nullable DataSize payloadLimit;

  /** How long a handler may run on one message before the consumer stops waiting (default none). */
  private @Nullable Duration timeout;

  /** What becomes of a message whose handler ran past the timeout (default RETRY). */
  private @Nullable OnTimeout onTimeout;

  /**
   * Handlers of this queue that run at once on this node, 1 to 1000, unless the handler method sets
   * its own (default tenure.consumer.concurrency).
   */
  private @Nullable Integer concurrency;

  /**
   * @param queue the queue's name, for the message
   * @return the default policy with what is set here
   * @throws IllegalArgumentException naming the queue's properties if the policy is invalid
   */
  QueuePolicy policy(String queue) {
    QueuePolicy policy = QueuePolicy.defaults();
    try {
      if (maxAttempts != null) {
        policy = policy.withMaxAttempts(maxAttempts);
      }
      policy =
          policy.withBackoff(
              backoffBase != null ? backoffBase : policy.backoffBase(),
              backoffFactor != null ? backoffFactor : policy.backoffFactor(),
              backoffCap != null ? backoffCap : policy.backoffCap(),
              jitter != null ? jitter : policy.jitter());
      if (lease != null) {
        policy = policy.withLease(lease);
      }
      policy =
          policy.withRetention(
              retainDone != null ? retainDone : policy.retainDone(),
              retainDead != null ? retainDead : policy.retainDead());
      if (payloadLimit != null) {
        policy = policy.withPayloadLimit((int) Math.min(Integer.MAX_VALUE, payloadLimit.toBytes()));
      }
      if (timeout != null) {
        policy = policy.withTimeout(timeout, onTimeout != null ? onTimeout : OnTimeout.RETRY);
      } else if (onTimeout != null) {
        throw new IllegalArgumentException("on-timeout needs a timeout");
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "tenure.queues." + queue + ": " + e.getMessage() + "; nothing was opened");
    }
    return policy;
  }

  public @Nullable Integer getMaxAttempts() {
    return maxAttempts;
  }

  public void setMaxAttempts(@Nullable Integer maxAttempts) {
    this.maxAttempts = maxAttempts;
  }

  public @Nullable Duration getBackoffBase() {
    return backoffBase;
  }

  public void setBackoffBase(@Nullable Duration backoffBase) {
    this.backoffBase = backoffBase;
  }

  public @Nullable Double getBackoffFactor() {
    return backoffFactor;
  }

  public void setBackoffFactor(@Nullable Double backoffFactor) {
    this.backoffFactor = backoffFactor;
  }

  public @Nullable Duration getBackoffCap() {
    return backoffCap;
  }

  public void setBackoffCap(@Nullable Duration backoffCap) {
    this.backoffCap = backoffCap;
  }

  public @Nullable Double getJitter() {
    return jitter;
  }

  public void setJitter(@Nullable Double jitter) {
    this.jitter = jitter;
  }

  public @Nullable Duration getLease() {
    return lease;
  }

  public void setLease(@Nullable Duration lease) {
    this.lease = lease;
  }

  public @Nullable Duration getRetainDone() {
    return retainDone;
  }

  public void setRetainDone(@Nullable Duration retainDone) {
    this.retainDone = retainDone;
  }

  public @Nullable Duration getRetainDead() {
    return retainDead;
  }

  public void setRetainDead(@Nullable Duration retainDead) {
    this.retainDead = retainDead;
  }

  public @Nullable DataSize getPayloadLimit() {
    return payloadLimit;
  }

  public void setPayloadLimit(@Nullable DataSize payloadLimit) {
    this.payloadLimit = payloadLimit;
  }

  public @Nullable Duration getTimeout() {
    return timeout;
  }

  public void setTimeout(@Nullable Duration timeout) {
    this.timeout = timeout;
  }

  public @Nullable OnTimeout getOnTimeout() {
    return onTimeout;
  }

  public void setOnTimeout(@Nullable OnTimeout onTimeout) {
    this.onTimeout = onTimeout;
  }

  public @Nullable Integer getConcurrency() {
    return concurrency;
  }

  public void setConcurrency(@Nullable Integer concurrency) {
    this.concurrency =
        concurrency == null
            ? null
            : PropertyChecks.between(
                "tenure.queues.NAME.concurrency",
                concurrency,
                1,
                TenureConsumerProperties.MAX_CONCURRENCY);
  }
}
