package io.tenure.inmemory;

import io.tenure.Marker;
import io.tenure.MarkerKey;
import io.tenure.SchemaMissingException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/** The tables of one prefix in an {@link InMemoryDatabase}. */
final class Namespace {
  static final int SCHEMA_VERSION = 1;

  private volatile int schemaVersion;
  private final ConcurrentMap<MarkerKey, Marker> markers = new ConcurrentHashMap<>();

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
  }

  ConcurrentMap<MarkerKey, Marker> markers(String prefix) {
    if (schemaVersion < 1) {
      throw new SchemaMissingException(
          "in-memory table '" + prefix + "markers' does not exist; open the store with migration on",
          null);
    }
    return markers;
  }
}
