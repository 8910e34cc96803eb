package io.tenure.tck;

import io.tenure.TenureNodeBuilder;
import java.time.Duration;

/** Node timings scaled down for the kit's cluster scenarios, keeping the rules between them. */
final class FastTimings {
  private FastTimings() {}

  /** Heartbeat 100 ms, self-fence 400 ms, stale 1 s, renew 100 ms, fence 1.5 s, lease 2 s. */
  static TenureNodeBuilder node(TenureNodeBuilder builder, String name) {
    return builder
        .name(name)
        .heartbeatInterval(Duration.ofMillis(100))
        .selfFenceAfter(Duration.ofMillis(400))
        .staleAfter(Duration.ofMillis(1000))
        .renewInterval(Duration.ofMillis(100))
        .fenceAfter(Duration.ofMillis(1500))
        .leaseTtl(Duration.ofMillis(2000));
  }
}
