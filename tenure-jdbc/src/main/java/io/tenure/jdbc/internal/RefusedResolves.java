package io.tenure.jdbc.internal;

import io.tenure.spi.Resolution;
import java.util.ArrayList;
import java.util.List;

/**
 * What an exclusive queue's resolve writes when its agent guard no longer holds (SPEC §6.9): a
 * re-pend (release, reschedule, retry) is never fenced (SPEC §1.5) and lands as asked, error and
 * backoff included; a finish (done, dead letter) is refused and becomes a release, so the message
 * goes back for the successor with its attempt given back: a handler that succeeded is not charged
 * one. The consumer decided each outcome, so nothing here reads the message's attempts.
 */
final class RefusedResolves {
  /**
   * @param writes the outcomes to write instead, one per held claim
   * @param landed the ids whose outcome is written as asked
   */
  record Rewrite(List<Resolution> writes, List<Long> landed) {}

  /** Rewrites the outcomes of claims still held (and locked) by the caller's transaction. */
  Rewrite rewrite(List<Resolution> held) {
    List<Resolution> writes = new ArrayList<>();
    List<Long> landed = new ArrayList<>();
    for (Resolution resolution : held) {
      boolean repends =
          switch (resolution.outcome()) {
            case Resolution.Release release -> true;
            case Resolution.Reschedule snooze -> true;
            case Resolution.Retry retry -> true;
            case Resolution.Done done -> false;
            case Resolution.DeadLetter dead -> false;
          };
      if (repends) {
        writes.add(resolution);
        landed.add(resolution.claim().id());
      } else {
        writes.add(new Resolution(resolution.claim(), new Resolution.Release()));
      }
    }
    return new Rewrite(writes, landed);
  }
}
