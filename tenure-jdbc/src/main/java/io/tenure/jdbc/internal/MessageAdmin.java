package io.tenure.jdbc.internal;

import io.tenure.DeleteOutcome;
import io.tenure.MessageStatus;
import io.tenure.RetryOutcome;
import io.tenure.RunNowOutcome;
import io.tenure.jdbc.internal.NamedStatement.Params;
import io.tenure.spi.MessageAdminStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * The operator's actions on one message (SPEC §12.7). A delete or a run-now is one statement
 * conditional on the row's status, and only when it changed nothing is the status read, in the same
 * transaction, to say why: a claim that commits first wins, and the statement then finds the row in
 * flight and leaves it. A retry is the dead-letter replay's path ({@link DeadLetters#retry}).
 */
final class MessageAdmin implements MessageAdminStore {
  private final QueueContext context;
  private final DeadLetters deadLetters;
  private final NamedStatement deleteUnlessInFlight;
  private final NamedStatement runNow;
  private final NamedStatement lockStatus;

  MessageAdmin(QueueContext context, DeadLetters deadLetters) {
    this.context = context;
    this.deadLetters = deadLetters;
    this.deleteUnlessInFlight = context.statement(context.sql().deleteUnlessInFlight());
    this.runNow = context.statement(context.sql().runNow());
    this.lockStatus = context.statement(context.sql().lockStatus());
  }

  @Override
  public DeleteOutcome delete(long id) {
    return context
        .jdbc()
        .write(
            "delete message " + id,
            connection -> {
              if (changed(connection, deleteUnlessInFlight, id, "deleting")) {
                return DeleteOutcome.DELETED;
              }
              // Every status but INFLIGHT is deleted, so a row that is still there was in flight.
              return status(connection, id).isEmpty()
                  ? DeleteOutcome.NOT_FOUND
                  : DeleteOutcome.IN_FLIGHT;
            });
  }

  @Override
  public RunNowOutcome runNow(long id) {
    return context
        .jdbc()
        .write(
            "run message " + id + " now",
            connection -> {
              if (changed(connection, runNow, id, "running now")) {
                return RunNowOutcome.AVAILABLE_NOW;
              }
              Optional<MessageStatus> status = status(connection, id);
              if (status.isEmpty()) {
                return RunNowOutcome.NOT_FOUND;
              }
              return status.get() == MessageStatus.PENDING
                  ? RunNowOutcome.ALREADY_AVAILABLE
                  : RunNowOutcome.NOT_PENDING;
            });
  }

  @Override
  public RetryOutcome retry(long id) {
    return deadLetters.retry(id);
  }

  /**
   * @return whether the statement on row {@code id} changed it (1 row); 0 rows is a refusal
   */
  private static boolean changed(
      Connection connection, NamedStatement statement, long id, String what) throws SQLException {
    int rows = statement.update(connection, Params.of("id", id));
    if (rows > 1) {
      throw new IllegalStateException(
          what + " message " + id + " changed " + rows + " rows, which indicates a bug");
    }
    return rows == 1;
  }

  private Optional<MessageStatus> status(Connection connection, long id) throws SQLException {
    List<String> status =
        lockStatus.query(connection, Params.of("id", id), rows -> rows.getString(1));
    return status.stream().findFirst().map(MessageStatus::valueOf);
  }
}
