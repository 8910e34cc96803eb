package io.tenure.spi;

import io.tenure.Marker;
import io.tenure.MarkerChange;
import io.tenure.MarkerKey;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/**
 * Storage of lifecycle markers: at most one row per {@link MarkerKey}.
 *
 * <p>Every method MUST throw {@link io.tenure.SchemaMissingException} when the markers table is
 * missing, {@link io.tenure.StoreUnavailableException} when the database cannot be reached or the
 * store is closed, and MUST NOT report a lost race as an exception.
 */
public interface MarkerStore {
  /** Most keys one {@link #findAll} call accepts. */
  int MAX_BATCH = 500;

  /**
   * Inserts the marker only if no row exists for its key, with {@code markedAt} set from the
   * database clock.
   *
   * <p>MUST be race-safe: of any number of concurrent calls for one key with no row present,
   * exactly one returns {@code created = true}. MUST NOT overwrite an existing row (no upsert).
   * MUST NOT turn an error other than the duplicate key of this insert into "not created". When
   * nothing was inserted, MUST read the stored row (on the same connection where the database has
   * connections) and return it; if a concurrent delete removed it in between, MUST try the insert
   * again rather than return a missing marker.
   *
   * @param change the marker to create; valid by construction
   * @return whether this call created the row, and the row as stored
   */
  CreateResult createIfAbsent(MarkerChange change);

  /**
   * @param key the marker's key
   * @return the stored row, if any; MUST NOT create or change anything
   */
  Optional<Marker> find(MarkerKey key);

  /**
   * @param keys up to {@link #MAX_BATCH} keys, possibly of several tenants; duplicates allowed
   * @return the stored rows by key; keys without a row are absent
   * @throws IllegalArgumentException if more than {@link #MAX_BATCH} keys are given (nothing read)
   */
  Map<MarkerKey, Marker> findAll(Collection<MarkerKey> keys);

  /**
   * Deletes the row only if its state equals {@code expectedState}.
   *
   * <p>MUST be a single conditional delete: a row in another state, or no row, is left alone and
   * returns false.
   *
   * @param key the marker's key
   * @param expectedState a valid state name ({@link MarkerChange#requireValidState})
   * @return true if this call deleted the row
   * @throws IllegalArgumentException if {@code expectedState} is malformed (nothing deleted)
   */
  boolean deleteIfState(MarkerKey key, String expectedState);

  /**
   * Writes the row whatever is stored: last writer wins. The only upsert in the markers area; MUST
   * store {@code markedAt} as given (to microseconds).
   *
   * @param marker the full row to store
   */
  void upsert(Marker marker);
}
