package io.tenure.chaos;

import io.tenure.spi.AgentStore;
import io.tenure.spi.LockStore;
import io.tenure.spi.QueueStore;
import io.tenure.spi.ScheduleStore;
import io.tenure.spi.Store;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * Store decorators by dynamic proxy: a decorator names only the calls it changes, and every other
 * call, default methods included, reaches the real store unchanged.
 */
final class Decorators {
  private Decorators() {}

  /** {@code store} with its agent store replaced by {@code agents} applied to it. */
  static Store withAgents(Store store, UnaryOperator<AgentStore> agents) {
    AgentStore decorated = agents.apply(store.agents());
    return replacing(store, "agents", decorated);
  }

  /** {@code store} with its queue store replaced by {@code queues} applied to it. */
  static Store withQueues(Store store, UnaryOperator<QueueStore> queues) {
    QueueStore decorated = queues.apply(store.queues());
    return replacing(store, "queues", decorated);
  }

  /** {@code store} with its schedule store replaced by {@code schedules} applied to it. */
  static Store withSchedules(Store store, UnaryOperator<ScheduleStore> schedules) {
    ScheduleStore decorated = schedules.apply(store.schedules());
    return replacing(store, "schedules", decorated);
  }

  /** {@code store} with its lock store replaced by {@code locks} applied to it. */
  static Store withLocks(Store store, UnaryOperator<LockStore> locks) {
    LockStore decorated = locks.apply(store.locks());
    return replacing(store, "locks", decorated);
  }

  private static Store replacing(Store store, String accessor, Object replacement) {
    return proxy(
        Store.class,
        (proxy, method, args) ->
            method.getName().equals(accessor) && method.getParameterCount() == 0
                ? replacement
                : call(store, method, args));
  }

  /** Runs {@code method} on {@code target}, throwing what it threw rather than a wrapper. */
  static @Nullable Object call(Object target, Method method, @Nullable Object[] args)
      throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  @SuppressWarnings("unchecked")
  static <T> T proxy(Class<T> type, InvocationHandler handler) {
    return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler);
  }
}
