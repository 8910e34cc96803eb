package io.tenure.jdbc.internal;

import io.tenure.AgentAssignment;
import io.tenure.AgentUri;
import io.tenure.spi.AgentStore;
import io.tenure.spi.AssignmentWrite;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.SkippedRows;
import io.tenure.spi.TablePrefix;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.LongConsumer;
import org.jspecify.annotations.Nullable;

/**
 * Agent assignments in {@code <prefix>agents}. Reads and row mapping live in {@link AgentRows}; the
 * leader's writes, which embed the lease fence in their own SQL, in {@link AgentPlacements}; node
 * writes, scoped by {@code owner_node = me}, and operator writes in {@link AgentWrites}; claims and
 * restores, which issue ownership epochs from each agent's epoch record, in {@link AgentClaims}.
 */
public final class JdbcAgentStore implements AgentStore {
  private final Jdbc jdbc;
  private final Dialect dialect;
  private final AgentRows rows;
  private final AgentClaims claims;
  private final AgentPlacements placements;
  private final AgentWrites writes;
  private final Fences fences;
  private final Dialect.ConnectionSource sessions;
  private final Object sessionSource;
  private final String channel;

  /**
   * @param sessions opens connections outside the pools, for PostgreSQL's {@code LISTEN}
   * @param sessionSource identifies the database {@code sessions} reach: stores with an equal one
   *     share one {@code LISTEN} connection in this process
   */
  public JdbcAgentStore(
      Jdbc jdbc, TablePrefix prefix, Dialect.ConnectionSource sessions, Object sessionSource) {
    this.jdbc = jdbc;
    this.dialect = jdbc.dialect();
    this.sessions = sessions;
    this.sessionSource = sessionSource;
    this.channel = prefix.value() + "agents";
    this.rows = new AgentRows(prefix);
    this.fences = new Fences(dialect, prefix);
    this.claims = new AgentClaims(jdbc, prefix);
    this.placements = new AgentPlacements(jdbc, prefix, channel, fences, claims, rows);
    this.writes = new AgentWrites(jdbc, prefix, claims);
  }

  @Override
  public List<AgentAssignment> readAll() {
    return jdbc.read("read agent assignments", rows::readAll);
  }

  @Override
  public Optional<AgentAssignment> read(AgentUri uri) {
    return jdbc.read("read agent " + uri, connection -> rows.find(connection, uri));
  }

  @Override
  public List<AgentAssignment> readFor(String nodeId, Collection<AgentUri> alsoThese) {
    return jdbc.read(
        "read agents of node " + nodeId, connection -> rows.readFor(connection, nodeId, alsoThese));
  }

  @Override
  public SkippedRows skippedRows() {
    return rows.skippedRows();
  }

  @Override
  public AssignmentWrite place(AgentUri uri, @Nullable String target, LeaderFence leader) {
    return placements.place(uri, target, leader);
  }

  @Override
  public AssignmentWrite placeAll(
      Map<AgentUri, @Nullable String> targets, Set<AgentUri> onlyIfUnowned, LeaderFence leader) {
    return placements.placeAll(targets, onlyIfUnowned, leader);
  }

  @Override
  public Optional<AutoCloseable> listen(LongConsumer onPlaced) {
    if (!dialect.supportsNotify()) {
      return Optional.empty();
    }
    return Optional.of(
        SharedListeners.subscribe(
            sessionSource, sessions, channel, epoch -> onPlaced.accept(Long.parseLong(epoch))));
  }

  @Override
  public AssignmentWrite retire(AgentUri uri, LeaderFence leader) {
    return placements.retire(uri, leader);
  }

  @Override
  public AssignmentWrite releaseFromDeadOwner(AgentUri uri, String deadOwner, LeaderFence leader) {
    return placements.releaseFromDeadOwner(uri, deadOwner, leader);
  }

  @Override
  public boolean release(AgentUri uri, String nodeId) {
    return writes.release(uri, nodeId);
  }

  @Override
  public OptionalLong claim(AgentUri uri, String nodeId) {
    Long epoch = claims.claimAll(List.of(uri), nodeId).get(uri);
    return epoch == null ? OptionalLong.empty() : OptionalLong.of(epoch);
  }

  @Override
  public Map<AgentUri, Long> claimAll(Collection<AgentUri> uris, String nodeId) {
    if (uris.isEmpty()) {
      return Map.of();
    }
    return claims.claimAll(List.copyOf(new LinkedHashSet<>(uris)), nodeId);
  }

  @Override
  public OptionalLong claimIfAbsent(AgentUri uri, String nodeId) {
    return claims.claimIfAbsent(uri, nodeId);
  }

  @Override
  public boolean removeOwned(AgentUri uri, String nodeId) {
    return writes.removeOwned(uri, nodeId);
  }

  @Override
  public boolean stillOwner(AgentUri uri, String nodeId, long epoch) {
    return jdbc.read(
        "check ownership of agent " + uri,
        connection -> fences.agentHolds(connection, uri, nodeId, epoch, false));
  }

  @Override
  public boolean setPaused(AgentUri uri, boolean paused) {
    return writes.setPaused(uri, paused);
  }

  @Override
  public boolean pin(AgentUri uri, @Nullable String nodeName) {
    return writes.pin(uri, nodeName);
  }

  @Override
  public void upsert(AgentAssignment assignment) {
    writes.upsert(assignment);
  }
}
