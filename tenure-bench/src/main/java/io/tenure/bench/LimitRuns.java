package io.tenure.bench;

import io.tenure.QueueLimits;
import io.tenure.bench.QueueBenchSupport.Rate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What queue limits cost (SPEC §12.1): the PostgreSQL drain with no limit, with a limit that never
 * binds (every claim then locks the queue's control row and counts what is in flight), and with a
 * limit of 1 in flight per group over 100 groups, which binds all the time (a tenth of the
 * messages: it is far slower). The three run in turn, round after round, each on a fresh prefix, so
 * they share whatever the machine is doing.
 */
final class LimitRuns {
  private LimitRuns() {}

  static void run(String url, int messages, int concurrency, int rounds) throws Exception {
    Map<String, QueueLimits> settings = new LinkedHashMap<>();
    settings.put("no limit", QueueLimits.none());
    settings.put("limit that never binds", QueueLimits.none().withMaxInFlight(100_000));
    settings.put("1 per group, 100 groups", QueueLimits.none().withMaxInFlightPerGroup(1));
    Map<String, List<Rate>> runs = new LinkedHashMap<>();
    for (int round = 1; round <= rounds; round++) {
      for (Map.Entry<String, QueueLimits> setting : settings.entrySet()) {
        int groups = setting.getValue().maxInFlightPerGroup() > 0 ? 100 : 0;
        int count = groups > 0 ? Math.max(1, messages / 10) : messages;
        Rate rate = TenureQueueRuns.drain(url, count, concurrency, setting.getValue(), groups);
        runs.computeIfAbsent(setting.getKey(), k -> new ArrayList<>()).add(rate);
        System.out.printf(
            Locale.ROOT,
            "round %d, %s: %,.0f msg/s%n",
            round,
            setting.getKey(),
            rate.finished() ? rate.perSecond() : 0.0);
      }
    }
    System.out.println();
    System.out.println(
        "| PostgreSQL drain | messages | median msg/s | runs, msg/s | vs no limit |");
    System.out.println("| --- | --- | --- | --- | --- |");
    double base = median(runs.get("no limit"));
    for (Map.Entry<String, List<Rate>> setting : runs.entrySet()) {
      double median = median(setting.getValue());
      System.out.printf(
          Locale.ROOT,
          "| %s, concurrency %d | %,d | %,.0f | %s | %.2f |%n",
          setting.getKey(),
          concurrency,
          setting.getValue().get(0).messages(),
          median,
          String.join(
              " / ",
              setting.getValue().stream()
                  .map(r -> String.format(Locale.ROOT, "%,.0f", r.perSecond()))
                  .toList()),
          median / base);
    }
  }

  private static double median(List<Rate> rates) {
    List<Double> sorted =
        rates.stream()
            .map(r -> r.finished() ? r.perSecond() : 0.0)
            .sorted(Comparator.naturalOrder())
            .toList();
    return sorted.get((sorted.size() - 1) / 2);
  }
}
