package io.tenure.tck;

import io.tenure.AgentUri;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Records when each node ran each agent, and checks that no two intervals of one agent overlap: the
 * history checker the fault harness reuses.
 */
public final class RunLog {
  /** One run of one agent on one node, on this JVM's monotonic clock. */
  public static final class Interval {
    final String uri;
    final String node;
    final long start;
    volatile long end = Long.MAX_VALUE;

    Interval(String uri, String node, long start) {
      this.uri = uri;
      this.node = node;
      this.start = start;
    }

    @Override
    public String toString() {
      return node + "[" + start + ".." + (end == Long.MAX_VALUE ? "running" : end) + "]";
    }
  }

  private final List<Interval> intervals = new ArrayList<>();
  private final Map<String, Long> faults = new TreeMap<>();

  /**
   * Marks that a test created a duplicate of {@code uri} on purpose, now: a run that began before
   * this moment may overlap one that began after it, until the duplicate heals. Any other overlap
   * still counts.
   */
  public synchronized void duplicateInjected(AgentUri uri) {
    faults.put(uri.toString(), System.nanoTime());
  }

  /** Opens an interval; the agent's start calls it last, once it runs. */
  public synchronized Interval started(AgentUri uri, String node) {
    Interval interval = new Interval(uri.toString(), node, System.nanoTime());
    intervals.add(interval);
    return interval;
  }

  /** Closes an interval; the agent's stop calls it first, before it stops anything. */
  public void stopped(Interval interval) {
    interval.end = System.nanoTime();
  }

  /**
   * @return every pair of overlapping intervals of one agent, described; empty if none
   */
  public synchronized List<String> overlaps() {
    Map<String, List<Interval>> byAgent = new TreeMap<>();
    intervals.forEach(i -> byAgent.computeIfAbsent(i.uri, k -> new ArrayList<>()).add(i));
    List<String> found = new ArrayList<>();
    byAgent.forEach(
        (uri, runs) -> {
          runs.sort(Comparator.comparingLong(i -> i.start));
          for (int i = 1; i < runs.size(); i++) {
            for (int j = 0; j < i; j++) {
              Long fault = faults.get(uri);
              boolean injected =
                  fault != null && runs.get(j).start < fault && runs.get(i).start >= fault;
              if (runs.get(j).end > runs.get(i).start && !injected) {
                found.add(uri + ": " + runs.get(j) + " overlaps " + runs.get(i));
              }
            }
          }
        });
    return found;
  }

  /**
   * @return how many runs were recorded in all
   */
  public synchronized int size() {
    return intervals.size();
  }
}
