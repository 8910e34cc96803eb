package io.tenure.spring;

import io.tenure.spi.TablePrefix;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * The {@code tenure.*} properties (docs/SPRING.md#properties). Every setter checks its value while
 * the properties are bound and names the property it refuses; the rules that tie node timings
 * together are checked when the context builds the node, before anything runs.
 */
@ConfigurationProperties("tenure")
public class TenureProperties {
  /**
   * Store URL: sqlite:PATH, jdbc:postgresql://..., jdbc:mariadb://..., jdbc:mysql://... or
   * memory:NAME. When set, Tenure opens a pool of its own on it instead of using the application's
   * DataSource, and an enqueue cannot join the application's transactions.
   */
  private @Nullable String store;

  /**
   * Prefix of every Tenure table, [a-z][a-z0-9_]{0,29}. Two prefixes in one database are two
   * independent clusters.
   */
  private String tablePrefix = "tenure_";

  /** Whether to create or upgrade Tenure's tables when the context starts. */
  private boolean migrate = true;

  /**
   * Whether to refuse to start when Tenure's tables are missing or older than this build, creating
   * nothing. Needs tenure.migrate=false.
   */
  private boolean requireSchema = false;

  /**
   * Connections in the pool Tenure opens for tenure.store, 1 to 200 (default 10). Only with
   * tenure.store: the application's DataSource is sized by its own settings.
   */
  private @Nullable Integer poolSize;

  /**
   * How this process names itself to operators: the holder of the named locks it takes. Default:
   * host name and process id.
   */
  private @Nullable String processName;

  /** The cluster node this application runs. */
  @NestedConfigurationProperty private final TenureNodeProperties node = new TenureNodeProperties();

  /** The queue consumers of the node. */
  @NestedConfigurationProperty
  private final TenureConsumerProperties consumer = new TenureConsumerProperties();

  /** Each queue's policy and consumer concurrency, by queue name. */
  private final Map<String, TenureQueueProperties> queues = new LinkedHashMap<>();

  /** The admin HTTP API and console of tenure-server, on a port of its own. */
  @NestedConfigurationProperty
  private final TenureAdminProperties admin = new TenureAdminProperties();

  public @Nullable String getStore() {
    return store;
  }

  public void setStore(@Nullable String store) {
    this.store = PropertyChecks.notBlank("tenure.store", store);
  }

  public String getTablePrefix() {
    return tablePrefix;
  }

  public void setTablePrefix(String tablePrefix) {
    try {
      this.tablePrefix = TablePrefix.of(tablePrefix).value();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("tenure.table-prefix: " + e.getMessage());
    }
  }

  public boolean isMigrate() {
    return migrate;
  }

  public void setMigrate(boolean migrate) {
    this.migrate = migrate;
  }

  public boolean isRequireSchema() {
    return requireSchema;
  }

  public void setRequireSchema(boolean requireSchema) {
    this.requireSchema = requireSchema;
  }

  public @Nullable Integer getPoolSize() {
    return poolSize;
  }

  public void setPoolSize(@Nullable Integer poolSize) {
    this.poolSize =
        poolSize == null ? null : PropertyChecks.between("tenure.pool-size", poolSize, 1, 200);
  }

  public @Nullable String getProcessName() {
    return processName;
  }

  public void setProcessName(@Nullable String processName) {
    this.processName = PropertyChecks.notBlank("tenure.process-name", processName);
  }

  public TenureNodeProperties getNode() {
    return node;
  }

  public TenureConsumerProperties getConsumer() {
    return consumer;
  }

  public Map<String, TenureQueueProperties> getQueues() {
    return queues;
  }

  public TenureAdminProperties getAdmin() {
    return admin;
  }
}
