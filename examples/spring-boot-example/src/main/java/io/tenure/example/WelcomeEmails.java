package io.tenure.example;

import io.tenure.Delivery;
import io.tenure.spring.TenureHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Sends the welcome emails (here: records them). Delivery is at least once, so the handler is
 * idempotent: the message id is the primary key of what it records, and a second delivery of one
 * message records nothing.
 */
@Component
public class WelcomeEmails {
  private static final Logger LOG = LoggerFactory.getLogger(WelcomeEmails.class);

  private final JdbcTemplate jdbc;
  private final String table;

  public WelcomeEmails(
      JdbcTemplate jdbc, @Value("${example.table-prefix:example_}") String tablePrefix) {
    this.jdbc = jdbc;
    this.table = tablePrefix + "welcome_emails";
    jdbc.execute(
        "CREATE TABLE IF NOT EXISTS "
            + table
            + " (message_id BIGINT PRIMARY KEY, recipient TEXT NOT NULL)");
  }

  @TenureHandler(queue = Signups.WELCOME_EMAILS, concurrency = "4")
  public void send(Delivery delivery) {
    int recorded =
        jdbc.update(
            "INSERT INTO "
                + table
                + " (message_id, recipient) VALUES (?, ?) ON CONFLICT DO NOTHING",
            delivery.message().id(),
            delivery.text());
    if (recorded == 1) {
      LOG.info("welcome email to {} (message {})", delivery.text(), delivery.message().id());
    } else {
      LOG.info("welcome email {} was sent before; not again", delivery.message().id());
    }
  }

  public boolean sentTo(String name) {
    Integer count =
        jdbc.queryForObject(
            "SELECT COUNT(*) FROM " + table + " WHERE recipient = ?", Integer.class, name);
    return count != null && count > 0;
  }
}
