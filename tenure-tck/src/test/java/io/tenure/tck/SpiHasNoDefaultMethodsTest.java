package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * STYLE.md's third habit: the store SPI has no default methods, so a provider or a decorator that
 * forgets a method fails to compile instead of answering it some other way. Sealed interfaces are
 * data (a resolve's outcome), not contracts a provider implements, and may carry helpers.
 */
class SpiHasNoDefaultMethodsTest {
  @Test
  void no_interface_a_provider_implements_has_a_default_method() {
    List<String> defaults =
        new ClassFileImporter()
            .importPackages("io.tenure.spi").stream()
                .filter(JavaClass::isInterface)
                .map(JavaClass::reflect)
                .filter(type -> !type.isSealed())
                .flatMap(type -> Arrays.stream(type.getDeclaredMethods()))
                .filter(Method::isDefault)
                .map(method -> method.getDeclaringClass().getSimpleName() + "." + method.getName())
                .toList();

    assertThat(defaults).isEmpty();
  }

  @Test
  void the_check_sees_the_store_interfaces() {
    assertThat(new ClassFileImporter().importPackages("io.tenure.spi").stream())
        .extracting(JavaClass::getSimpleName)
        .contains("QueueStore", "EventStore", "MembershipStore", "LeaseStore", "SessionLock");
  }
}
