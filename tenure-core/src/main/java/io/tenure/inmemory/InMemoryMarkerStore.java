package io.tenure.inmemory;

import io.tenure.Marker;
import io.tenure.MarkerChange;
import io.tenure.MarkerKey;
import io.tenure.spi.CreateResult;
import io.tenure.spi.MarkerStore;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentMap;

/** Markers in a concurrent map: {@code putIfAbsent} is the insert-if-absent. */
final class InMemoryMarkerStore implements MarkerStore {
  private final InMemoryStore store;

  InMemoryMarkerStore(InMemoryStore store) {
    this.store = store;
  }

  @Override
  public CreateResult createIfAbsent(MarkerChange change) {
    ConcurrentMap<MarkerKey, Marker> table = store.markerTable();
    Marker candidate = new Marker(change.key(), change.state(), change.reason(), store.now());
    Marker existing = table.putIfAbsent(change.key(), candidate);
    return existing == null ? new CreateResult(true, candidate) : new CreateResult(false, existing);
  }

  @Override
  public Optional<Marker> find(MarkerKey key) {
    return Optional.ofNullable(store.markerTable().get(key));
  }

  @Override
  public Map<MarkerKey, Marker> findAll(Collection<MarkerKey> keys) {
    if (keys.size() > MAX_BATCH) {
      throw new IllegalArgumentException(
          "at most " + MAX_BATCH + " keys per findAll, got " + keys.size());
    }
    ConcurrentMap<MarkerKey, Marker> table = store.markerTable();
    Map<MarkerKey, Marker> found = new LinkedHashMap<>();
    for (MarkerKey key : keys) {
      Marker marker = table.get(key);
      if (marker != null) {
        found.put(key, marker);
      }
    }
    return found;
  }

  @Override
  public boolean deleteIfState(MarkerKey key, String expectedState) {
    MarkerChange.requireValidState(expectedState);
    ConcurrentMap<MarkerKey, Marker> table = store.markerTable();
    Marker current = table.get(key);
    return current != null && current.state().equals(expectedState) && table.remove(key, current);
  }

  @Override
  public void upsert(Marker marker) {
    store.markerTable().put(marker.key(), marker);
  }
}
