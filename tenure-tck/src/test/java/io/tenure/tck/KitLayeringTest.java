package io.tenure.tck;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** STYLE: the kit depends only on the API and the SPI, so any provider can run it. */
class KitLayeringTest {
  private final JavaClasses kit =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.tenure.tck");

  @Test
  void the_kit_depends_only_on_the_api_the_spi_and_test_libraries() {
    classes()
        .that()
        .resideInAPackage("io.tenure.tck..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(
            "io.tenure",
            "io.tenure.spi",
            "io.tenure.tck..",
            "java..",
            "javax.annotation..",
            "org.junit..",
            "org.assertj..",
            "org.jspecify..",
            "org.opentest4j..")
        .check(kit);
  }
}
