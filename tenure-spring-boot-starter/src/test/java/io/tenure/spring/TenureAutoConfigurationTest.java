package io.tenure.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tenure.Tenure;
import io.tenure.TenureNode;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** When the auto-configuration creates what, and what the application overrides. */
class TenureAutoConfigurationTest {
  @TempDir Path directory;

  @Test
  void without_a_data_source_or_a_store_url_nothing_is_configured() {
    Runners.bare()
        .run(
            context ->
                assertThat(context)
                    .hasNotFailed()
                    .doesNotHaveBean(Tenure.class)
                    .doesNotHaveBean(TenureQueues.class)
                    .doesNotHaveBean(TenureNodeLifecycle.class));
  }

  @Test
  void a_store_url_opens_tenure_and_its_node_runs_with_the_context_and_leaves_with_it() {
    String url = Runners.freshMemoryUrl();
    Runners.bare()
        .withPropertyValues("tenure.store=" + url)
        .run(
            context -> {
              assertThat(context).hasSingleBean(Tenure.class).hasSingleBean(TenureQueues.class);
              TenureNodeLifecycle lifecycle = context.getBean(TenureNodeLifecycle.class);
              assertThat(lifecycle.isRunning()).isTrue();
              TenureNode node = lifecycle.node().orElseThrow();
              assertThat(context.getBean(Tenure.class).admin().nodes())
                  .singleElement()
                  .satisfies(info -> assertThat(info.nodeId()).isEqualTo(node.nodeId()));
            });
    try (Tenure after = Tenure.open(url)) {
      assertThat(after.admin().nodes()).as("the node left: its row is gone").isEmpty();
    }
  }

  @Test
  void the_applications_data_source_is_used_with_the_table_prefix() {
    DataSource source = Runners.sqlite(directory);
    Runners.bare()
        .withBean(DataSource.class, () -> source)
        .withPropertyValues("tenure.table-prefix=billing_")
        .run(
            context -> {
              assertThat(context).hasNotFailed().hasSingleBean(Tenure.class);
              assertThat(tables(source))
                  .filteredOn(t -> !t.startsWith("sqlite_"))
                  .isNotEmpty()
                  .allMatch(t -> t.startsWith("billing_"));
            });
  }

  /**
   * The node must leave (delete its row) before the pool closes: with the pool closed first its row
   * would stay behind until the leader declared it dead.
   */
  @Test
  void the_node_leaves_before_the_applications_pool_is_closed() {
    String file = directory.resolve("pool.db").toString();
    Runners.bare()
        .withUserConfiguration(PoolConfiguration.class)
        .withPropertyValues("pool.file=" + file)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context.getBean(Tenure.class).admin().nodes()).hasSize(1);
            });
    try (Tenure after = Tenure.open("sqlite:" + file)) {
      assertThat(after.admin().nodes()).isEmpty();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class PoolConfiguration {
    @Bean(destroyMethod = "close")
    HikariDataSource dataSource(org.springframework.core.env.Environment environment) {
      HikariConfig config = new HikariConfig();
      config.setJdbcUrl("jdbc:sqlite:" + environment.getRequiredProperty("pool.file"));
      config.setMaximumPoolSize(4);
      return new HikariDataSource(config);
    }
  }

  @Test
  void the_node_properties_are_bound_to_the_node() {
    Runners.inMemory()
        .withPropertyValues(
            "tenure.node.name=api-7",
            "tenure.node.heartbeat-interval=200ms",
            "tenure.node.self-fence-after=600ms",
            "tenure.node.stale-after=1s",
            "tenure.node.capabilities=reports,pdf",
            "tenure.node.promotable=false",
            "tenure.consumer.drain-deadline=3s",
            "tenure.consumer.reclaim-interval=2s",
            "tenure.consumer.poll-min=50ms",
            "tenure.consumer.poll-max=30s",
            "tenure.consumer.wakeups=false")
        .run(
            context -> {
              io.tenure.NodeSettings settings =
                  context.getBean(TenureNodeLifecycle.class).node().orElseThrow().settings();
              assertThat(settings.name()).isEqualTo("api-7");
              assertThat(settings.heartbeat().interval()).isEqualTo(Duration.ofMillis(200));
              assertThat(settings.heartbeat().selfFenceAfter()).isEqualTo(Duration.ofMillis(600));
              assertThat(settings.heartbeat().staleAfter()).isEqualTo(Duration.ofSeconds(1));
              assertThat(settings.capabilities()).contains("reports", "pdf");
              assertThat(settings.leadership().promotable()).isFalse();
              assertThat(settings.queues().drainDeadline()).isEqualTo(Duration.ofSeconds(3));
              assertThat(settings.queues().reclaimInterval()).isEqualTo(Duration.ofSeconds(2));
              assertThat(settings.queues().pollMin()).isEqualTo(Duration.ofMillis(50));
              assertThat(settings.queues().pollMax()).isEqualTo(Duration.ofSeconds(30));
              assertThat(settings.queues().wakeups()).isFalse();
              assertThat(settings.capabilities()).noneMatch(c -> c.startsWith("wake:"));
            });
  }

  @Test
  void the_application_name_names_the_node_unless_tenure_node_name_does() {
    Runners.inMemory()
        .withPropertyValues("spring.application.name=billing")
        .run(
            context ->
                assertThat(context.getBean(TenureNodeLifecycle.class).nodeName())
                    .isEqualTo("billing"));
    Runners.inMemory()
        .withPropertyValues("spring.application.name=My Billing")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("spring.application.name, 'My Billing'")
                    .hasMessageContaining("set tenure.node.name"));
  }

  @Test
  void a_value_out_of_range_stops_the_context_naming_its_property() {
    Runners.inMemory()
        .withPropertyValues("tenure.node.lease-ttl=0s")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("tenure.node.lease-ttl must be positive"));
    Runners.inMemory()
        .withPropertyValues("tenure.table-prefix=Bad-Prefix")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("tenure.table-prefix"));
  }

  @Test
  void a_bad_node_setting_stops_the_context_before_anything_is_created() {
    java.nio.file.Path database = directory.resolve("refused.db");
    Runners.bare()
        .withPropertyValues("tenure.store=sqlite:" + database, "tenure.node.heartbeat-interval=5s")
        .run(
            context -> {
              assertThat(context)
                  .getFailure()
                  .rootCause()
                  .hasMessageContaining("tenure.node.heartbeat-interval must be less than");
              assertThat(database)
                  .as("no store was opened, so no file and no table")
                  .doesNotExist();
            });
  }

  @Test
  void settings_that_do_not_go_together_are_refused_in_the_properties_names() {
    Runners.inMemory()
        .withPropertyValues("tenure.node.heartbeat-interval=5s")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining(
                        "tenure.node.heartbeat-interval must be less than"
                            + " tenure.node.self-fence-after, got PT5S and PT3S"));
    Runners.inMemory()
        .withPropertyValues("tenure.migrate=true", "tenure.require-schema=true")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("set tenure.migrate=false"));
    Runners.bare()
        .withBean(DataSource.class, () -> Runners.sqlite(directory))
        .withPropertyValues("tenure.pool-size=4")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("tenure.pool-size sizes the pool Tenure opens"));
  }

  @Test
  void a_tenure_of_the_application_replaces_the_auto_configured_one() {
    String url = Runners.freshMemoryUrl();
    Runners.bare()
        .withBean("ownTenure", Tenure.class, () -> Tenure.builder(url).prefix("own_").open())
        .withBean(DataSource.class, () -> Runners.sqlite(directory))
        .run(
            context -> {
              assertThat(context).hasSingleBean(Tenure.class).hasBean("ownTenure");
              assertThat(context.getBean(Tenure.class).toString()).contains("own_");
              assertThat(context.getBean(TenureNodeLifecycle.class).isRunning()).isTrue();
            });
  }

  @Test
  void a_tenure_of_the_application_without_a_data_source_still_gets_queues_and_a_node() {
    String url = Runners.freshMemoryUrl();
    Runners.bare()
        .withBean(Tenure.class, () -> Tenure.open(url))
        .run(
            context -> {
              assertThat(context).hasSingleBean(Tenure.class).hasSingleBean(TenureQueues.class);
              assertThat(context.getBean(TenureNodeLifecycle.class).isRunning()).isTrue();
            });
  }

  @Test
  void queues_of_the_application_replace_the_auto_configured_ones() {
    Runners.inMemory()
        .withUserConfiguration(OwnQueues.class)
        .run(context -> assertThat(context).hasSingleBean(TenureQueues.class).hasBean("ownQueues"));
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnQueues {
    @Bean
    TenureQueues ownQueues(Tenure tenure) {
      return new TenureQueues(tenure, null, java.util.Map.of());
    }
  }

  @Test
  void with_the_node_disabled_tenure_is_there_and_no_node_runs() {
    Runners.inMemory()
        .withPropertyValues("tenure.node.enabled=false")
        .run(
            context -> {
              assertThat(context).hasSingleBean(Tenure.class);
              assertThat(context.getBean(TenureNodeLifecycle.class).node()).isEmpty();
              assertThat(context.getBean(Tenure.class).admin().nodes()).isEmpty();
            });
  }

  private static List<String> tables(DataSource source) throws Exception {
    List<String> names = new ArrayList<>();
    try (Connection c = source.getConnection();
        ResultSet rows =
            c.createStatement().executeQuery("SELECT name FROM sqlite_master WHERE type='table'")) {
      while (rows.next()) {
        names.add(rows.getString(1));
      }
    }
    return names;
  }
}
