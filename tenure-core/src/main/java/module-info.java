/**
 * Tenure core: the public API ({@code io.tenure}), the storage SPI ({@code io.tenure.spi}) and the
 * in-memory store ({@code io.tenure.inmemory}). Runtime internals are not exported.
 */
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

  uses io.tenure.spi.StoreProvider;

  provides io.tenure.spi.StoreProvider with
      io.tenure.inmemory.InMemoryStoreProvider;
}
