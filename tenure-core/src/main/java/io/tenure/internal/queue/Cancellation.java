package io.tenure.internal.queue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One claimed message's cancel signal (SPEC §12.3): set once the consumer learns its claim no
 * longer holds (an operator cancelled it, or the claim was taken back), never cleared. Callbacks
 * run once, each on a virtual thread of its own, so a slow one delays neither the consumer nor the
 * others.
 */
final class Cancellation {
  private static final Logger LOG = LoggerFactory.getLogger(Cancellation.class);

  private final long messageId;
  private final AtomicBoolean cancelled = new AtomicBoolean();
  private volatile boolean timedOut;
  private final List<Once> callbacks = new CopyOnWriteArrayList<>();

  Cancellation(long messageId) {
    this.messageId = messageId;
  }

  boolean cancelled() {
    return cancelled.get();
  }

  boolean timedOut() {
    return timedOut;
  }

  /** The handler ran past its timeout (SPEC §12.4): marks it so, then sets the signal. */
  void timeOut() {
    timedOut = true;
    cancel();
  }

  /** Sets the signal and runs the callbacks registered so far; later calls do nothing. */
  void cancel() {
    if (cancelled.compareAndSet(false, true)) {
      callbacks.forEach(Once::fire);
    }
  }

  /** Runs {@code callback} once the signal is set, at once if it is; never twice. */
  void onCancel(Runnable callback) {
    Once once = new Once(callback);
    callbacks.add(once);
    if (cancelled.get()) {
      once.fire(); // set before or while it was added: cancel() may fire it too, Once runs it once
    }
  }

  /** A callback that runs at most once, whichever of cancel() and onCancel() fires it first. */
  private final class Once {
    private final Runnable callback;
    private final AtomicBoolean ran = new AtomicBoolean();

    Once(Runnable callback) {
      this.callback = callback;
    }

    void fire() {
      if (!ran.compareAndSet(false, true)) {
        return;
      }
      Thread.ofVirtual()
          .name("tenure-cancel-" + messageId)
          .start(
              io.tenure.internal.logging.LogContext.inherit(
                  () -> {
                    try {
                      callback.run();
                    } catch (RuntimeException e) {
                      LOG.warn("message {}: a cancel callback failed: {}", messageId, e.toString());
                    }
                  }));
    }
  }
}
