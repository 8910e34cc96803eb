package io.tenure.spring;

import java.nio.file.Path;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.sqlite.SQLiteDataSource;

/** The context runners the starter's tests share: every auto-configuration of the starter. */
final class Runners {
  private Runners() {}

  /**
   * @return a runner with the starter's auto-configurations and nothing else
   */
  static ApplicationContextRunner bare() {
    return new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                TenureAutoConfiguration.class,
                TenureHealthAutoConfiguration.class,
                TenureMetricsAutoConfiguration.class,
                TenureAdminAutoConfiguration.class));
  }

  /**
   * @return a runner on an in-memory store of its own (a fresh name)
   */
  static ApplicationContextRunner inMemory() {
    return bare().withPropertyValues("tenure.store=" + freshMemoryUrl());
  }

  static String freshMemoryUrl() {
    return "memory:" + UUID.randomUUID();
  }

  /**
   * @return a SQLite data source on a new file in {@code directory}
   */
  static DataSource sqlite(Path directory) {
    SQLiteDataSource source = new SQLiteDataSource();
    source.setUrl("jdbc:sqlite:" + directory.resolve("app-" + UUID.randomUUID() + ".db"));
    return source;
  }
}
