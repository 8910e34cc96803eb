package io.tenure.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering STYLE.md promises, checked over every Tenure module on this module's class path: the
 * API and SPI depend on no database code, providers do not depend on the runtime, and nothing
 * depends on the launcher. The compliance kit is not on this class path; its own build checks it.
 */
class LayeringTest {
  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.tenure..");
  }

  /**
   * One JDBC type is allowed: {@code java.sql.Connection}, the caller's open transaction that the
   * transactional outbox enqueues into (SPEC §6.1). Nothing else of java.sql: no SQLException, no
   * driver or pool. ({@code javax.sql.DataSource}, which {@code Tenure.builder(dataSource)} and the
   * SPI's {@code DataSourceSettings} take from the caller, is not in java.sql.)
   */
  @Test
  void the_api_and_the_spi_depend_on_no_jdbc_pool_provider_or_launcher() {
    noClasses()
        .that()
        .resideInAnyPackage("io.tenure", "io.tenure.spi")
        .should()
        .dependOnClassesThat(
            com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage(
                    "java.sql..", "io.tenure.jdbc..", "com.zaxxer..", "io.tenure.cli..")
                .and(
                    com.tngtech.archunit.base.DescribedPredicate.not(
                        com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo(
                            java.sql.Connection.class))))
        .check(classes);
  }

  @Test
  void the_jdbc_provider_depends_neither_on_the_runtime_nor_on_the_launcher() {
    noClasses()
        .that()
        .resideInAPackage("io.tenure.jdbc..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.tenure.internal..", "io.tenure.cli..")
        .check(classes);
  }

  @Test
  void the_launcher_uses_only_the_public_api_and_spi() {
    noClasses()
        .that()
        .resideInAPackage("io.tenure.cli..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.tenure.internal..", "io.tenure.jdbc..", "java.sql..", "com.zaxxer..")
        .check(classes);
  }

  @Test
  void the_admin_server_uses_only_the_public_api_and_spi_and_never_the_launcher() {
    noClasses()
        .that()
        .resideInAPackage("io.tenure.server..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.tenure.internal..",
            "io.tenure.jdbc..",
            "io.tenure.cli..",
            "java.sql..",
            "com.zaxxer..")
        .check(classes);
  }
}
