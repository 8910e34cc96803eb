package io.tenure.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.tenure.OutgoingMessage;
import io.tenure.QueueStats;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;

/**
 * On PostgreSQL: an enqueue inside a {@code @Transactional} method joins the method's transaction,
 * so the message and the application's own row are committed, or rolled back, together.
 */
class TransactionalEnqueueTest {
  private static final String PREFIX = Postgres.freshPrefix();

  @BeforeAll
  static void server() {
    Postgres.requireReachable();
  }

  @AfterAll
  static void dropTables() throws Exception {
    Postgres.dropTables(PREFIX);
  }

  /** The application's service: its row and its message in one transaction. */
  public static class Signups {
    private final JdbcTemplate jdbc;
    private final TenureQueues queues;

    public Signups(JdbcTemplate jdbc, TenureQueues queues) {
      this.jdbc = jdbc;
      this.queues = queues;
    }

    @Transactional
    public void signUp(String user, boolean thenFail) {
      jdbc.update("INSERT INTO " + PREFIX + "signups (name) VALUES (?)", user);
      queues.enqueue("welcome", OutgoingMessage.text("welcome " + user));
      if (thenFail) {
        throw new IllegalStateException("the sign-up of " + user + " failed after the enqueue");
      }
    }

    public void signUpWithoutTransaction(String user) {
      jdbc.update("INSERT INTO " + PREFIX + "signups (name) VALUES (?)", user);
      queues.enqueue("welcome", OutgoingMessage.text("welcome " + user));
    }

    public long rows(String user) {
      Long count =
          jdbc.queryForObject(
              "SELECT COUNT(*) FROM " + PREFIX + "signups WHERE name = ?", Long.class, user);
      return count == null ? 0 : count;
    }
  }

  @Configuration(proxyBeanMethods = false)
  @EnableTransactionManagement
  static class Application {
    @Bean(destroyMethod = "close")
    HikariDataSource dataSource() {
      HikariDataSource pool = Postgres.pool();
      new JdbcTemplate(pool)
          .execute("CREATE TABLE IF NOT EXISTS " + PREFIX + "signups (name TEXT NOT NULL)");
      return pool;
    }

    @Bean
    PlatformTransactionManager transactionManager(DataSource dataSource) {
      return new DataSourceTransactionManager(dataSource);
    }

    @Bean
    Signups signups(DataSource dataSource, TenureQueues queues, Environment environment) {
      return new Signups(new JdbcTemplate(dataSource), queues);
    }
  }

  private static ApplicationContextRunner runner() {
    // No node: the messages stay pending, where the test counts them.
    return Runners.bare()
        .withUserConfiguration(Application.class)
        .withPropertyValues("tenure.table-prefix=" + PREFIX, "tenure.node.enabled=false");
  }

  @Test
  void a_committed_transaction_commits_its_message_with_its_row() {
    runner()
        .run(
            context -> {
              long before = pending(context);
              context.getBean(Signups.class).signUp("ada", false);
              assertThat(context.getBean(Signups.class).rows("ada")).isEqualTo(1);
              assertThat(pending(context)).isEqualTo(before + 1);
            });
  }

  @Test
  void a_rolled_back_transaction_enqueues_nothing() {
    runner()
        .run(
            context -> {
              long before = pending(context);
              Signups signups = context.getBean(Signups.class);
              assertThatThrownBy(() -> signups.signUp("bob", true))
                  .hasMessageContaining("failed after the enqueue");
              assertThat(signups.rows("bob")).isZero();
              assertThat(pending(context)).isEqualTo(before);
            });
  }

  @Test
  void outside_a_transaction_the_enqueue_commits_on_its_own() {
    runner()
        .run(
            context -> {
              long before = pending(context);
              context.getBean(Signups.class).signUpWithoutTransaction("cy");
              assertThat(pending(context)).isEqualTo(before + 1);
            });
  }

  private static long pending(AssertableApplicationContext context) {
    QueueStats stats = context.getBean(TenureQueues.class).queue("welcome").stats();
    return stats.pending();
  }
}
