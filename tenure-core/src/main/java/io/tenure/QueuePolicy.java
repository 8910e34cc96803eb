package io.tenure;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;

/**
 * How one queue treats its messages (SPEC §6): attempts, retry backoff, lease, retention and the
 * payload limit. Immutable; {@link #defaults()} then {@code with...} to change a field. Every
 * {@code with...} checks its argument and names it when it refuses. Backoffs and the lease are at
 * most {@link Limits#MAX_DURATION}, retentions at most {@link Limits#MAX_RETENTION}.
 *
 * @param maxAttempts claims a message gets before it becomes a dead letter (at least 1)
 * @param backoffBase the first retry's delay
 * @param backoffFactor each further retry's delay is the previous one times this (at least 1)
 * @param backoffCap no retry waits longer than this
 * @param jitter each delay is moved at random by up to this fraction of itself (0 to 1)
 * @param lease how long a claim holds before the reclaim sweep may take the message back; a running
 *     handler's lease is extended while it runs
 * @param retainDone how long done messages are kept; zero deletes them at once
 * @param retainDead how long dead letters are kept before the retention sweep deletes them
 * @param payloadLimit largest payload in bytes an enqueue accepts
 * @param nonRetryable exception types (and their subtypes) that make a message a dead letter at
 *     once
 * @param timeout how long a handler may run on a message before the consumer stops waiting for it
 *     (SPEC §12.4), or null for no limit; a message's own timeout replaces it
 * @param onTimeout what becomes of a message whose handler ran past its timeout
 */
public record QueuePolicy(
    int maxAttempts,
    Duration backoffBase,
    double backoffFactor,
    Duration backoffCap,
    double jitter,
    Duration lease,
    Duration retainDone,
    Duration retainDead,
    int payloadLimit,
    Set<Class<? extends Throwable>> nonRetryable,
    @Nullable Duration timeout,
    OnTimeout onTimeout) {
  /** The default payload limit, 1 MiB. */
  public static final int DEFAULT_PAYLOAD_LIMIT = 1 << 20;

  /** The largest payload limit a policy may set, 64 MiB. */
  public static final int MAX_PAYLOAD_LIMIT = 64 << 20;

  /** Checks every field. */
  public QueuePolicy {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("max attempts must be at least 1, got " + maxAttempts);
    }
    Limits.checkPositive("backoff base", backoffBase, Limits.MAX_DURATION);
    if (!(backoffFactor >= 1.0) || Double.isInfinite(backoffFactor)) {
      throw new IllegalArgumentException("backoff factor must be at least 1, got " + backoffFactor);
    }
    Limits.checkPositive("backoff cap", backoffCap, Limits.MAX_DURATION);
    if (backoffCap.compareTo(backoffBase) < 0) {
      throw new IllegalArgumentException(
          "backoff cap must not be shorter than the backoff base, got cap "
              + backoffCap
              + " and base "
              + backoffBase);
    }
    if (!(jitter >= 0.0 && jitter <= 1.0)) {
      throw new IllegalArgumentException("jitter must be between 0 and 1, got " + jitter);
    }
    Limits.checkPositive("lease", lease, Limits.MAX_DURATION);
    if (lease.compareTo(Duration.ofMillis(100)) < 0) {
      throw new IllegalArgumentException("lease must be at least 100 ms, got " + lease);
    }
    Limits.checkNotNegative("done retention", retainDone, Limits.MAX_RETENTION);
    Limits.checkNotNegative("dead-letter retention", retainDead, Limits.MAX_RETENTION);
    if (payloadLimit < 1 || payloadLimit > MAX_PAYLOAD_LIMIT) {
      throw new IllegalArgumentException(
          "payload limit must be 1 to " + MAX_PAYLOAD_LIMIT + " bytes, got " + payloadLimit);
    }
    if (nonRetryable == null || nonRetryable.stream().anyMatch(java.util.Objects::isNull)) {
      throw new IllegalArgumentException(
          "non-retryable exception types must not be or contain null");
    }
    nonRetryable = Set.copyOf(nonRetryable);
    if (timeout != null) {
      Limits.checkPositive("timeout", timeout, Limits.MAX_DURATION);
    }
    if (onTimeout == null) {
      throw new IllegalArgumentException("what to do on a timeout must not be null");
    }
  }

  /**
   * @return 10 attempts, backoff 1 s doubling up to 10 min with 20 % jitter, lease 30 s, done
   *     messages deleted at once, dead letters kept 14 days, payloads up to 1 MiB, no timeout (a
   *     timeout, when set, retries)
   */
  public static QueuePolicy defaults() {
    return new QueuePolicy(
        10,
        Duration.ofSeconds(1),
        2.0,
        Duration.ofMinutes(10),
        0.2,
        Duration.ofSeconds(30),
        Duration.ZERO,
        Duration.ofDays(14),
        DEFAULT_PAYLOAD_LIMIT,
        Set.of(),
        null,
        OnTimeout.RETRY);
  }

  /**
   * @param attempts claims a message gets before it becomes a dead letter, at least 1
   * @return this policy with that many attempts
   * @throws IllegalArgumentException if below 1
   */
  public QueuePolicy withMaxAttempts(int attempts) {
    return edit(draft -> draft.maxAttempts = attempts);
  }

  /**
   * @param base the first retry's delay, positive
   * @param factor each further delay is the previous one times this, at least 1
   * @param cap the longest delay, at least {@code base}
   * @param jitterFraction the random spread of each delay, 0 to 1
   * @return this policy with that backoff
   * @throws IllegalArgumentException naming the value if one is out of range
   */
  public QueuePolicy withBackoff(
      Duration base, double factor, Duration cap, double jitterFraction) {
    return edit(
        draft -> {
          draft.backoffBase = base;
          draft.backoffFactor = factor;
          draft.backoffCap = cap;
          draft.jitter = jitterFraction;
        });
  }

  /**
   * @param claimLease how long a claim holds, at least 100 ms
   * @return this policy with that lease
   * @throws IllegalArgumentException if shorter than 100 ms or longer than {@link
   *     Limits#MAX_DURATION}
   */
  public QueuePolicy withLease(Duration claimLease) {
    return edit(draft -> draft.lease = claimLease);
  }

  /**
   * @param done how long done messages are kept, zero or more
   * @param dead how long dead letters are kept, zero or more
   * @return this policy with those retentions
   * @throws IllegalArgumentException if either is negative or longer than {@link
   *     Limits#MAX_RETENTION}
   */
  public QueuePolicy withRetention(Duration done, Duration dead) {
    return edit(
        draft -> {
          draft.retainDone = done;
          draft.retainDead = dead;
        });
  }

  /**
   * @param bytes the largest payload an enqueue accepts, 1 to {@link #MAX_PAYLOAD_LIMIT}
   * @return this policy with that limit
   * @throws IllegalArgumentException if out of range
   */
  public QueuePolicy withPayloadLimit(int bytes) {
    return edit(draft -> draft.payloadLimit = bytes);
  }

  /**
   * @param types exception types (and their subtypes) that dead-letter a message at once; they
   *     replace any set before
   * @return this policy with those types
   * @throws NullPointerException if {@code types} is or holds null
   */
  @SafeVarargs
  public final QueuePolicy withNonRetryable(Class<? extends Throwable>... types) {
    Set<Class<? extends Throwable>> replacing = Set.of(types);
    return edit(draft -> draft.nonRetryable = replacing);
  }

  /**
   * @param limit how long a handler may run on one message before the consumer stops waiting:
   *     positive, at most {@link Limits#MAX_DURATION}; a message's own timeout replaces it
   * @param then what becomes of the message: retried as a failed attempt, or a dead letter
   * @return this policy with that timeout
   * @throws IllegalArgumentException if the limit is not positive or too long, or {@code then} is
   *     null
   */
  public QueuePolicy withTimeout(Duration limit, OnTimeout then) {
    if (limit == null) {
      throw new IllegalArgumentException("timeout must not be null; withoutTimeout() for none");
    }
    return edit(
        draft -> {
          draft.timeout = limit;
          draft.onTimeout = then;
        });
  }

  /**
   * @return this policy without a queue timeout (a message's own timeout still applies)
   */
  public QueuePolicy withoutTimeout() {
    return edit(draft -> draft.timeout = null);
  }

  /** Copies this policy, lets {@code change} set what it changes, and checks the result. */
  private QueuePolicy edit(java.util.function.Consumer<Draft> change) {
    Draft draft = new Draft(this);
    change.accept(draft);
    return draft.policy();
  }

  /** A policy's fields while one {@code with...} changes some of them. */
  private static final class Draft {
    int maxAttempts;
    Duration backoffBase;
    double backoffFactor;
    Duration backoffCap;
    double jitter;
    Duration lease;
    Duration retainDone;
    Duration retainDead;
    int payloadLimit;
    Set<Class<? extends Throwable>> nonRetryable;
    @Nullable Duration timeout;
    OnTimeout onTimeout;

    Draft(QueuePolicy from) {
      maxAttempts = from.maxAttempts;
      backoffBase = from.backoffBase;
      backoffFactor = from.backoffFactor;
      backoffCap = from.backoffCap;
      jitter = from.jitter;
      lease = from.lease;
      retainDone = from.retainDone;
      retainDead = from.retainDead;
      payloadLimit = from.payloadLimit;
      nonRetryable = from.nonRetryable;
      timeout = from.timeout;
      onTimeout = from.onTimeout;
    }

    QueuePolicy policy() {
      return new QueuePolicy(
          maxAttempts,
          backoffBase,
          backoffFactor,
          backoffCap,
          jitter,
          lease,
          retainDone,
          retainDead,
          payloadLimit,
          nonRetryable,
          timeout,
          onTimeout);
    }
  }

  /**
   * The delay before the retry that follows {@code attempt} failed claims: {@code base *
   * factor^(attempt-1)}, capped, then moved by up to {@code jitter} of itself, never above the cap.
   *
   * @param attempt the attempt that failed, 1 for the first
   */
  public Duration retryDelay(int attempt) {
    return RetrySchedule.delay(
        backoffBase,
        backoffFactor,
        backoffCap,
        jitter,
        attempt,
        ThreadLocalRandom.current().nextDouble());
  }

  /**
   * @return true if {@code failure} is of a non-retryable type
   */
  public boolean isNonRetryable(Throwable failure) {
    return nonRetryable.stream().anyMatch(type -> type.isInstance(failure));
  }
}
