package io.tenure.internal.agents;

import io.tenure.AgentAssignment;
import io.tenure.AgentFamily;
import io.tenure.AgentUri;
import io.tenure.ClusterEvent;
import io.tenure.NodeSettings;
import io.tenure.Ticker;
import io.tenure.spi.AgentStore;
import io.tenure.spi.AssignmentWrite;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.MembershipView;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's agent pass (SPEC §5): plan from a snapshot of the rows and the membership ({@link
 * AssignmentPlanner}), then apply the plan under the leader's fence. A fenced write ends the pass:
 * a newer leader owns the assignments.
 */
final class LeaderPass {
  // One logger name for the whole runtime: operators turn it up by that name (docs/BENCHMARKS.md).
  private static final Logger LOG = LoggerFactory.getLogger(AgentRuntime.class);

  private final AgentStore store;
  private final NodeSettings settings;
  private final Map<String, AgentFamily> families;
  private final AgentEvents events;
  private final PlacementQuiet quiet;
  private final Ticker ticker;

  /** Unreadable rows already recorded in the history by this node's passes. Guarded by this. */
  private final Set<String> reportedSkips = new HashSet<>();

  LeaderPass(
      AgentStore store,
      NodeSettings settings,
      Map<String, AgentFamily> families,
      AgentEvents events,
      Ticker ticker) {
    this.store = store;
    this.settings = settings;
    this.families = families;
    this.events = events;
    this.ticker = ticker;
    this.quiet =
        new PlacementQuiet(
            settings.initialPlacementQuiet(), settings.initialPlacementMaxDelay(), ticker);
  }

  /** See {@link AgentRuntime#leaderPass}. */
  long run(LeaderFence fence, MembershipView membership) {
    if (families.isEmpty()) {
      return 0;
    }
    long began = ticker.read();
    Map<String, Set<AgentUri>> wanted = new TreeMap<>();
    families.forEach((scheme, family) -> wanted.put(scheme, wantedOf(family)));
    List<AgentAssignment> rows = store.readAll();
    long read = ticker.read();
    recordSkippedRows(fence);
    long hold = quiet.holdFor(membership, hasNewAgents(wanted, rows));
    List<PlanAction> plan =
        AssignmentPlanner.plan(
            membership.nodes(), wanted, rows, settings.maxMovesPerPass(), hold == 0);
    long planned = ticker.read();
    if (hold > 0) {
      LOG.debug(
          "leader {}: agents without a row wait up to {} ms more for membership to be quiet",
          fence.nodeId(),
          hold / 1_000_000);
    }
    try {
      apply(plan, rows, fence, membership);
    } finally {
      logPass(fence, rows.size(), plan.size(), began, read, planned);
    }
    long deadline =
        PassDeadlines.next(membership, fence.nodeId(), settings.staleAfter(), owners(rows));
    return soonest(hold, deadline);
  }

  /** The sooner of two delays, where 0 means none. */
  static long soonest(long a, long b) {
    if (a <= 0) {
      return Math.max(0, b);
    }
    return b <= 0 ? a : Math.min(a, b);
  }

  private static Set<String> owners(List<AgentAssignment> rows) {
    Set<String> owners = new HashSet<>();
    rows.forEach(
        row -> {
          if (row.owner() != null) {
            owners.add(row.owner());
          }
        });
    return owners;
  }

  /** A pass slower than a renew interval is worth an operator's look: it delays the next one. */
  private void logPass(
      LeaderFence fence, int rows, int writes, long began, long read, long planned) {
    long took = ticker.read() - began;
    boolean slow = took > settings.renewInterval().toNanos();
    if (!slow && !LOG.isDebugEnabled()) {
      return;
    }
    String line =
        "agent pass of leader {} at epoch {}: {} rows read in {} ms, {} writes planned in {} ms, applied in {} ms";
    Object[] args = {
      fence.nodeId(),
      fence.epoch(),
      rows,
      (read - began) / 1_000_000,
      writes,
      (planned - read) / 1_000_000,
      (ticker.read() - planned) / 1_000_000
    };
    if (slow) {
      LOG.info(line, args);
    } else {
      LOG.debug(line, args);
    }
  }

  /** Each row the store could not read goes into the history once, for the operator to fix. */
  private void recordSkippedRows(LeaderFence fence) {
    SortedMap<String, String> skipped = store.skippedRows().reasons();
    for (Map.Entry<String, String> row : skipped.entrySet()) {
      synchronized (this) {
        if (reportedSkips.contains(row.getKey())) {
          continue;
        }
      }
      try {
        events.append(
            ClusterEvent.Kind.AGENT_ROW_SKIPPED,
            fence.epoch(),
            "agent row '"
                + row.getKey()
                + "' cannot be read and is skipped: "
                + row.getValue()
                + "; no pass places, frees or retires it: fix or delete it");
        synchronized (this) {
          reportedSkips.add(row.getKey());
        }
      } catch (RuntimeException e) {
        // Tried again on the next pass.
        LOG.debug("could not record the skipped agent row {}: {}", row.getKey(), e.toString());
      }
    }
  }

  private static boolean hasNewAgents(
      Map<String, Set<AgentUri>> wanted, List<AgentAssignment> rows) {
    Set<AgentUri> withRows = new HashSet<>();
    rows.forEach(row -> withRows.add(row.uri()));
    return wanted.values().stream().flatMap(Set::stream).anyMatch(uri -> !withRows.contains(uri));
  }

  private void apply(
      List<PlanAction> plan,
      List<AgentAssignment> rows,
      LeaderFence fence,
      MembershipView membership) {
    // A dead node's rows are freed before the placements are written: the placement's wake-up then
    // finds them claimable, instead of owned by the dead node until the next sweep tick.
    Set<AgentUri> freed = new HashSet<>();
    for (PlanAction action : plan) {
      if (action instanceof PlanAction.ReleaseFromDeadOwner dead) {
        AssignmentWrite result = store.releaseFromDeadOwner(dead.uri(), dead.deadOwner(), fence);
        if (result == AssignmentWrite.FENCED) {
          fenced(fence);
          return;
        }
        if (result == AssignmentWrite.APPLIED) {
          freed.add(dead.uri());
        }
      }
    }
    // Placements go in one fenced transaction: a cold start is one write, not one per agent.
    Map<AgentUri, @Nullable String> targets = new LinkedHashMap<>();
    Set<AgentUri> onlyIfUnowned = new HashSet<>();
    for (PlanAction action : plan) {
      if (action instanceof PlanAction.Place place) {
        targets.put(place.uri(), place.target());
        if (place.unowned()) {
          onlyIfUnowned.add(place.uri());
        }
      } else if (action instanceof PlanAction.Unplace unplace) {
        targets.put(unplace.uri(), null);
      }
    }
    reannounce(freed, rows, targets, onlyIfUnowned);
    // A row claimed between the snapshot and this write keeps its target: the plan counted its
    // re-targeting as free, and a hand-off of a running agent would exceed maxMovesPerPass.
    if (store.placeAll(targets, onlyIfUnowned, fence) == AssignmentWrite.FENCED) {
      fenced(fence);
      return;
    }
    for (PlanAction action : plan) {
      AssignmentWrite result =
          switch (action) {
            case PlanAction.Place place -> {
              if (place.move()) {
                events.record(
                    ClusterEvent.Kind.AGENT_MOVED,
                    place.uri(),
                    fence.epoch(),
                    "to " + named(place.target(), membership));
              }
              yield AssignmentWrite.APPLIED;
            }
            case PlanAction.Unplace unplace -> AssignmentWrite.APPLIED;
            case PlanAction.Retire retire -> store.retire(retire.uri(), fence);
            case PlanAction.ReleaseFromDeadOwner dead -> AssignmentWrite.APPLIED;
          };
      if (result == AssignmentWrite.FENCED) {
        fenced(fence);
        return;
      }
    }
  }

  /**
   * A freed row usually kept the target an earlier pass gave it (the pass that declared its owner
   * dead, before its may-run deadline), so this pass has no placement of its own for it and nothing
   * would wake that target. It is written again with the same target, only while still unowned, in
   * the pass's one placement transaction: one wake-up for every row freed, not one per release (a
   * wake-up per release made every node sweep a hundred times for one dead node's agents).
   */
  private static void reannounce(
      Set<AgentUri> freed,
      List<AgentAssignment> rows,
      Map<AgentUri, @Nullable String> targets,
      Set<AgentUri> onlyIfUnowned) {
    for (AgentAssignment row : rows) {
      if (freed.contains(row.uri()) && row.target() != null && !targets.containsKey(row.uri())) {
        targets.put(row.uri(), row.target());
        onlyIfUnowned.add(row.uri());
      }
    }
  }

  private static void fenced(LeaderFence fence) {
    LOG.warn(
        "leader {} at epoch {} was fenced during its agent pass; it stops",
        fence.nodeId(),
        fence.epoch());
  }

  /** A node as events show it: its name, with its incarnation id (names repeat across restarts). */
  private static String named(@Nullable String nodeId, MembershipView membership) {
    return membership.nodes().stream()
        .filter(n -> n.nodeId().equals(nodeId))
        .findFirst()
        .map(n -> n.name() + " (" + nodeId + ")")
        .orElse(String.valueOf(nodeId));
  }

  private static Set<AgentUri> wantedOf(AgentFamily family) {
    Set<AgentUri> agents = family.wantedAgents();
    for (AgentUri uri : agents) {
      if (!uri.scheme().equals(family.scheme())) {
        throw new IllegalStateException(
            "family '" + family.scheme() + "' listed " + uri + " of another scheme");
      }
    }
    return agents;
  }
}
