package io.tenure.bench;

import static io.tenure.bench.QueueBenchSupport.storeName;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tenure.bench.LockRuns.LockSystem;
import io.tenure.bench.LockRuns.Locker;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import net.javacrumbs.shedlock.provider.sql.DatabaseProduct;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The peer: ShedLock 7.6's JDBC provider ({@code JdbcTemplateLockProvider} on Spring's {@code
 * JdbcTemplate}), on the database's clock ({@code usingDbTime()}), as a Spring application
 * configures it: its own table, a HikariCP pool of the same size as Tenure's, the provider's
 * default transaction (a {@code DataSourceTransactionManager}, {@code REQUIRES_NEW}). PostgreSQL
 * only.
 */
final class ShedLockRuns {
  /** The table ShedLock's documentation gives, under a name of ours (the database is shared). */
  private static final String DDL =
      """
      CREATE TABLE %s (name VARCHAR(64) NOT NULL, lock_until TIMESTAMP NOT NULL,
        locked_at TIMESTAMP NOT NULL, locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))
      """;

  private ShedLockRuns() {}

  /**
   * A provider on a fresh table: {@code lock(new LockConfiguration(now, name, 30 s, 0))} then
   * {@code unlock()}, ShedLock's acquire and release.
   */
  static LockSystem open(String url) throws Exception {
    String table = "qb" + UUID.randomUUID().toString().substring(0, 6) + "_shedlock";
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(10);
    config.setPoolName("shedlock");
    HikariDataSource pool = new HikariDataSource(config);
    try (Connection c = pool.getConnection();
        Statement s = c.createStatement()) {
      s.execute(DDL.formatted(table));
    }
    LockProvider provider =
        new JdbcTemplateLockProvider(
            JdbcTemplateLockProvider.Configuration.builder()
                .withJdbcTemplate(new JdbcTemplate(pool))
                .withTableName(table)
                .withDatabaseProduct(DatabaseProduct.POSTGRES_SQL)
                .usingDbTime()
                .build());
    Locker shared =
        new Locker() {
          @Override
          public Object tryAcquire(String name) {
            return provider
                .lock(new LockConfiguration(Instant.now(), name, LockRuns.TTL, Duration.ZERO))
                .orElse(null);
          }

          @Override
          public void release(Object held) {
            ((SimpleLock) held).unlock();
          }
        };
    return new LockSystem(
        "ShedLock",
        storeName(url),
        () -> shared,
        () -> {
          try (Connection c = pool.getConnection();
              Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + table);
          } finally {
            pool.close();
          }
        });
  }
}
