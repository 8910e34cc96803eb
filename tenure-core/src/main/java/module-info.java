/**
 * Tenure core: the public API ({@code io.tenure}), the storage SPI ({@code io.tenure.spi}) and the
 * in-memory store ({@code io.tenure.inmemory}). Runtime internals are not exported.
 */
module io.tenure.core {
  requires static transitive org.jspecify;
  requires org.slf4j;

  exports io.tenure;
  exports io.tenure.spi;
  exports io.tenure.inmemory;

  uses io.tenure.spi.StoreProvider;

  provides io.tenure.spi.StoreProvider with
      io.tenure.inmemory.InMemoryStoreProvider;
}
