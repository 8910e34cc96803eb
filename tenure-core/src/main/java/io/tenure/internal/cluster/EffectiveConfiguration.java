package io.tenure.internal.cluster;

import io.tenure.NodeSettings;
import io.tenure.Stores;
import io.tenure.internal.queue.ConsumerSpec;
import io.tenure.spi.StoreDescription;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The one line a node logs when it starts: every setting it runs with, so that a log alone tells an
 * operator what a node was told to do. The store location is masked again here, so that no
 * provider's description can put a password in a log.
 */
final class EffectiveConfiguration {
  private EffectiveConfiguration() {}

  /**
   * @return the settings, the store and the shared consumers as one line
   */
  static String describe(
      NodeSettings settings, StoreDescription store, List<ConsumerSpec> consumers) {
    return "store "
        + store.provider()
        + " "
        + Stores.maskSecrets(store.location())
        + " (prefix "
        + store.prefix()
        + "), address '"
        + settings.address()
        + "', capabilities "
        + settings.capabilities().stream().sorted().toList()
        + ", heartbeat "
        + fields(settings.heartbeat())
        + ", leadership "
        + fields(settings.leadership())
        + ", cleanup "
        + fields(settings.cleanup())
        + ", agents "
        + fields(settings.agents())
        + ", queues "
        + fields(settings.queues())
        + ", consumers "
        + consumers.stream().map(EffectiveConfiguration::consumer).collect(Collectors.toList());
  }

  /** A record's components as its {@code toString} gives them, without the type's name. */
  private static String fields(Record settings) {
    String text = settings.toString();
    return text.substring(text.indexOf('['));
  }

  private static String consumer(ConsumerSpec spec) {
    return spec.queue().name()
        + " x"
        + spec.concurrency()
        + (spec.batchSize() > 1 ? " batch " + spec.batchSize() : "");
  }
}
