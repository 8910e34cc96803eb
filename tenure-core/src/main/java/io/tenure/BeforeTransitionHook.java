package io.tenure;

import java.util.Optional;

/**
 * Runs before a marker is written and may veto it. Runs only when no marker was found by the
 * pre-check; a concurrent writer may still win after this hook returns, which the after-hook then
 * reports as {@link HookStatus#FAILED}.
 */
@FunctionalInterface
public interface BeforeTransitionHook {
  /**
   * @param change the requested marker
   * @param current the marker the pre-check found (always empty today; reserved for hooks that see
   *     a replaced marker)
   * @return {@link HookDecision#proceed()} or {@link HookDecision#veto(String)}
   */
  HookDecision before(MarkerChange change, Optional<Marker> current);
}
