package io.tenure.jdbc;

import io.tenure.jdbc.internal.JdbcQueueStore;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The statements a {@link JdbcStore}'s queues run on its database, read-only, for benchmarks and
 * EXPLAIN: a benchmark that prepares {@link #claim()} runs the very text the store runs, so its
 * ceiling cannot drift from Tenure's. Not a way to change messages: the store's own checks (claim
 * tokens, fences, batch limits) are not applied here.
 */
public final class QueueStatements {
  private final JdbcQueueStore queues;

  private QueueStatements(JdbcQueueStore queues) {
    this.queues = queues;
  }

  /**
   * @return the statements of {@code store}'s queues
   */
  public static QueueStatements of(JdbcStore store) {
    return new QueueStatements(Objects.requireNonNull(store, "store").queueStore());
  }

  /**
   * The statement an unordered (or keyed-FIFO) claim runs first. On PostgreSQL it is the whole
   * claim: it chooses, locks and claims the rows and returns every column. Parameters: {@code
   * :queue}, {@code :window}, {@code :max}, {@code :node}, {@code :token}, {@code :lease}; {@link
   * #claimValues} gives them as the store binds them.
   */
  public Statement claim() {
    return new Statement(queues.exported("claim"));
  }

  /**
   * The claim the store runs first for a queue with no keyed message pending, where the database
   * has one (PostgreSQL): it claims only unkeyed rows, and nothing while a keyed row of the queue
   * is pending. Parameters as {@link #claim()}'s ({@code :window} unused).
   */
  public Optional<Statement> unkeyedClaim() {
    return Optional.ofNullable(queues.exported("unkeyedClaim")).map(Statement::new);
  }

  /**
   * A done batch's delete, for the rows {@code :ids} still in flight under {@code :token}; the
   * store runs it for a whole batch where it takes {@code = ANY(:ids)} (PostgreSQL), else for at
   * most 250 ids a statement, and checks the row count.
   */
  public Statement deleteIfHeld() {
    return new Statement(queues.exported("deleteIfHeld"));
  }

  /** The statement behind {@code QueueStore.stats()}; no parameters. */
  public Statement stats() {
    return new Statement(queues.exported("stats"));
  }

  /**
   * @return the values {@link #claim()} binds for a claim of {@code max} from {@code queue} by
   *     {@code nodeId} under {@code token} for {@code lease}
   */
  public static Map<String, Object> claimValues(
      String queue, int max, String nodeId, String token, Duration lease) {
    return JdbcQueueStore.claimValues(queue, max, nodeId, token, lease);
  }

  /** One statement: its text with named parameters, and how to bind them. */
  public static final class Statement {
    private final JdbcQueueStore.Exported statement;

    private Statement(JdbcQueueStore.Exported statement) {
      this.statement = statement;
    }

    /**
     * @return the text with named parameters ({@code :queue}), as the store's source holds it
     */
    public String text() {
      return statement.text();
    }

    /**
     * @param values a value per parameter name: text, numbers, a {@link Duration} (bound as
     *     microseconds) or a list of ids (one placeholder each)
     * @return the JDBC text for those values
     * @throws IllegalArgumentException if a parameter has no value
     */
    public String jdbcText(Map<String, ?> values) {
      return statement.jdbcText(values);
    }

    /**
     * Binds {@code values} to a statement prepared from {@link #jdbcText} of values of the same
     * shape (the same list sizes).
     *
     * @throws SQLException if the driver refuses a value
     * @throws IllegalArgumentException if a parameter has no value
     */
    public void bind(PreparedStatement prepared, Map<String, ?> values) throws SQLException {
      statement.bind(prepared, values);
    }
  }
}
