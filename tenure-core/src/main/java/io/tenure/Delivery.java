package io.tenure;

import java.time.Duration;

/** A claimed message as its handler sees it. */
public interface Delivery {
  /**
   * @return the message as claimed (status {@code INFLIGHT}, this claim's token)
   */
  QueueMessage message();

  /**
   * @return the payload bytes
   */
  default byte[] payload() {
    return message().payload().clone();
  }

  /**
   * @return the payload as UTF-8 text
   */
  default String text() {
    return new String(message().payload(), java.nio.charset.StandardCharsets.UTF_8);
  }

  /**
   * @return which attempt this is, 1 for the first
   */
  default int attempt() {
    return message().attempts();
  }

  /**
   * Extends this claim to {@code lease} from now. The consumer already extends the leases of
   * handlers that run long; call this to extend further.
   *
   * @return false if the claim was lost (the message was reclaimed): the work may be done twice
   */
  boolean extendLease(Duration lease);

  /**
   * Whether this delivery's work no longer counts (SPEC §12.3): an operator cancelled the message,
   * or its claim was taken back (its lease lapsed and another node may run it). The consumer checks
   * about every 400 ms while the handler runs; a handler that goes on anyway is never interrupted,
   * but its outcome changes nothing (a lost claim). Long handlers should look at it between steps.
   *
   * @return true once the consumer learned that the claim no longer holds
   */
  default boolean cancelled() {
    return false;
  }

  /**
   * Runs {@code callback} once when {@link #cancelled()} becomes true (at once if it is), on a
   * thread of its own: e.g. to abort an HTTP call the handler is blocked in.
   */
  default void onCancel(Runnable callback) {}

  /**
   * Whether the consumer stopped waiting for this handler because it ran past its timeout (SPEC
   * §12.4): the message's own, else its queue's. The message was then retried or dead-lettered as
   * the queue's policy says, {@link #cancelled()} is true too and {@link #onCancel} callbacks ran.
   * The handler is never interrupted, but what it does with the message no longer counts; its
   * thread holds one of the consumer's handler slots until it returns.
   *
   * @return true once the timeout passed
   */
  default boolean timedOut() {
    return false;
  }

  /**
   * @return the timeout this handler runs under (the message's own, else its queue's), or empty
   */
  default java.util.Optional<Duration> timeout() {
    return java.util.Optional.ofNullable(message().timeout());
  }

  /**
   * Reports how far the work is (SPEC §12.5), for operators ({@code tenure messages show}, the
   * console). Cheap to call often: the consumer writes the latest report about once a second, in
   * the background, and a report made after the claim was lost is dropped. The last report written
   * stays with the message across retries.
   *
   * @param fraction how much is done, 0 to 1
   * @param note a short text, at most {@link MessageProgress#MAX_NOTE_LENGTH} characters, or null
   * @throws IllegalArgumentException if the fraction or note is out of range
   */
  default void progress(double fraction, @org.jspecify.annotations.Nullable String note) {
    new MessageProgress(fraction, note); // checks the arguments even where nothing is written
  }

  /**
   * Saves state that a later attempt of this message resumes from (SPEC §12.5): written before it
   * returns, under this claim, so a handler that lost its claim saves nothing. A retry, a reclaim
   * after a crash or a replayed dead letter reads it as {@link #lastCheckpoint()}.
   *
   * @param state at most the queue's payload limit
   * @return false if the claim was lost (nothing saved)
   * @throws IllegalArgumentException if the state is null or larger than the queue's payload limit
   */
  default boolean checkpoint(byte[] state) {
    throw new UnsupportedOperationException("this delivery cannot save checkpoints");
  }

  /**
   * @return what an earlier attempt saved with {@link #checkpoint}, as it was when this attempt was
   *     claimed; empty on a first attempt or if nothing was saved
   */
  default java.util.Optional<byte[]> lastCheckpoint() {
    byte[] saved = message().checkpoint();
    return saved == null ? java.util.Optional.empty() : java.util.Optional.of(saved.clone());
  }
}
