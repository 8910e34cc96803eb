package io.tenure.cli;

import io.tenure.inmemory.InMemoryStore;
import io.tenure.spi.AgentStore;
import io.tenure.spi.EventStore;
import io.tenure.spi.LeaseStore;
import io.tenure.spi.MarkerStore;
import io.tenure.spi.MembershipStore;
import io.tenure.spi.QueueStore;
import io.tenure.spi.Store;
import io.tenure.spi.StoreDescription;
import java.time.Duration;
import java.time.Instant;

/**
 * A throw-away in-memory store that {@code tenure node} builds its node on first, so every setting
 * (and every rule between settings) is checked before the real store is opened: opening migrates,
 * and bad input must leave no file or table behind. It reports the statement timeout of the stores
 * the launcher opens, which the node's lease rules depend on.
 */
final class SettingsCheckStore implements Store {
  /**
   * The statement timeout of every store {@link StoreOptions} opens (the JDBC stores' default);
   * {@code NodeSettingsTest} checks it against a real one.
   */
  static final Duration STATEMENT_TIMEOUT = Duration.ofSeconds(1);

  private final InMemoryStore memory = InMemoryStore.create();

  @Override
  public StoreDescription describe() {
    StoreDescription own = memory.describe();
    return new StoreDescription(
        own.provider(),
        own.database(),
        own.location(),
        own.prefix(),
        own.schemaVersion(),
        own.timePrecision(),
        STATEMENT_TIMEOUT);
  }

  @Override
  public Instant now() {
    return memory.now();
  }

  @Override
  public MarkerStore markers() {
    return memory.markers();
  }

  @Override
  public MembershipStore membership() {
    return memory.membership();
  }

  @Override
  public LeaseStore leases() {
    return memory.leases();
  }

  @Override
  public EventStore events() {
    return memory.events();
  }

  @Override
  public AgentStore agents() {
    return memory.agents();
  }

  @Override
  public QueueStore queues() {
    return memory.queues();
  }

  @Override
  public io.tenure.spi.LockStore locks() {
    return memory.locks();
  }

  @Override
  public io.tenure.spi.ScheduleStore schedules() {
    return memory.schedules();
  }

  @Override
  public void close() {
    memory.close();
  }
}
