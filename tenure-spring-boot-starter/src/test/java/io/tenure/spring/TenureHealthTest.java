package io.tenure.spring;

import static io.tenure.spring.TenureHandlerTest.failure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tenure.Tenure;
import io.tenure.TenureNode;
import io.tenure.server.AdminServer;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Tenure's health indicator, and the optional parts that back off without their libraries. */
class TenureHealthTest {
  @TempDir Path directory;

  @Test
  void health_is_up_with_the_nodes_name_status_and_leadership() {
    Runners.inMemory()
        .withPropertyValues("tenure.node.name=api-1")
        .run(
            context -> {
              HealthIndicator indicator =
                  context.getBean("tenureHealthIndicator", HealthIndicator.class);
              await()
                  .atMost(Duration.ofSeconds(10))
                  .until(() -> Boolean.TRUE.equals(indicator.health().getDetails().get("leader")));
              Health health = indicator.health();
              assertThat(health.getStatus()).isEqualTo(Status.UP);
              assertThat(health.getDetails())
                  .containsEntry("node", "api-1")
                  .containsEntry("status", "ACTIVE")
                  .containsEntry("leader", true)
                  .containsKeys("nodeId", "epoch", "store", "clusterLeader");
            });
  }

  @Test
  void health_is_down_while_the_node_is_self_fenced_and_out_of_service_while_it_does_not_run() {
    Runners.inMemory()
        .run(
            context -> {
              Tenure tenure = context.getBean(Tenure.class);
              TenureNode node = context.getBean(TenureNodeLifecycle.class).node().orElseThrow();
              Health fenced =
                  new TenureHealthIndicator(tenure, () -> Optional.of(new SelfFenced(node)), true)
                      .health();
              assertThat(fenced.getStatus()).isEqualTo(Status.DOWN);
              assertThat(fenced.getDetails())
                  .containsEntry("reason", "self-fenced: no heartbeat succeeded in time");
              Health stopped = new TenureHealthIndicator(tenure, Optional::empty, true).health();
              assertThat(stopped.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
              Health none = new TenureHealthIndicator(tenure, Optional::empty, false).health();
              assertThat(none.getStatus()).isEqualTo(Status.UP);
            });
  }

  @Test
  void health_is_down_when_the_store_does_not_answer() {
    Switchable source = new Switchable(Runners.sqlite(directory));
    Runners.bare()
        .withBean(DataSource.class, () -> source)
        .run(
            context -> {
              HealthIndicator indicator =
                  context.getBean("tenureHealthIndicator", HealthIndicator.class);
              assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
              source.down.set(true);
              Health health = indicator.health();
              assertThat(health.getStatus()).isEqualTo(Status.DOWN);
              assertThat((String) health.getDetails().get("reason"))
                  .startsWith("the store does not answer");
              source.down.set(false);
            });
  }

  @Test
  void the_indicator_is_off_by_property_or_without_boots_health_support() {
    Runners.inMemory()
        .withPropertyValues("management.health.tenure.enabled=false")
        .run(
            context -> assertThat(context).hasNotFailed().doesNotHaveBean("tenureHealthIndicator"));
    Runners.inMemory()
        .withClassLoader(new FilteredClassLoader(HealthIndicator.class))
        .run(
            context ->
                assertThat(context)
                    .hasNotFailed()
                    .doesNotHaveBean("tenureHealthIndicator")
                    .hasSingleBean(TenureNodeLifecycle.class));
  }

  @Test
  void without_micrometer_there_are_no_meters_and_the_node_runs() {
    Runners.inMemory()
        .withClassLoader(new FilteredClassLoader("io.micrometer"))
        .run(
            context -> {
              assertThat(context).hasNotFailed().doesNotHaveBean(TenureMeterBinder.class);
              assertThat(context.getBean(TenureNodeLifecycle.class).isRunning()).isTrue();
            });
  }

  @Test
  void without_tenure_server_the_admin_server_is_off_and_asking_for_it_is_refused() {
    Runners.inMemory()
        .withClassLoader(new FilteredClassLoader(AdminServer.class))
        .run(
            context -> assertThat(context).hasNotFailed().doesNotHaveBean(TenureAdminServer.class));
    Runners.inMemory()
        .withClassLoader(new FilteredClassLoader(AdminServer.class))
        .withPropertyValues("tenure.admin.enabled=true")
        .run(
            context ->
                assertThat(failure(context))
                    .contains("tenure.admin.enabled=true needs io.tenure:tenure-server"));
  }

  @Test
  void an_indicator_and_meters_of_the_application_replace_the_auto_configured_ones() {
    Runners.inMemory()
        .withUserConfiguration(OwnBeans.class)
        .run(
            context -> {
              assertThat(context).hasSingleBean(TenureMeterBinder.class).hasBean("ownMeters");
              assertThat(context.getBean("tenureHealthIndicator"))
                  .isNotInstanceOf(TenureHealthIndicator.class);
            });
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnBeans {
    @Bean
    TenureMeterBinder ownMeters(Tenure tenure, TenureQueues queues) {
      return new TenureMeterBinder(
          tenure, queues, Optional::empty, io.tenure.Ticker.system(), Duration.ZERO);
    }

    @Bean
    HealthIndicator tenureHealthIndicator() {
      return () -> Health.up().build();
    }
  }

  /** A running node that reports itself self-fenced. */
  private record SelfFenced(TenureNode node) implements TenureNode {
    @Override
    public boolean isSelfFenced() {
      return true;
    }

    @Override
    public String nodeId() {
      return node.nodeId();
    }

    @Override
    public io.tenure.NodeSettings settings() {
      return node.settings();
    }

    @Override
    public void start() {}

    @Override
    public boolean isLeader() {
      return false;
    }

    @Override
    public Optional<io.tenure.spi.LeaderFence> leaderFence() {
      return Optional.empty();
    }

    @Override
    public java.util.Set<io.tenure.AgentUri> runningAgents() {
      return node.runningAgents();
    }

    @Override
    public void pause(io.tenure.AgentUri uri) {}

    @Override
    public void resume(io.tenure.AgentUri uri) {}

    @Override
    public void pin(io.tenure.AgentUri uri, String nodeName) {}

    @Override
    public boolean rebalance() {
      return false;
    }

    @Override
    public java.util.List<io.tenure.ConsumerStats> consumerStats() {
      return node.consumerStats();
    }

    @Override
    public io.tenure.ScheduleStats scheduleStats() {
      return node.scheduleStats();
    }

    @Override
    public io.tenure.WakeStats wakeStats() {
      return node.wakeStats();
    }

    @Override
    public void close() {}
  }

  /** A data source that refuses every connection while {@link #down} is set. */
  private static final class Switchable implements DataSource {
    final AtomicBoolean down = new AtomicBoolean();
    private final DataSource delegate;

    Switchable(DataSource delegate) {
      this.delegate = delegate;
    }

    @Override
    public Connection getConnection() throws SQLException {
      if (down.get()) {
        throw new SQLException("connection refused (the test took the database down)", "08001");
      }
      return delegate.getConnection();
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
      return getConnection();
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
      return delegate.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
      delegate.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
      delegate.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
      return delegate.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() {
      return Logger.getGlobal();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
      return delegate.unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
      return delegate.isWrapperFor(type);
    }
  }
}
