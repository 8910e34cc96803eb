package io.tenure.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.tenure.TenureNode;
import io.tenure.jdbc.JdbcStore;
import io.tenure.server.AdminServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Nothing a user can set switches a guard off (issue 16 §5): no class of the shipped modules names
 * a {@code tenure.unsafe.*} or {@code tenure.test.*} system property, and {@code tenure node} does
 * not reach the fault harness. The negative controls break guards from outside, in tenure-chaos's
 * own node processes ({@code io.tenure.chaos.ChaosNode}).
 */
class NoSafetySwitchTest {
  /** The property families that used to switch guards off or stall passes, as class files hold. */
  private static final List<String> FORBIDDEN = List.of("tenure.unsafe", "tenure.test.");

  /** One class of each shipped module: where its compiled classes are is where it was loaded. */
  private static final List<Class<?>> SHIPPED =
      List.of(TenureNode.class, JdbcStore.class, AdminServer.class, TenureCommand.class);

  @Test
  void no_class_of_core_jdbc_server_or_cli_names_a_tenure_unsafe_or_tenure_test_property()
      throws Exception {
    Map<String, String> found = new TreeMap<>();
    int scanned = 0;
    for (Class<?> module : SHIPPED) {
      for (ClassFile file : classFiles(location(module))) {
        scanned++;
        String text = new String(file.bytes(), StandardCharsets.ISO_8859_1);
        FORBIDDEN.stream().filter(text::contains).forEach(string -> found.put(file.name(), string));
      }
    }
    // Guards the scan itself: a wrong location would find nothing and pass.
    assertThat(scanned).as("class files scanned").isGreaterThan(100);
    assertThat(found).as("shipped classes naming a safety-switch property").isEmpty();
  }

  @Test
  void tenure_node_does_not_reach_the_fault_harness() {
    noClasses()
        .that()
        .haveSimpleName("NodeCommand")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.tenure.chaos..")
        .check(
            new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.tenure.cli"));
  }

  private record ClassFile(String name, byte[] bytes) {}

  private static Path location(Class<?> type) throws URISyntaxException {
    return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  /** Every {@code .class} of a module: a folder of classes in a build, or a jar. */
  private static List<ClassFile> classFiles(Path location) throws IOException {
    List<ClassFile> files = new ArrayList<>();
    if (Files.isDirectory(location)) {
      try (Stream<Path> paths = Files.walk(location)) {
        for (Path path : paths.filter(p -> p.toString().endsWith(".class")).toList()) {
          files.add(new ClassFile(location.relativize(path).toString(), Files.readAllBytes(path)));
        }
      }
      return files;
    }
    try (JarFile jar = new JarFile(location.toFile())) {
      for (var entry : jar.stream().filter(e -> e.getName().endsWith(".class")).toList()) {
        try (InputStream in = jar.getInputStream(entry)) {
          files.add(new ClassFile(location + "!" + entry.getName(), in.readAllBytes()));
        }
      }
    }
    return files;
  }
}
