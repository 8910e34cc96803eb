package io.tenure.checks;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The public surface, checked over the main classes of every module: applications need only {@code
 * io.tenure}, the API reaches the runtime only through its factories, and a provider's internals
 * stay inside the provider. (The layering between modules is {@code LayeringTest}'s, in
 * tenure-cli.)
 */
class ArchitectureTest {
  private static final String API = "io.tenure";

  /** The one runtime package tenure-core exports, to the user test kit alone. */
  private static final String TEST_KIT_DOOR = "io.tenure.internal.testing";

  /**
   * The public members of {@code io.tenure} whose signatures name an SPI type, each for providers,
   * integrations or tests that work on a raw store. Anything else that names one is a leak: an
   * application would need {@code io.tenure.spi} to use it.
   */
  private static final Set<String> PROVIDER_FACING =
      Set.of(
          "Markers.builder(MarkerStore)",
          "Queue.on(QueueStore, String, QueuePolicy)",
          "QueueMessage.claim()",
          "Stores.open(DataSourceSettings)",
          "Stores.open(StoreSettings)",
          "Stores.open(String)",
          "Tenure.on(Store, String)",
          "Tenure.store()",
          "TenureNode.builder(Store)",
          "TenureNode.leaderFence()");

  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.tenure..");
  }

  @Test
  void nothing_outside_tenure_jdbc_touches_its_internal_package() {
    noClasses()
        .that()
        .resideOutsideOfPackage("io.tenure.jdbc..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.tenure.jdbc.internal..")
        .check(classes);
  }

  /**
   * The user test kit applies the runtime's own rules (the outcome rule, the schedule firer), and
   * reaches them through the one package tenure-core exports to it; nothing else uses that door.
   */
  @Test
  void the_test_kit_reaches_the_runtime_only_through_its_own_door() {
    noClasses()
        .that()
        .resideInAPackage("io.tenure.test..")
        .should()
        .dependOnClassesThat(
            JavaClass.Predicates.resideInAPackage("io.tenure.internal..")
                .and(DescribedPredicate.not(JavaClass.Predicates.resideInAPackage(TEST_KIT_DOOR))))
        .check(classes);
    noClasses()
        .that()
        .resideOutsideOfPackages("io.tenure.test..", TEST_KIT_DOOR)
        .should()
        .dependOnClassesThat()
        .resideInAPackage(TEST_KIT_DOOR)
        .check(classes);
  }

  /** The kit runs on any provider by URL; it names none. */
  @Test
  void the_test_kit_depends_on_no_provider_but_the_in_memory_store() {
    noClasses()
        .that()
        .resideInAPackage("io.tenure.test..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.tenure.jdbc..", "com.zaxxer..")
        .check(classes);
  }

  @Test
  void no_public_signature_of_the_api_names_a_runtime_type() {
    assertThat(publicMembersNaming("io.tenure.internal")).isEmpty();
  }

  /**
   * The factories (the entry point and the builders) construct the runtime's classes; every other
   * API type is an interface, a record, an enum, an exception or a check that needs none of it.
   */
  @Test
  void only_the_api_factories_reach_the_runtime() {
    noClasses()
        .that()
        .resideInAPackage(API)
        .and(DescribedPredicate.not(factories()))
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.tenure.internal..")
        .check(classes);
  }

  /** The starter is an integration like the admin server: the public API and SPI, nothing more. */
  @Test
  void the_spring_starter_uses_only_the_public_api_the_spi_and_the_admin_server() {
    noClasses()
        .that()
        .resideInAPackage("io.tenure.spring..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.tenure.internal..", "io.tenure.jdbc..", "io.tenure.cli..", "io.tenure.chaos..")
        .check(classes);
  }

  /**
   * Spring stays in the starter: no other module's main classes may need it. The benchmarks are
   * left out: they drive ShedLock, a peer, through its Spring JdbcTemplate provider, and are not
   * shipped.
   */
  @Test
  void nothing_but_the_spring_starter_depends_on_spring() {
    noClasses()
        .that()
        .resideInAPackage("io.tenure..")
        .and()
        .resideOutsideOfPackages("io.tenure.spring..", "io.tenure.bench..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("org.springframework..")
        .check(classes);
  }

  /** The rules above are not vacuous: the starter's classes are imported. */
  @Test
  void the_starters_classes_are_seen() {
    assertThat(classes.contain("io.tenure.spring.TenureAutoConfiguration")).isTrue();
  }

  @Test
  void no_public_signature_of_the_api_names_an_spi_type_but_the_provider_facing_ones() {
    assertThat(publicMembersNaming("io.tenure.spi")).isSubsetOf(PROVIDER_FACING);
  }

  /** The rule above is not vacuous: it sees the members it lets through. */
  @Test
  void the_provider_facing_members_are_seen_by_the_spi_rule() {
    assertThat(publicMembersNaming("io.tenure.spi"))
        .contains("Tenure.store()", "Stores.open(DataSourceSettings)");
  }

  /**
   * Tenure, the builders, and {@code Schedule}, whose factories check a cron expression and zone
   * with the runtime's parser the moment they are given (a builder's habit, without the name).
   */
  private static DescribedPredicate<JavaClass> factories() {
    return DescribedPredicate.describe(
        "a factory (Tenure, a builder or Schedule)",
        c ->
            c.getName().equals(API + ".Tenure")
                || c.getName().equals(API + ".Schedule")
                || c.getSimpleName().endsWith("Builder"));
  }

  /**
   * @return {@code Type.member(ParameterTypes)} of every public or protected member of a public
   *     {@code io.tenure} type whose signature (field type, parameters, return type, thrown types,
   *     with their type arguments) names a type in {@code pkg} or below, and of every public type
   *     that extends or implements one
   */
  private static Set<String> publicMembersNaming(String pkg) {
    Set<String> found = new TreeSet<>();
    for (JavaClass type : classes) {
      if (!type.getPackageName().equals(API) || !visible(type.getModifiers())) {
        continue;
      }
      if (type.getAllRawSuperclasses().stream().anyMatch(s -> in(s, pkg))
          || type.getAllRawInterfaces().stream().anyMatch(s -> in(s, pkg))) {
        found.add(name(type));
      }
      for (JavaMember member : type.getMembers()) {
        if (visible(member.getModifiers())
            && !member.getModifiers().contains(JavaModifier.SYNTHETIC)
            && !member.getModifiers().contains(JavaModifier.BRIDGE)
            && signature(member).stream().anyMatch(t -> in(t, pkg))) {
          found.add(describe(type, member));
        }
      }
    }
    return found;
  }

  private static Set<JavaClass> signature(JavaMember member) {
    if (member instanceof JavaField field) {
      return field.getType().getAllInvolvedRawTypes();
    }
    JavaCodeUnit code = (JavaCodeUnit) member;
    Set<JavaClass> types = new java.util.HashSet<>(code.getReturnType().getAllInvolvedRawTypes());
    code.getParameterTypes().forEach(p -> types.addAll(p.getAllInvolvedRawTypes()));
    code.getExceptionTypes().forEach(types::add);
    return types;
  }

  private static boolean in(JavaClass type, String pkg) {
    JavaClass base = type.isArray() ? type.getBaseComponentType() : type;
    return base.getPackageName().equals(pkg) || base.getPackageName().startsWith(pkg + ".");
  }

  private static boolean visible(Set<JavaModifier> modifiers) {
    return modifiers.contains(JavaModifier.PUBLIC) || modifiers.contains(JavaModifier.PROTECTED);
  }

  private static String name(JavaClass type) {
    return type.getName().substring(API.length() + 1).replace('$', '.');
  }

  private static String describe(JavaClass type, JavaMember member) {
    if (member instanceof JavaField) {
      return name(type) + "." + member.getName();
    }
    JavaCodeUnit code = (JavaCodeUnit) member;
    String parameters =
        code.getRawParameterTypes().stream()
            .map(JavaClass::getSimpleName)
            .collect(Collectors.joining(", "));
    String member2 = code.isConstructor() ? "new" : code.getName();
    return name(type) + "." + member2 + "(" + parameters + ")";
  }
}
