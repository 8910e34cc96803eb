package io.tenure.tck;

import io.tenure.Stores;
import io.tenure.inmemory.InMemoryDatabase;
import io.tenure.inmemory.InMemoryStore;
import io.tenure.spi.Store;
import io.tenure.spi.StoreSettings;
import io.tenure.spi.TablePrefix;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/** The in-memory provider's fixture: one fresh in-memory database per fixture. */
final class InMemoryFixture implements StoreFixture {
  private final InMemoryDatabase database = InMemoryDatabase.fresh();
  private final AtomicInteger prefixes = new AtomicInteger();
  private final List<Store> opened = new CopyOnWriteArrayList<>();

  @Override
  public String provider() {
    return "memory";
  }

  @Override
  public TablePrefix freshPrefix() {
    return TablePrefix.of("t" + prefixes.incrementAndGet() + "_");
  }

  @Override
  public Store open(TablePrefix prefix) {
    return track(InMemoryStore.builder().database(database).prefix(prefix).build());
  }

  @Override
  public Supplier<Store> emptyDatabase() {
    InMemoryDatabase empty = InMemoryDatabase.fresh();
    return () -> track(InMemoryStore.builder().database(empty).build());
  }

  @Override
  public Store openWithoutMigration(TablePrefix prefix) {
    return track(InMemoryStore.builder().database(database).prefix(prefix).migrate(false).build());
  }

  @Override
  public Store openRequiringSchema(TablePrefix prefix) {
    return track(
        InMemoryStore.builder()
            .database(database)
            .prefix(prefix)
            .migrate(false)
            .requireSchema(true)
            .build());
  }

  @Override
  public Store openWithSessionTimeZone(TablePrefix prefix, ZoneId sessionZone) {
    return open(prefix);
  }

  @Override
  public void dropTables(TablePrefix prefix) {
    database.dropTables(prefix);
  }

  @Override
  public void deleteAgentRows(TablePrefix prefix, java.util.Collection<io.tenure.AgentUri> uris) {
    database.deleteAgentRows(prefix, uris);
  }

  @Override
  public void openUnsupportedDatabase() {
    track(Stores.open(new StoreSettings("oracle:thin:@db:1521/x", TablePrefix.DEFAULT, true)));
  }

  private Store track(Store store) {
    opened.add(store);
    return store;
  }

  @Override
  public void closeStores() {
    opened.forEach(Store::close);
    opened.clear();
  }

  @Override
  public void close() {
    closeStores();
  }
}
