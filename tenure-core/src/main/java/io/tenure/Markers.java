package io.tenure;

import io.tenure.internal.markers.DefaultMarkers;
import io.tenure.spi.MarkerStore;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Create-if-absent lifecycle markers (SPEC §7): at most one state per {@code (tenant, resource)},
 * such as {@code ARCHIVED} or {@code SOFT_DELETED}. Two concurrent transitions of one resource
 * never both report {@link TransitionResult.Outcome#APPLIED}.
 *
 * <p>Build one with {@link #builder(MarkerStore)}; instances are thread-safe.
 */
public interface Markers {

  /**
   * Creates the marker only if the resource has none in its tenant.
   *
   * <p>Order: read the current marker (if any, return {@code ALREADY_SATISFIED} or {@code CONFLICT}
   * without hooks); run the before-hooks (a veto returns {@code VETOED}, nothing written);
   * insert-if-absent; run the after-hooks with {@code SUCCEEDED} if this call wrote, else {@code
   * FAILED}.
   *
   * @param change the marker to create
   * @return what happened; never null
   * @throws IllegalArgumentException if {@code change} is null
   * @throws MarkerHookException if an after-hook threw; the write stands and the exception carries
   *     the result
   * @throws StoreException if the store failed (typed: unavailable, schema missing, contention)
   */
  TransitionResult transition(MarkerChange change);

  /**
   * Shorthand for {@link #transition(MarkerChange)}.
   *
   * @throws IllegalArgumentException if an id, the state or the reason is malformed (nothing is
   *     written)
   */
  default TransitionResult transition(
      String tenant, String resource, String state, @Nullable String reason) {
    return transition(MarkerChange.of(tenant, resource, state, reason));
  }

  /**
   * Deletes the marker only if it is stored in {@code expectedState}.
   *
   * @return true if this call deleted it; false if there was none or its state differs
   * @throws IllegalArgumentException if an id or the state is malformed
   * @throws StoreException if the store failed
   */
  boolean clear(String tenant, String resource, String expectedState);

  /**
   * Writes the marker whatever is stored: <strong>last writer wins</strong>. Meant for imports and
   * restores of exported data; it runs no hooks. Use {@link #transition} for anything that must not
   * overwrite a concurrent marker.
   *
   * @throws IllegalArgumentException if {@code marker} is null
   * @throws StoreException if the store failed
   */
  void save(Marker marker);

  /**
   * @return the stored marker, if any
   * @throws IllegalArgumentException if an id is malformed
   * @throws StoreException if the store failed
   */
  Optional<Marker> get(String tenant, String resource);

  /**
   * @param resources resource ids of one tenant; duplicates are allowed
   * @return the stored markers by resource id; resources without a marker are absent
   * @throws IllegalArgumentException if an id is malformed or more than {@link
   *     MarkerStore#MAX_BATCH} resources are asked for
   * @throws StoreException if the store failed
   */
  Map<String, Marker> getAll(String tenant, Collection<String> resources);

  /**
   * @param store where markers live
   * @return a builder for a markers service over {@code store}
   * @throws IllegalArgumentException if {@code store} is null
   */
  static Builder builder(MarkerStore store) {
    if (store == null) {
      throw new IllegalArgumentException("store must not be null");
    }
    return new Builder(store);
  }

  /** Collects hooks; {@link #build()} freezes them. */
  final class Builder {
    private final MarkerStore store;
    private final List<BeforeTransitionHook> before = new ArrayList<>();
    private final List<AfterTransitionHook> after = new ArrayList<>();

    private Builder(MarkerStore store) {
      this.store = store;
    }

    /**
     * Adds a hook that may veto transitions; hooks run in the order added.
     *
     * @throws IllegalArgumentException if {@code hook} is null
     */
    public Builder beforeTransition(BeforeTransitionHook hook) {
      if (hook == null) {
        throw new IllegalArgumentException("hook must not be null");
      }
      before.add(hook);
      return this;
    }

    /**
     * Adds a hook told whether this writer created the marker; hooks run in the order added.
     *
     * @throws IllegalArgumentException if {@code hook} is null
     */
    public Builder afterTransition(AfterTransitionHook hook) {
      if (hook == null) {
        throw new IllegalArgumentException("hook must not be null");
      }
      after.add(hook);
      return this;
    }

    /**
     * @return an immutable, thread-safe markers service
     */
    public Markers build() {
      return new DefaultMarkers(store, before, after);
    }
  }
}
