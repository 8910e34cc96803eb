package io.tenure.internal.markers;

import io.tenure.AfterTransitionHook;
import io.tenure.BeforeTransitionHook;
import io.tenure.HookDecision;
import io.tenure.HookStatus;
import io.tenure.Marker;
import io.tenure.MarkerChange;
import io.tenure.MarkerHookException;
import io.tenure.MarkerKey;
import io.tenure.Markers;
import io.tenure.TransitionResult;
import io.tenure.spi.CreateResult;
import io.tenure.spi.MarkerStore;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The markers service: pre-check, before-hooks, create-if-absent, after-hooks. */
public final class DefaultMarkers implements Markers {
  private final MarkerStore store;
  private final List<BeforeTransitionHook> before;
  private final List<AfterTransitionHook> after;

  public DefaultMarkers(
      MarkerStore store, List<BeforeTransitionHook> before, List<AfterTransitionHook> after) {
    this.store = store;
    this.before = List.copyOf(before);
    this.after = List.copyOf(after);
  }

  @Override
  public TransitionResult transition(MarkerChange change) {
    if (change == null) {
      throw new IllegalArgumentException("change must not be null");
    }
    Optional<Marker> current = store.find(change.key());
    if (current.isPresent()) {
      // Nothing will be written, so hooks do not run: they hear only about attempted writes.
      return resultForExisting(change, current.get());
    }
    for (BeforeTransitionHook hook : before) {
      HookDecision decision = hook.before(change, Optional.empty());
      if (!decision.allowed()) {
        return new TransitionResult.Vetoed(decision.reason());
      }
    }
    CreateResult created = store.createIfAbsent(change);
    TransitionResult result =
        created.created()
            ? new TransitionResult.Applied(created.marker())
            : resultForExisting(change, created.marker());
    runAfterHooks(change, created.created() ? HookStatus.SUCCEEDED : HookStatus.FAILED, result);
    return result;
  }

  private static TransitionResult resultForExisting(MarkerChange change, Marker existing) {
    return existing.state().equals(change.state())
        ? new TransitionResult.AlreadySatisfied(existing)
        : new TransitionResult.Conflict(existing);
  }

  private void runAfterHooks(MarkerChange change, HookStatus status, TransitionResult result) {
    MarkerHookException failure = null;
    for (AfterTransitionHook hook : after) {
      try {
        hook.after(change, status, result);
      } catch (RuntimeException e) {
        if (failure == null) {
          failure =
              new MarkerHookException(
                  "after-transition hook failed for "
                      + change.key()
                      + " -> "
                      + change.state()
                      + " ("
                      + result.outcome()
                      + " stands)",
                  result,
                  e);
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public boolean clear(String tenant, String resource, String expectedState) {
    MarkerKey key = MarkerKey.of(tenant, resource);
    return store.deleteIfState(key, MarkerChange.requireValidState(expectedState));
  }

  @Override
  public void save(Marker marker) {
    if (marker == null) {
      throw new IllegalArgumentException("marker must not be null");
    }
    store.upsert(marker);
  }

  @Override
  public Optional<Marker> get(String tenant, String resource) {
    return store.find(MarkerKey.of(tenant, resource));
  }

  @Override
  public Map<String, Marker> getAll(String tenant, Collection<String> resources) {
    if (resources == null) {
      throw new IllegalArgumentException("resources must not be null");
    }
    MarkerKey.requireValidTenant(tenant);
    Set<MarkerKey> keys = new LinkedHashSet<>();
    for (String resource : resources) {
      keys.add(MarkerKey.of(tenant, resource));
    }
    if (keys.size() > MarkerStore.MAX_BATCH) {
      throw new IllegalArgumentException(
          "at most " + MarkerStore.MAX_BATCH + " resources per getAll, got " + keys.size());
    }
    Map<String, Marker> byResource = new LinkedHashMap<>();
    store.findAll(keys).forEach((key, marker) -> byResource.put(key.resource(), marker));
    return byResource;
  }
}
