package io.tenure;

/**
 * What {@link Markers#transition} did. Exactly one of any set of concurrent transitions of one
 * resource is {@link Applied}.
 */
public sealed interface TransitionResult {

  /** The outcome as an enum, for callers that do not pattern-match. */
  enum Outcome {
    /** This call wrote the marker. */
    APPLIED,
    /** The resource already had a marker in the requested state; nothing was written. */
    ALREADY_SATISFIED,
    /** The resource had a marker in another state; nothing was written. */
    CONFLICT,
    /** A before-hook refused the transition; nothing was written. */
    VETOED
  }

  /**
   * @return the outcome of this call
   */
  Outcome outcome();

  /**
   * This call created the marker.
   *
   * @param marker the marker as stored, with the database time
   */
  record Applied(Marker marker) implements TransitionResult {
    @Override
    public Outcome outcome() {
      return Outcome.APPLIED;
    }
  }

  /**
   * The requested state was already there (set earlier, or by a concurrent writer that won).
   *
   * @param marker the stored marker
   */
  record AlreadySatisfied(Marker marker) implements TransitionResult {
    @Override
    public Outcome outcome() {
      return Outcome.ALREADY_SATISFIED;
    }
  }

  /**
   * Another state was there; the stored marker is returned unchanged.
   *
   * @param existing the stored marker
   */
  record Conflict(Marker existing) implements TransitionResult {
    @Override
    public Outcome outcome() {
      return Outcome.CONFLICT;
    }
  }

  /**
   * A before-hook refused the change; nothing was written and no after-hook ran.
   *
   * @param reason the hook's reason
   */
  record Vetoed(String reason) implements TransitionResult {
    @Override
    public Outcome outcome() {
      return Outcome.VETOED;
    }
  }
}
