package io.tenure.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

class MigratorTest {

  @Test
  void a_script_splits_on_semicolons_that_end_a_line_and_skips_comments() {
    String script = "-- comment;\nCREATE TABLE a (x INT);\n\nCREATE TABLE b (\n  y TEXT -- why\n);\nSELECT 1";

    assertThat(Migrator.statements(script))
        .containsExactly("CREATE TABLE a (x INT)", "CREATE TABLE b (\n  y TEXT -- why\n)", "SELECT 1");
  }

  @Test
  void every_dialect_has_every_schema_version() throws Exception {
    for (String folder : List.of("postgresql", "mariadb", "sqlite")) {
      for (String file : Migrator.FILES) {
        String path = "schema/" + folder + "/" + file;
        try (InputStream in = Migrator.class.getResourceAsStream(path)) {
          assertThat(in).as(path).isNotNull();
        }
      }
    }
  }
}
