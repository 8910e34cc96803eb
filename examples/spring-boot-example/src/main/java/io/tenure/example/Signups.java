package io.tenure.example;

import io.tenure.OutgoingMessage;
import io.tenure.spring.TenureQueues;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Signs users up: their row and their welcome email commit together, or not at all. */
@Service
public class Signups {
  /** The queue the welcome emails go through; {@link WelcomeEmails} handles it. */
  static final String WELCOME_EMAILS = "welcome-emails";

  private final JdbcTemplate jdbc;
  private final TenureQueues queues;
  private final String table;

  public Signups(
      JdbcTemplate jdbc,
      TenureQueues queues,
      @Value("${example.table-prefix:example_}") String tablePrefix) {
    this.jdbc = jdbc;
    this.queues = queues;
    this.table = tablePrefix + "signups";
    jdbc.execute(
        "CREATE TABLE IF NOT EXISTS "
            + table
            + " (name TEXT PRIMARY KEY, signed_up_at TIMESTAMPTZ NOT NULL DEFAULT now())");
  }

  /**
   * Inserts the user and enqueues their welcome email in one transaction: the enqueue joins it.
   *
   * @param failAfterwards throw once both are written, to show that a rollback takes the message
   *     back too
   * @return the welcome email's message id
   */
  @Transactional
  public long signUp(String name, boolean failAfterwards) {
    jdbc.update("INSERT INTO " + table + " (name) VALUES (?)", name);
    long id = queues.enqueue(WELCOME_EMAILS, OutgoingMessage.text(name).key("user-" + name));
    if (failAfterwards) {
      throw new SignupFailed("the sign-up of " + name + " failed after its enqueue; rolled back");
    }
    return id;
  }

  public boolean exists(String name) {
    Integer count =
        jdbc.queryForObject(
            "SELECT COUNT(*) FROM " + table + " WHERE name = ?", Integer.class, name);
    return count != null && count > 0;
  }

  public long count() {
    Long count = jdbc.queryForObject("SELECT COUNT(*) FROM " + table, Long.class);
    return count == null ? 0 : count;
  }

  /** A sign-up that failed; the controller answers 409. */
  public static final class SignupFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SignupFailed(String message) {
      super(message);
    }
  }
}
