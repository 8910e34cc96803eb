package io.tenure;

/**
 * Runs after a write was attempted. The writer that created the marker gets {@link
 * HookStatus#SUCCEEDED}; a writer that passed its before-hooks and then lost the race gets {@link
 * HookStatus#FAILED} together with the result it returns (already satisfied or conflict).
 */
@FunctionalInterface
public interface AfterTransitionHook {
  /**
   * @param change the requested marker
   * @param status whether this writer created the marker
   * @param result what the transition returns to its caller
   */
  void after(MarkerChange change, HookStatus status, TransitionResult result);
}
