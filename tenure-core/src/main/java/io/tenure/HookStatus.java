package io.tenure;

/** What an {@link AfterTransitionHook} is told about the write it follows. */
public enum HookStatus {
  /** This writer created the marker. Only one concurrent writer of a resource ever sees this. */
  SUCCEEDED,
  /** This writer passed the before-hooks but lost the race: another marker was stored first. */
  FAILED
}
