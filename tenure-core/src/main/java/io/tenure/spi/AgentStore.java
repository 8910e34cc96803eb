package io.tenure.spi;

import io.tenure.AgentAssignment;
import io.tenure.AgentUri;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;

/**
 * Agent assignment rows (SPEC §5): {@code agent_uri} (key), {@code owner} (the node running it, or
 * null), {@code target} (where the leader wants it), {@code epoch} (bumped by every claim).
 *
 * <p>Who writes what: the leader places, retires and frees rows, each write fenced by its epoch and
 * failing closed. A node changes only rows it owns ({@code WHERE owner = me}), or claims a row no
 * node owns. Losing a race is a result (false, empty, {@code NOT_ELIGIBLE}), never an exception,
 * and never an overwrite of another node's row. The one upsert, {@link #upsert}, is for operators
 * and imports and is documented as last-writer-wins.
 *
 * <p><b>Epochs outlive rows.</b> The ownership epoch is an agent's fencing token, so it MUST grow
 * strictly from one owner to the next, also across a row deleted behind the store's back, a retire
 * and a re-add. A store MUST keep, per agent and apart from the row, an <em>epoch record</em>: the
 * last epoch it issued and the node holding it (cleared when that node releases the row, or the
 * leader frees it). Only claims and restores issue epochs, each above both the row's epoch and the
 * record's, and each records it in the same transaction; a node is given back an epoch only if the
 * record says that node holds it. So no epoch is ever issued at or below one already issued to
 * another owner, and no two nodes hold one epoch, whatever operators wrote into the row.
 */
public interface AgentStore {
  /**
   * @return every row, ordered by URI
   */
  List<AgentAssignment> readAll();

  /**
   * @return the row, if any
   */
  Optional<AgentAssignment> read(AgentUri uri);

  /**
   * What one node's sweep needs, without reading every row: the rows this node owns or is the
   * target of, and the rows of {@code alsoThese} (the agents it runs), whoever owns them.
   *
   * @param alsoThese agents whose rows are wanted too; a missing row is simply absent
   * @return the rows, each once, ordered by URI
   */
  List<AgentAssignment> readFor(String nodeId, java.util.Collection<AgentUri> alsoThese);

  /**
   * Leader-only: sets the target of an agent, inserting a row if none exists. A null target clears
   * the target of an existing row (its owner then stops it) and never inserts. MUST NOT change the
   * owner of an existing row. An inserted row takes owner and epoch from the agent's epoch record
   * (unowned at epoch 0 if it has none): a row deleted under a running agent comes back to the node
   * that holds its epoch, and a hand-off moves it from there.
   *
   * @return {@code APPLIED}; {@code NOT_ELIGIBLE} for a null target and no row; {@code FENCED} if
   *     the fence is not current (checked in the same SQL)
   */
  AssignmentWrite place(AgentUri uri, @Nullable String target, LeaderFence fence);

  /**
   * Leader-only: {@link #place} for many agents in one transaction, the fence checked in it: all or
   * nothing. A null target clears an existing row's target and never inserts; an inserted row is as
   * {@link #place} inserts it.
   *
   * <p>The agents in {@code onlyIfUnowned} were unowned in the snapshot the leader planned from, so
   * their re-targeting was planned as free (it stops nothing) and not counted as a move. For them
   * an existing row's target MUST change only if no node owns the row at the time of the write: a
   * row claimed since the snapshot is left as it is, or the pass would hand off more running agents
   * than {@code maxMovesPerPass} allows (SPEC §5.2). Skipping such a row is not a failure.
   *
   * @param targets the new target of each agent
   * @param onlyIfUnowned agents of {@code targets} whose existing row changes only while unowned
   * @return {@code APPLIED}, or {@code FENCED} with nothing written
   */
  AssignmentWrite placeAll(
      java.util.Map<AgentUri, @Nullable String> targets,
      java.util.Set<AgentUri> onlyIfUnowned,
      LeaderFence fence);

  /**
   * Subscribes to placement notifications, where the store has them: PostgreSQL {@code
   * LISTEN/NOTIFY} and the in-memory store. Once {@link #placeAll} committed a write of at least
   * one agent it MUST notify every subscriber on the same tables, in any process, and only after
   * the commit (PostgreSQL: {@code pg_notify} in the transaction); a fenced {@code placeAll} MUST
   * NOT notify. Notifications are hints that let nodes sweep before their next tick: one may be
   * lost (a reconnect), and nodes poll on their sweep interval either way.
   *
   * @param onPlaced called with the placing leader's epoch after its placement committed; must
   *     return quickly (it runs on the listener's thread)
   * @return a handle that ends the subscription, or empty if the store cannot notify
   */
  java.util.Optional<AutoCloseable> listen(java.util.function.LongConsumer onPlaced);

  /**
   * Leader-only: deletes the row of an agent no family wants any more, only while no node owns it.
   * The agent's epoch record stays: re-added, it continues above its last epoch.
   *
   * @return {@code APPLIED}; {@code NOT_ELIGIBLE} if a node still owns it or there is no row;
   *     {@code FENCED}
   */
  AssignmentWrite retire(AgentUri uri, LeaderFence fence);

  /**
   * Leader-only: frees a row owned by {@code deadOwner} ({@code owner := null}), only once that
   * node's self-fence deadline has passed by the database clock: its node row is gone, or its last
   * heartbeat plus its {@code selfFenceAfter} is in the past. Before that, the dead node may still
   * be running the agent. In the same transaction the epoch record stops naming {@code deadOwner}.
   *
   * @return {@code APPLIED}; {@code NOT_ELIGIBLE} (another owner, or the deadline not yet passed);
   *     {@code FENCED}
   */
  AssignmentWrite releaseFromDeadOwner(AgentUri uri, String deadOwner, LeaderFence fence);

  /**
   * Owner-scoped: {@code owner := null} where {@code owner = nodeId}. Never fenced: returning an
   * agent to the free state is always safe. In the same transaction the epoch record stops naming
   * {@code nodeId}.
   *
   * @return true if this call freed the row
   */
  boolean release(AgentUri uri, String nodeId);

  /**
   * Takes a row that no node owns and that targets {@code nodeId} and is not paused: {@code owner
   * := nodeId}, and an epoch above the row's and the record's ({@code max + 1}), recorded as held
   * by {@code nodeId}. A row this node already owns keeps the epoch the record says it holds. A row
   * that names this node as owner although the record says another node holds its epoch (written by
   * hand) MUST go back to that node, at that epoch, and the call returns empty: it is then handed
   * off like any move, never run by two nodes at one epoch. A row that names this node while no
   * node holds its epoch gets a new epoch as a free row would.
   *
   * @return the ownership epoch if {@code nodeId} owns the row after the call; empty if a peer owns
   *     it, it targets another node, it is paused, or there is no row
   */
  OptionalLong claim(AgentUri uri, String nodeId);

  /**
   * {@link #claim} for many agents in one transaction: a node's sweep claims its whole backlog in
   * one write, not one per agent. Each row is judged on its own, as {@link #claim} would, against
   * its epoch record read in the same transaction after the row was locked.
   *
   * @return the ownership epoch of each of {@code uris} that {@code nodeId} owns after the call;
   *     the others are absent
   */
  java.util.Map<AgentUri, Long> claimAll(java.util.Collection<AgentUri> uris, String nodeId);

  /**
   * Restores a row for an agent this node runs but whose row is gone: inserts {@code owner = target
   * = nodeId} only if no row exists (race-safe insert-if-absent, never an upsert), then reads who
   * owns it. The restored row keeps the epoch the record says {@code nodeId} holds; if the record
   * says another node holds the agent's epoch, the row is restored for that node (owner and target,
   * at its epoch) and the call returns empty: the caller's copy is the stale one. If no node holds
   * it, the epoch is the record's plus 1, recorded as held by {@code nodeId}.
   *
   * @return the ownership epoch if {@code nodeId} owns the row after the call at the epoch its
   *     record issued to it; empty otherwise (the caller then stops its copy)
   */
  OptionalLong claimIfAbsent(AgentUri uri, String nodeId);

  /**
   * Owner-scoped delete: {@code WHERE agent_uri = ? AND owner = nodeId}. A row owned by another
   * node is left alone.
   *
   * @return true if this call deleted the row
   */
  boolean removeOwned(AgentUri uri, String nodeId);

  /**
   * @return true if {@code nodeId} owns the row at exactly {@code epoch}
   */
  boolean stillOwner(AgentUri uri, String nodeId, long epoch);

  /**
   * Operator control: pauses or resumes an agent (a paused agent cannot be claimed).
   *
   * @return true if the row exists
   */
  boolean setPaused(AgentUri uri, boolean paused);

  /**
   * Operator control: pins an agent to a node name, or unpins it with null.
   *
   * @return true if the row exists
   */
  boolean pin(AgentUri uri, @Nullable String nodeName);

  /**
   * Rows that reads skipped (see {@link SkippedRows}). A row that cannot be read as an assignment
   * MUST NOT fail a read: every read leaves it out, counts it here and logs a warning naming it (at
   * least the first time this store skips it). Such a row is never claimed, placed or retired; it
   * is an operator's to fix or delete.
   *
   * @return what this store's reads skipped since it was opened; {@link SkippedRows#NONE} if
   *     nothing
   */
  SkippedRows skippedRows();

  /**
   * Writes the whole row whatever is stored: <strong>last writer wins</strong>. For operator
   * repairs and imports only; the runtime never calls it. MUST NOT change the epoch record: an
   * owner or epoch written here is not an issued one (see {@link #claim} for what the named owner
   * does).
   */
  void upsert(AgentAssignment assignment);
}
