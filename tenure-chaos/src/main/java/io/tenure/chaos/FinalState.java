package io.tenure.chaos;

import io.tenure.ScheduleInfo;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * What the harness reads from the tables after the quiet period that follows the last fault: the
 * other half of the checker's input, beside the history.
 *
 * @param messageStatus message id to its status ({@code PENDING}, {@code INFLIGHT}, {@code DEAD} or
 *     {@code DONE}) for every message still in the messages table; a message that is absent was
 *     deleted (done without retention)
 * @param expectedAgents the URIs of every agent the families say should exist
 * @param agentOwners agent URI to the NAME of the node its row names as owner; absent or null if
 *     the agent is unowned
 * @param liveNodes the names of the nodes that are {@code ACTIVE} at the end
 * @param expectedSchedules the names of the schedules every node declares
 * @param schedules every schedule row, read before {@code slotMessages}: every slot before a row's
 *     next slot was fired (or skipped) in the transaction that enqueued its message, so that
 *     message is in {@code slotMessages} unless it was deleted
 * @param slotMessages message id to dedupe key, for every message of the schedules' queue still in
 *     the table (done ones are kept)
 */
public record FinalState(
    Map<Long, String> messageStatus,
    Set<String> expectedAgents,
    Map<String, @Nullable String> agentOwners,
    Set<String> liveNodes,
    Set<String> expectedSchedules,
    List<ScheduleInfo> schedules,
    Map<Long, String> slotMessages) {

  /** The statuses a message row can have (SPEC §6); a deleted message is absent instead. */
  public static final Set<String> STATUSES =
      Set.of("PENDING", "INFLIGHT", "DEAD", "DONE", "CANCELLED");

  /**
   * Checks and copies the tables' contents.
   *
   * @throws IllegalArgumentException if a status is not one of {@link #STATUSES}, naming the
   *     message
   * @throws NullPointerException if a collection, a message id or status, an agent or a node name
   *     is null
   */
  public FinalState {
    messageStatus.forEach(FinalState::checkStatus);
    messageStatus = Map.copyOf(messageStatus);
    expectedAgents = Set.copyOf(expectedAgents);
    agentOwners = Collections.unmodifiableMap(new TreeMap<>(agentOwners));
    liveNodes = Set.copyOf(liveNodes);
    expectedSchedules = Set.copyOf(expectedSchedules);
    schedules = List.copyOf(schedules);
    slotMessages = Map.copyOf(slotMessages);
  }

  /** The tables of a run without schedules. */
  public FinalState(
      Map<Long, String> messageStatus,
      Set<String> expectedAgents,
      Map<String, @Nullable String> agentOwners,
      Set<String> liveNodes) {
    this(messageStatus, expectedAgents, agentOwners, liveNodes, Set.of(), List.of(), Map.of());
  }

  private static void checkStatus(Long message, String status) {
    Objects.requireNonNull(message, "message id");
    Objects.requireNonNull(status, () -> "status of message " + message);
    if (!STATUSES.contains(status)) {
      throw new IllegalArgumentException(
          "message " + message + " has status " + status + "; expected one of " + STATUSES);
    }
  }

  /**
   * @param message a message id
   * @return the message's final status, or null if it was deleted
   */
  @Nullable String statusOf(long message) {
    return messageStatus.get(message);
  }

  /**
   * @param agent an agent URI
   * @return the name of the node the agent's row names at the end, or null if unowned
   */
  @Nullable String ownerOf(String agent) {
    return agentOwners.get(agent);
  }
}
