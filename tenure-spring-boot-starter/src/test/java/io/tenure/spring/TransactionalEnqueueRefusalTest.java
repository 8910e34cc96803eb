package io.tenure.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.OutgoingMessage;
import java.nio.file.Path;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * An enqueue inside a transaction that cannot hold Tenure's connection is refused, never written on
 * its own: the transaction could not take it back.
 */
class TransactionalEnqueueRefusalTest {
  @TempDir Path directory;

  @Test
  void inside_a_transaction_of_another_data_source_the_enqueue_is_refused() {
    DataSource tenures = Runners.sqlite(directory);
    DataSource others = Runners.sqlite(directory);
    refuses(
        Runners.bare()
            .withBean("tenureSource", DataSource.class, () -> tenures, d -> d.setPrimary(true))
            .withBean("otherSource", DataSource.class, () -> others),
        others,
        "holds no connection of the DataSource Tenure runs on");
  }

  @Test
  void inside_a_transaction_with_tenure_opened_by_url_the_enqueue_is_refused() {
    DataSource application = Runners.sqlite(directory);
    refuses(
        Runners.inMemory().withBean(DataSource.class, () -> application),
        application,
        "Tenure was opened by URL (tenure.store)");
  }

  @Test
  void inside_a_transaction_of_tenures_data_source_on_sqlite_the_enqueue_joins_it() {
    DataSource application = Runners.sqlite(directory);
    Runners.bare()
        .withBean(DataSource.class, () -> application)
        .withPropertyValues("tenure.node.enabled=false")
        .run(
            context -> {
              TenureQueues queues = context.getBean(TenureQueues.class);
              TransactionTemplate transaction =
                  new TransactionTemplate(new DataSourceTransactionManager(application));
              transaction.executeWithoutResult(
                  status -> {
                    queues.enqueue("welcome", OutgoingMessage.text("rolled back"));
                    status.setRollbackOnly();
                  });
              assertThat(queues.queue("welcome").stats().pending()).isZero();
              transaction.executeWithoutResult(
                  status -> queues.enqueue("welcome", OutgoingMessage.text("committed")));
              assertThat(queues.queue("welcome").stats().pending()).isEqualTo(1);
            });
  }

  private static void refuses(
      ApplicationContextRunner runner, DataSource transactional, String why) {
    runner
        .withPropertyValues("tenure.node.enabled=false")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              TenureQueues queues = context.getBean(TenureQueues.class);
              TransactionTemplate transaction =
                  new TransactionTemplate(new DataSourceTransactionManager(transactional));
              assertThatThrownBy(
                      () ->
                          transaction.executeWithoutResult(
                              status -> queues.enqueue("welcome", OutgoingMessage.text("x"))))
                  .isInstanceOf(IllegalStateException.class)
                  .hasMessageContaining("cannot enqueue to queue 'welcome'")
                  .hasMessageContaining(why)
                  .hasMessageContaining("nothing was enqueued");
              assertThat(queues.queue("welcome").stats().pending()).isZero();
            });
  }
}
