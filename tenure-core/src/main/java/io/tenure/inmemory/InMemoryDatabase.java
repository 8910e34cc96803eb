package io.tenure.inmemory;

import io.tenure.spi.TablePrefix;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Stands in for a database server: holds one namespace per table prefix. Stores opened on the same
 * database and prefix share their data, as processes sharing a real database do.
 */
public final class InMemoryDatabase {
  private static final Map<String, InMemoryDatabase> NAMED = new ConcurrentHashMap<>();

  private final String name;
  private final Map<TablePrefix, Namespace> namespaces = new ConcurrentHashMap<>();

  private InMemoryDatabase(String name) {
    this.name = name;
  }

  /**
   * @param name any non-blank name; the same name returns the same database for the JVM's life
   * @return the database of that name
   * @throws IllegalArgumentException if the name is null or blank
   */
  public static InMemoryDatabase named(String name) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("in-memory database name must not be null or blank");
    }
    return NAMED.computeIfAbsent(name, InMemoryDatabase::new);
  }

  /**
   * @return a new database that no other caller can name
   */
  public static InMemoryDatabase fresh() {
    return new InMemoryDatabase("fresh-" + UUID.randomUUID());
  }

  /**
   * @return the database's name
   */
  public String name() {
    return name;
  }

  /**
   * Drops every table of {@code prefix}, as an operator's {@code DROP TABLE} would. Open stores
   * then report {@link io.tenure.SchemaMissingException}.
   */
  public void dropTables(TablePrefix prefix) {
    namespace(prefix).drop();
  }

  /**
   * Deletes the assignment rows of {@code uris} from {@code prefix}, as an operator's {@code DELETE
   * FROM <prefix>agents} would: the stores' record of the epochs they issued stays. For tests of
   * what stores and nodes do when rows vanish behind their back.
   */
  public void deleteAgentRows(TablePrefix prefix, java.util.Collection<io.tenure.AgentUri> uris) {
    ClusterTables tables = namespace(prefix).cluster(prefix.value());
    synchronized (tables) {
      uris.forEach(uri -> tables.agents.remove(uri.toString()));
    }
  }

  Namespace namespace(TablePrefix prefix) {
    return namespaces.computeIfAbsent(prefix, p -> new Namespace());
  }
}
