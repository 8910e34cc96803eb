package io.tenure.spi;

import io.tenure.QueueMessage;
import java.util.Objects;

/**
 * What the reclaim sweep (SPEC §6.4) makes of one message whose lease expired. The runtime owns
 * this decision, in the same rule that decides a handled message's fate; a store applies what it is
 * told and never decides between retry and dead itself.
 */
@FunctionalInterface
public interface ReclaimRule {
  /**
   * Decides one expired message. Pure: called inside the store's transaction, it must not block or
   * call the store.
   *
   * @param expired the message as stored, still {@code INFLIGHT} with its lease expired; its
   *     attempts count the claim whose lease expired
   * @return what the store writes
   */
  Decision decide(QueueMessage expired);

  /** The two things an expired claim can become. */
  sealed interface Decision {}

  /**
   * Back to {@code PENDING}, available now, owner and token cleared. Unlike a release, the attempt
   * stays spent (the claim may have run), and the message keeps its last error.
   */
  record Repend() implements Decision {}

  /**
   * A dead letter: {@code DEAD}, finished now, owner and token cleared, keeping {@code error}.
   *
   * @param error the text the message keeps as its last error
   */
  record Dead(String error) implements Decision {
    /**
     * @throws NullPointerException if {@code error} is null
     */
    public Dead {
      Objects.requireNonNull(error, "error");
    }
  }
}
