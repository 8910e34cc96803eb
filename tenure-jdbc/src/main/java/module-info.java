/**
 * Tenure's JDBC store: SQLite, PostgreSQL and MariaDB/MySQL behind one dialect interface. Only
 * {@code io.tenure.jdbc} is exported; dialects live in an internal package.
 */
module io.tenure.jdbc {
  requires transitive io.tenure.core;
  requires transitive java.sql;
  requires static org.jspecify;
  requires org.slf4j;
  requires com.zaxxer.hikari;

  exports io.tenure.jdbc;

  provides io.tenure.spi.StoreProvider with
      io.tenure.jdbc.JdbcStoreProvider;
}
