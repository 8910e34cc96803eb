package io.tenure.spring;

import io.tenure.Delivery;
import io.tenure.MessageHandler;
import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.Schedule;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.env.PropertyResolver;
import org.springframework.util.ReflectionUtils;

/**
 * What the annotated methods ask of the node: a consumer per queue and the schedules to declare,
 * each checked and refused naming its method. Pure but for reflection: the node is built from it.
 */
final class HandlerPlan {
  /** One queue's consumer on this node. */
  record Consumer(
      String queue, int concurrency, boolean exclusive, MessageHandler handler, String method) {}

  private final Map<String, Consumer> consumers = new LinkedHashMap<>();
  private final List<Schedule> schedules = new ArrayList<>();

  private HandlerPlan() {}

  /**
   * @param found the annotated methods
   * @param resolver resolves {@code ${...}} in the annotations' attributes
   * @param properties for the default concurrency of each queue
   * @throws IllegalStateException naming the method if a method, its annotation or its queue is not
   *     as {@link TenureHandler} and {@link TenureSchedule} say
   */
  static HandlerPlan of(
      List<AnnotatedMethods.Found> found, PropertyResolver resolver, TenureProperties properties) {
    HandlerPlan plan = new HandlerPlan();
    for (AnnotatedMethods.Found method : found) {
      try {
        if (method.handler() != null && method.schedule() != null) {
          throw new IllegalArgumentException(
              "it has both @TenureHandler and @TenureSchedule; a scheduled method is already the"
                  + " handler of its schedule's queue");
        }
        if (method.handler() != null) {
          plan.handler(method, method.handler(), resolver, properties);
        } else if (method.schedule() != null) {
          plan.schedule(method, method.schedule(), resolver, properties);
        }
      } catch (IllegalArgumentException e) {
        throw new IllegalStateException(
            "Tenure cannot use " + method.describe() + ": " + e.getMessage());
      }
    }
    return plan;
  }

  List<Consumer> consumers() {
    return List.copyOf(consumers.values());
  }

  List<Schedule> schedules() {
    return List.copyOf(schedules);
  }

  private void handler(
      AnnotatedMethods.Found method,
      TenureHandler annotation,
      PropertyResolver resolver,
      TenureProperties properties) {
    String queue = resolver.resolveRequiredPlaceholders(annotation.queue());
    if (queue.isEmpty()) {
      throw new IllegalArgumentException("@TenureHandler names no queue");
    }
    Queue.checkName(queue);
    String given = resolver.resolveRequiredPlaceholders(annotation.concurrency());
    if (annotation.exclusive() && !given.isEmpty()) {
      throw new IllegalArgumentException(
          "an exclusive queue's handler runs one message at a time; remove the concurrency");
    }
    int concurrency = given.isEmpty() ? defaultConcurrency(queue, properties) : parse(given);
    add(
        new Consumer(
            queue, concurrency, annotation.exclusive(), invoker(method, false), method.describe()));
  }

  private void schedule(
      AnnotatedMethods.Found method,
      TenureSchedule annotation,
      PropertyResolver resolver,
      TenureProperties properties) {
    Function<String, String> resolve = resolver::resolveRequiredPlaceholders;
    String name = resolve.apply(annotation.name());
    String cron = resolve.apply(annotation.cron());
    String quartz = resolve.apply(annotation.quartz());
    String every = resolve.apply(annotation.every());
    String zone = resolve.apply(annotation.zone());
    int timings = (cron.isEmpty() ? 0 : 1) + (quartz.isEmpty() ? 0 : 1) + (every.isEmpty() ? 0 : 1);
    if (timings != 1) {
      throw new IllegalArgumentException(
          "@TenureSchedule '" + name + "' must set exactly one of cron, quartz and every");
    }
    Schedule schedule =
        !cron.isEmpty()
            ? Schedule.cron(name, cron)
            : !quartz.isEmpty() ? Schedule.quartz(name, quartz) : Schedule.every(name, of(every));
    if (!zone.isEmpty()) {
      schedule = schedule.zone(zone);
    }
    String queue = resolve.apply(annotation.queue());
    if (queue.isEmpty()) {
      if (!Queue.NAME.matcher(name).matches()) {
        throw new IllegalArgumentException(
            "schedule '"
                + name
                + "' has no queue, and its name is not a queue name (a-z, 0-9, '.', '_', '-');"
                + " set queue");
      }
      queue = name;
    }
    Queue.checkName(queue);
    schedules.add(schedule.enqueue(queue, OutgoingMessage.text(name)));
    add(
        new Consumer(
            queue,
            defaultConcurrency(queue, properties),
            false,
            invoker(method, true),
            method.describe()));
  }

  private void add(Consumer consumer) {
    Consumer before = consumers.putIfAbsent(consumer.queue(), consumer);
    if (before != null) {
      throw new IllegalArgumentException(
          "queue '"
              + consumer.queue()
              + "' already has a handler, "
              + before.method()
              + "; a queue has one handler per application");
    }
  }

  private static int defaultConcurrency(String queue, TenureProperties properties) {
    TenureQueueProperties own = properties.getQueues().get(queue);
    return own != null && own.getConcurrency() != null
        ? own.getConcurrency()
        : properties.getConsumer().getConcurrency();
  }

  private static int parse(String concurrency) {
    int value;
    try {
      value = Integer.parseInt(concurrency.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "concurrency must be a whole number, got '" + concurrency + "'", e);
    }
    return PropertyChecks.between(
        "concurrency", value, 1, TenureConsumerProperties.MAX_CONCURRENCY);
  }

  private static Duration of(String every) {
    try {
      return DurationStyle.detectAndParse(every);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "every must be a duration such as 30s, 5m or PT1H, got '" + every + "'", e);
    }
  }

  /** Calls the method through its bean, with what its one parameter asks for. */
  private static MessageHandler invoker(AnnotatedMethods.Found found, boolean mayTakeNothing) {
    Method method = found.method();
    if (method.getReturnType() != void.class) {
      throw new IllegalArgumentException(
          "a handler returns void: its outcome is returning or throwing");
    }
    Class<?>[] parameters = method.getParameterTypes();
    Function<Delivery, Object[]> arguments;
    if (parameters.length == 0 && mayTakeNothing) {
      arguments = delivery -> new Object[0];
    } else if (parameters.length == 1 && parameters[0] == Delivery.class) {
      arguments = delivery -> new Object[] {delivery};
    } else if (parameters.length == 1 && parameters[0] == String.class && !mayTakeNothing) {
      arguments = delivery -> new Object[] {delivery.text()};
    } else if (parameters.length == 1 && parameters[0] == byte[].class && !mayTakeNothing) {
      arguments = delivery -> new Object[] {delivery.payload()};
    } else {
      throw new IllegalArgumentException(
          mayTakeNothing
              ? "a scheduled method takes no parameter or a Delivery"
              : "a handler takes one parameter: a Delivery, a String (the payload as UTF-8) or a"
                  + " byte[] (the payload)");
    }
    ReflectionUtils.makeAccessible(method);
    Object bean = found.bean();
    return delivery -> {
      try {
        method.invoke(bean, arguments.apply(delivery));
      } catch (InvocationTargetException e) {
        // The handler's own exception decides retry or dead letter (non-retryable types).
        Throwable cause = e.getCause();
        if (cause instanceof Exception exception) {
          throw exception;
        }
        if (cause instanceof Error error) {
          throw error;
        }
        throw e;
      }
    };
  }
}
