/**
 * Tenure core: the public API ({@code io.tenure}), the storage SPI ({@code io.tenure.spi}) and the
 * in-memory store ({@code io.tenure.inmemory}). Runtime internals are not exported, but for the one
 * package the user test kit (tenure-test) reaches the runtime's rules through.
 */
@SuppressWarnings("module") // io.tenure.test is built after this module: javac cannot see it here
module io.tenure.core {
  requires static transitive org.jspecify;
  requires org.slf4j;
  // Schedules parse cron expressions and find their matching wall-clock times with cron-utils.
  requires com.cronutils;
  // The queue SPI takes a caller's JDBC connection for the transactional outbox (SPEC §6.1).
  requires transitive java.sql;

  exports io.tenure;
  exports io.tenure.spi;
  exports io.tenure.inmemory;
  // Its synchronous drain and schedule firing apply OutcomeRule and ScheduleFirer, not copies.
  exports io.tenure.internal.testing to
      io.tenure.test;

  uses io.tenure.spi.StoreProvider;

  provides io.tenure.spi.StoreProvider with
      io.tenure.inmemory.InMemoryStoreProvider;
}
