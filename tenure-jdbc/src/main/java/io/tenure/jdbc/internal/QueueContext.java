package io.tenure.jdbc.internal;

import java.util.Map;

/**
 * What the queue store's parts share: the database access, its statements with their constants
 * resolved, the row mapper and the fences.
 */
record QueueContext(
    Jdbc jdbc, QueueSql sql, Map<String, String> constants, MessageRows rows, Fences fences) {

  /** A statement of this store, its constants (tables, clock, statuses) substituted once. */
  NamedStatement statement(String template) {
    return NamedStatement.of(template, constants);
  }

  Dialect dialect() {
    return jdbc.dialect();
  }
}
