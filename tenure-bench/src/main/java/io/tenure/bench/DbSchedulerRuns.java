package io.tenure.bench;

import static io.tenure.bench.QueueBenchSupport.ENQUEUE_BATCH;
import static io.tenure.bench.QueueBenchSupport.await;
import static io.tenure.bench.QueueBenchSupport.rows;
import static io.tenure.bench.QueueBenchSupport.storeName;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tenure.bench.QueueBenchSupport.Commits;
import io.tenure.bench.QueueBenchSupport.FirstSeen;
import io.tenure.bench.QueueBenchSupport.Rate;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.LongAdder;

/**
 * The peer: db-scheduler one-time tasks with a no-op handler, polled with lock-and-fetch ({@code
 * UPDATE ... WHERE (name, instance) IN (SELECT ... FOR UPDATE SKIP LOCKED) RETURNING}), its fastest
 * strategy on PostgreSQL.
 */
final class DbSchedulerRuns {
  /**
   * db-scheduler's own PostgreSQL schema (its {@code postgresql_tables.sql}), under a name of ours.
   */
  private static final String DDL =
      """
      CREATE TABLE %1$s (
        task_name text NOT NULL,
        task_instance text NOT NULL,
        task_data bytea,
        execution_time timestamp with time zone NOT NULL,
        picked BOOLEAN NOT NULL,
        picked_by text,
        last_success timestamp with time zone,
        last_failure timestamp with time zone,
        consecutive_failures INT,
        last_heartbeat timestamp with time zone,
        version BIGINT NOT NULL,
        priority SMALLINT,
        PRIMARY KEY (task_name, task_instance)
      );
      CREATE INDEX %1$s_execution_time_idx ON %1$s (execution_time);
      CREATE INDEX %1$s_last_heartbeat_idx ON %1$s (last_heartbeat);
      CREATE INDEX %1$s_priority_execution_time_idx ON %1$s (priority DESC, execution_time ASC);
      """;

  private DbSchedulerRuns() {}

  /**
   * Schedules {@code messages} tasks due now, then times a scheduler with {@code threads} executor
   * threads from {@code start()} until every task has run and its row is gone.
   */
  static Rate drain(String url, int messages, int threads) throws Exception {
    String setting = "threads " + threads + ", lock-and-fetch";
    // A name of our own: the database is shared, and a table called scheduled_tasks may be
    // someone's.
    String table = "qb" + UUID.randomUUID().toString().substring(0, 6) + "_scheduled_tasks";
    Commits commits = new Commits(url);
    Rate rate;
    try (HikariDataSource pool = pool(url, threads)) {
      try (Connection c = pool.getConnection();
          Statement s = c.createStatement()) {
        s.execute(DDL.formatted(table));
      }
      try {
        LongAdder executed = new LongAdder();
        FirstSeen first = new FirstSeen();
        OneTimeTask<Void> task =
            Tasks.oneTime("bench")
                .execute(
                    (instance, context) -> {
                      first.seen();
                      executed.increment();
                    });
        schedule(pool, table, task, messages);
        Scheduler scheduler =
            Scheduler.create(pool, task)
                .tableName(table)
                .threads(threads)
                .pollUsingLockAndFetch(0.5, 3.0)
                .pollingInterval(Duration.ofMillis(100))
                .build();
        commits.start();
        long start = System.nanoTime();
        scheduler.start();
        try (Connection observer = pool.getConnection()) {
          // As for Tenure: the row count is read only once the handlers have seen every task.
          boolean drained =
              await(Duration.ofMillis(1), () -> executed.sum() >= messages)
                  && await(Duration.ofMillis(10), () -> rows(observer, table) == 0);
          long nanos = System.nanoTime() - start;
          rate =
              drained
                  ? new Rate(
                      "db-scheduler drain",
                      storeName(url),
                      setting,
                      messages,
                      nanos,
                      first.since(start))
                  : Rate.notFinished("db-scheduler drain", storeName(url), setting, messages);
        } finally {
          scheduler.stop();
        }
      } finally {
        try (Connection c = pool.getConnection();
            Statement s = c.createStatement()) {
          s.execute("DROP TABLE IF EXISTS " + table);
        }
      }
    }
    return rate.noted(commits.counted());
  }

  /**
   * Executor threads each complete on their own connection; the poller and heartbeats need more.
   */
  private static HikariDataSource pool(String url, int threads) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(threads + 4);
    config.setPoolName("db-scheduler");
    return new HikariDataSource(config);
  }

  private static void schedule(
      HikariDataSource pool, String table, OneTimeTask<Void> task, int messages) {
    SchedulerClient client = SchedulerClient.Builder.create(pool, task).tableName(table).build();
    Instant now = Instant.now();
    for (int from = 0; from < messages; from += ENQUEUE_BATCH) {
      List<TaskInstance<?>> batch = new ArrayList<>(ENQUEUE_BATCH);
      for (int i = from; i < Math.min(messages, from + ENQUEUE_BATCH); i++) {
        batch.add(task.instance("task-" + i));
      }
      client.scheduleBatch(batch, now);
    }
  }
}
