package io.tenure;

/**
 * What a {@link BeforeTransitionHook} decided.
 *
 * @param allowed whether the transition may go on
 * @param reason why it was vetoed; empty when it proceeds
 */
public record HookDecision(boolean allowed, String reason) {
  private static final HookDecision PROCEED = new HookDecision(true, "");

  /**
   * @throws IllegalArgumentException if a veto has no reason
   */
  public HookDecision {
    if (reason == null || (!allowed && reason.isBlank())) {
      throw new IllegalArgumentException("a veto must give a reason");
    }
  }

  /**
   * @return a decision that lets the transition go on
   */
  public static HookDecision proceed() {
    return PROCEED;
  }

  /**
   * @param reason why the transition must not happen, shown to the caller
   * @return a veto
   * @throws IllegalArgumentException if the reason is null or blank
   */
  public static HookDecision veto(String reason) {
    return new HookDecision(false, reason);
  }
}
