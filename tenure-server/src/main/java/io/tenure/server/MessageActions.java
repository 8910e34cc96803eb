package io.tenure.server;

import io.tenure.CancelOutcome;
import io.tenure.spi.Store;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The API's actions on one message (SPEC §12.3, §12.7), on the store: any node may. Each is the
 * store's one conditional write; a refusal is {@code 409} naming the message's status, and changed
 * nothing.
 */
final class MessageActions {
  private final Store store;

  MessageActions(Store store) {
    this.store = store;
  }

  /**
   * Cancels one message (SPEC §12.3).
   *
   * @return {@code {"id", "cancelled": "PENDING" or "RUNNING"}}
   * @throws AdminException 404 for no such message, 409 for one already finished
   */
  Map<String, Object> cancel(long id) {
    CancelOutcome outcome = store.queues().cancel(id);
    return switch (outcome) {
      case NOT_FOUND -> throw notFound(id);
      case FINISHED -> throw refused(id, "only pending or running messages can be cancelled");
      case CANCELLED -> Map.of("id", id, "cancelled", "PENDING");
      case CANCELLED_RUNNING -> Map.of("id", id, "cancelled", "RUNNING");
    };
  }

  /**
   * Deletes one message that is not in flight (SPEC §12.7).
   *
   * @return {@code {"id", "deleted": true}}
   * @throws AdminException 404 for no such message, 409 for one in flight
   */
  Map<String, Object> delete(long id) {
    return switch (store.queues().admin().delete(id)) {
      case NOT_FOUND -> throw notFound(id);
      case IN_FLIGHT ->
          throw AdminException.conflict(
              "message "
                  + id
                  + " is in flight; cancel it first (POST /api/messages/"
                  + id
                  + "/cancel)");
      case DELETED -> result(id, "deleted", true);
    };
  }

  /**
   * Makes one waiting pending message available now (SPEC §12.7).
   *
   * @return {@code {"id", "availableNow": true, "changed"}}: changed false if it was available
   * @throws AdminException 404 for no such message, 409 for one that is not pending
   */
  Map<String, Object> runNow(long id) {
    Map<String, Object> result = result(id, "availableNow", true);
    switch (store.queues().admin().runNow(id)) {
      case NOT_FOUND -> throw notFound(id);
      case NOT_PENDING -> throw refused(id, "only pending messages can be run now");
      case AVAILABLE_NOW -> result.put("changed", true);
      case ALREADY_AVAILABLE -> result.put("changed", false);
    }
    return result;
  }

  /**
   * Retries one dead or cancelled message (SPEC §12.7).
   *
   * @return {@code {"id", "retried": true}}
   * @throws AdminException 404 for no such message, 409 for one that is not dead or cancelled
   */
  Map<String, Object> retry(long id) {
    return switch (store.queues().admin().retry(id)) {
      case NOT_FOUND -> throw notFound(id);
      case NOT_DEAD_OR_CANCELLED ->
          throw refused(id, "only dead or cancelled messages can be retried");
      case RETRIED -> result(id, "retried", true);
    };
  }

  private static Map<String, Object> result(long id, String field, Object value) {
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("id", id);
    result.put(field, value);
    return result;
  }

  private static AdminException notFound(long id) {
    return AdminException.notFound("no message " + id);
  }

  /** A refusal naming the status the message has now; nothing changed. */
  private AdminException refused(long id, String rule) {
    String status = store.queues().find(id).map(m -> m.status().name()).orElse("gone");
    return AdminException.conflict("message " + id + " is " + status + "; " + rule);
  }
}
