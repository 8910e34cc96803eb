package io.tenure.inmemory;

import io.tenure.Marker;
import io.tenure.MarkerKey;
import io.tenure.SchemaMissingException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/** The tables of one prefix in an {@link InMemoryDatabase}. */
final class Namespace {
  static final int SCHEMA_VERSION = 4;

  private volatile int schemaVersion;
  private final ConcurrentMap<MarkerKey, Marker> markers = new ConcurrentHashMap<>();

  /**
   * Membership, lease, events, agents and queue: every access holds this monitor, like one database
   * lock.
   */
  final ClusterTables cluster = new ClusterTables();

  synchronized int migrate() {
    schemaVersion = SCHEMA_VERSION;
    return schemaVersion;
  }

  int schemaVersion() {
    return schemaVersion;
  }

  synchronized void drop() {
    schemaVersion = 0;
    markers.clear();
    synchronized (cluster) {
      cluster.clear();
    }
  }

  ConcurrentMap<MarkerKey, Marker> markers(String prefix) {
    requireSchema(prefix, "markers");
    return markers;
  }

  ClusterTables cluster(String prefix) {
    requireSchema(prefix, "nodes");
    return cluster;
  }

  private void requireSchema(String prefix, String table) {
    if (schemaVersion < 1) {
      throw new SchemaMissingException(
          "in-memory table '"
              + prefix
              + table
              + "' does not exist; open the store with migration on",
          null);
    }
  }
}
