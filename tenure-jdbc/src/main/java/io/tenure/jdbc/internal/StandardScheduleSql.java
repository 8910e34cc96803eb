package io.tenure.jdbc.internal;

/** The schedule statements every database runs as written (standard SQL, the dialect's clock). */
abstract class StandardScheduleSql implements ScheduleSql {
  /** Every column a read maps, in {@link JdbcScheduleStore}'s order. */
  static final String COLUMNS =
      "name, "
          + DEFINITION
          + ", paused, paused_at, next_fire_at, last_fire_at, last_slot_at, last_message_id,"
          + " fired, skipped, version";

  /** The values of {@link ScheduleSql#DEFINITION}, by name. */
  static final String DEFINITION_VALUES =
      ":kind, :expression, :interval_us, :anchor_at, :zone, :queue, :msg_key, :payload,"
          + " :content_type, :headers, :priority, :max_attempts, :missed, :missed_after_us,"
          + " :while_paused, :jitter_us, :fingerprint";

  /** The insert's column list and values; each database adds how it treats a present name. */
  static final String INSERT =
      "INSERT INTO ${schedules} (name, "
          + DEFINITION
          + ", paused, next_fire_at, fired, skipped, version) VALUES (:name, "
          + DEFINITION_VALUES
          + ", :paused, :next, 0, 0, 1)";

  @Override
  public boolean insertReportsDuplicates() {
    return false;
  }

  @Override
  public String fingerprint() {
    return "SELECT fingerprint FROM ${schedules} WHERE name = :name ${for_update}";
  }

  @Override
  public String redefine() {
    return """
        UPDATE ${schedules} SET kind = :kind, expression = :expression,
          interval_us = :interval_us, anchor_at = :anchor_at, zone = :zone, queue = :queue,
          msg_key = :msg_key, payload = :payload, content_type = :content_type,
          headers = :headers, priority = :priority, max_attempts = :max_attempts,
          missed = :missed, missed_after_us = :missed_after_us, while_paused = :while_paused,
          jitter_us = :jitter_us, fingerprint = :fingerprint, next_fire_at = :next,
          version = version + 1
        WHERE name = :name
        """;
  }

  @Override
  public String read() {
    return "SELECT " + COLUMNS + ", ${now} AS read_at FROM ${schedules} WHERE name = :name";
  }

  @Override
  public String list() {
    return "SELECT " + COLUMNS + ", ${now} AS read_at FROM ${schedules} ORDER BY name LIMIT :limit";
  }

  @Override
  public String due() {
    return "SELECT "
        + COLUMNS
        + ", ${now} AS read_at FROM ${schedules}"
        + " WHERE paused = :running AND next_fire_at <= ${now}"
        + " ORDER BY next_fire_at, name LIMIT :limit";
  }

  @Override
  public String nextDue() {
    return "SELECT MIN(next_fire_at) AS next_fire_at FROM ${schedules} WHERE paused = :running";
  }

  @Override
  public String fence() {
    return "${leader_fence}";
  }

  @Override
  public String fired() {
    return """
        UPDATE ${schedules} SET next_fire_at = :next, fired = fired + :fired,
          skipped = skipped + :skipped, version = version + 1
        WHERE name = :name AND version = :version AND EXISTS (${leader_fence})
        """;
  }

  @Override
  public String lastMessage() {
    return """
        UPDATE ${schedules} SET last_fire_at = ${now}, last_slot_at = :slot,
          last_message_id = :id
        WHERE name = :name
        """;
  }

  @Override
  public String pause() {
    return """
        UPDATE ${schedules} SET paused = :paused, paused_at = ${now}, version = version + 1
        WHERE name = :name AND paused = :running
        """;
  }

  @Override
  public String resume() {
    return """
        UPDATE ${schedules} SET paused = :running, paused_at = NULL,
          /*if next*/ next_fire_at = :next, /*end*/ version = version + 1
        WHERE name = :name AND paused = :paused
        """;
  }

  @Override
  public String triggered() {
    return """
        UPDATE ${schedules} SET last_fire_at = ${now}, last_message_id = :id,
          version = version + 1
        WHERE name = :name
        """;
  }

  @Override
  public String delete() {
    return "DELETE FROM ${schedules} WHERE name = :name";
  }
}
