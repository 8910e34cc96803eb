package io.tenure.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every method of each store interface is declared by its forwarding class and reaches the delegate
 * with the same arguments: an abstract class compiles without a method an interface gains, and a
 * decorator built on it would then lose that call.
 */
class ForwardingStoresTest {
  @ParameterizedTest
  @ValueSource(strings = {"AgentStore", "QueueStore", "ScheduleStore"})
  void every_call_reaches_the_delegate_with_its_arguments(String name) throws Exception {
    Class<?> store = Class.forName("io.tenure.spi." + name);
    Class<?> forwarding = Class.forName("io.tenure.spi.Forwarding" + name);
    List<String> reached = new ArrayList<>();
    Object delegate =
        Proxy.newProxyInstance(
            store.getClassLoader(),
            new Class<?>[] {store},
            (proxy, method, args) -> {
              reached.add(
                  signature(method)
                      + java.util.Arrays.toString(args == null ? new Object[0] : args));
              return defaultFor(method.getReturnType());
            });
    Object decorator = decorator(forwarding, store, delegate);
    assertThat(decorator).isInstanceOf(forwarding);
    for (Method method : store.getMethods()) {
      if (method.isDefault() || java.lang.reflect.Modifier.isStatic(method.getModifiers())) {
        continue;
      }
      Method declared = forwarding.getDeclaredMethod(method.getName(), method.getParameterTypes());
      assertThat(declared).as("%s declares %s", forwarding.getSimpleName(), method).isNotNull();
      Object[] args = arguments(method);
      reached.clear();
      declared.invoke(decorator, args);
      assertThat(reached)
          .as("%s reaches the delegate", method)
          .containsExactly(signature(method) + java.util.Arrays.toString(args));
    }
  }

  /** A decorator that overrides nothing, so every call is the forwarding class's own. */
  private static Object decorator(Class<?> forwarding, Class<?> store, Object delegate) {
    return switch (store.getSimpleName()) {
      case "AgentStore" -> new ForwardingAgentStore((AgentStore) delegate) {};
      case "QueueStore" -> new ForwardingQueueStore((QueueStore) delegate) {};
      case "ScheduleStore" -> new ForwardingScheduleStore((ScheduleStore) delegate) {};
      default -> throw new IllegalArgumentException(store.getName());
    };
  }

  private static String signature(Method method) {
    return method.getName() + java.util.Arrays.toString(method.getParameterTypes());
  }

  /** Distinct non-null values where the type allows, nulls elsewhere: forwarding reads none. */
  private static Object[] arguments(Method method) {
    Class<?>[] types = method.getParameterTypes();
    Object[] args = new Object[types.length];
    for (int i = 0; i < types.length; i++) {
      args[i] = sample(types[i], i);
    }
    return args;
  }

  private static Object sample(Class<?> type, int i) {
    if (type == String.class) {
      return "s" + i;
    }
    if (type == long.class) {
      return 7L + i;
    }
    if (type == int.class) {
      return 3 + i;
    }
    if (type == boolean.class) {
      return i % 2 == 0;
    }
    if (type == java.util.List.class) {
      return List.of("l" + i);
    }
    return null;
  }

  private static Object defaultFor(Class<?> type) {
    if (type == boolean.class) {
      return false;
    }
    if (type == int.class) {
      return 0;
    }
    if (type == long.class) {
      return 0L;
    }
    return null;
  }
}
