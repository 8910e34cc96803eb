package io.tenure.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.UnsupportedDatabaseException;
import java.lang.reflect.Proxy;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/**
 * Detection refuses servers older than the versions Tenure advertises. No old server runs here, so
 * the decision is fed metadata from a fake.
 */
class DialectsTest {

  @Test
  void the_oldest_supported_version_of_each_product_is_accepted() throws SQLException {
    assertThat(Dialects.detect(metadata("SQLite", "3.42.0", 3, 42)).name()).isEqualTo("sqlite");
    assertThat(Dialects.detect(metadata("PostgreSQL", "15.0", 15, 0)).name())
        .isEqualTo("postgresql");
    assertThat(Dialects.detect(metadata("MariaDB", "10.6.0-MariaDB", 10, 6)).name())
        .isEqualTo("mariadb");
    assertThat(Dialects.detect(metadata("MySQL", "8.0.11", 8, 0)).name()).isEqualTo("mysql");
  }

  @Test
  void newer_majors_are_accepted_whatever_their_minor() throws SQLException {
    assertThat(Dialects.detect(metadata("PostgreSQL", "17.2", 17, 2)).name())
        .isEqualTo("postgresql");
    assertThat(Dialects.detect(metadata("MariaDB", "11.0.2-MariaDB", 11, 0)).name())
        .isEqualTo("mariadb");
    assertThat(Dialects.detect(metadata("SQLite", "4.0.0", 4, 0)).name()).isEqualTo("sqlite");
  }

  @Test
  void an_older_server_is_refused_naming_the_version_found_and_the_minimum() {
    assertRefused(metadata("SQLite", "3.41.2", 3, 41), "SQLite 3.41.2", "SQLite 3.42");
    assertRefused(metadata("PostgreSQL", "14.11", 14, 11), "PostgreSQL 14.11", "PostgreSQL 15");
    assertRefused(
        metadata("MariaDB", "10.5.23-MariaDB", 10, 5), "MariaDB 10.5.23-MariaDB", "MariaDB 10.6");
    assertRefused(metadata("MySQL", "5.7.44", 5, 7), "MySQL 5.7.44", "MySQL 8.0");
  }

  @Test
  void an_unknown_product_is_refused_naming_it() {
    assertThatThrownBy(() -> Dialects.detect(metadata("H2", "2.3.232", 2, 3)))
        .isInstanceOf(UnsupportedDatabaseException.class)
        .hasMessageContaining("'H2 2.3.232'")
        .hasMessageContaining(Dialects.SUPPORTED);
  }

  private static void assertRefused(DatabaseMetaData metadata, String found, String minimum) {
    assertThatThrownBy(() -> Dialects.detect(metadata))
        .isInstanceOf(UnsupportedDatabaseException.class)
        .hasMessageContaining("found '" + found + "'")
        .hasMessageContaining("needs " + minimum + " or newer");
  }

  /** Metadata that answers the four questions detection asks and refuses every other. */
  private static DatabaseMetaData metadata(String product, String version, int major, int minor) {
    return (DatabaseMetaData)
        Proxy.newProxyInstance(
            DialectsTest.class.getClassLoader(),
            new Class<?>[] {DatabaseMetaData.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "getDatabaseProductName" -> product;
                  case "getDatabaseProductVersion" -> version;
                  case "getDatabaseMajorVersion" -> major;
                  case "getDatabaseMinorVersion" -> minor;
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }
}
