package io.tenure.spi;

import java.time.Instant;

/**
 * A connection to one Tenure namespace (one table prefix in one database). Thread-safe.
 *
 * <p>A store MUST have its schema in place when it is returned (or throw), MUST use the database
 * clock for every expiry comparison inside its statements, and MUST make every time it stores
 * round-trip unchanged (to its documented precision) whatever the JVM or session time zone.
 */
public interface Store extends AutoCloseable {
  /**
   * @return what this store is connected to; MUST NOT fail once the store is open
   */
  StoreDescription describe();

  /**
   * @return the database clock now, to the store's precision
   * @throws io.tenure.StoreUnavailableException if the database cannot be reached or the store is
   *     closed
   */
  Instant now();

  /**
   * @return the markers area of this store; the same instance every call
   */
  MarkerStore markers();

  /**
   * @return the membership area; the same instance every call
   */
  MembershipStore membership();

  /**
   * @return the leader lease; the same instance every call
   */
  LeaseStore leases();

  /**
   * @return the cluster history; the same instance every call
   */
  EventStore events();

  /**
   * @return the agent assignments; the same instance every call
   */
  AgentStore agents();

  /**
   * @return the queue messages; the same instance every call
   */
  QueueStore queues();

  /**
   * @return the named locks; the same instance every call
   */
  LockStore locks();

  /**
   * @return the schedules; the same instance every call
   */
  ScheduleStore schedules();

  /**
   * Releases connections. Idempotent. After close, every operation MUST throw {@link
   * io.tenure.StoreUnavailableException}.
   */
  @Override
  void close();
}
