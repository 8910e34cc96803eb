package io.tenure.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a method of a Spring bean on a durable schedule (SPEC §10), exactly once per slot across the
 * cluster. When the context starts the schedule is declared (idempotently: every instance of the
 * application declares the same), the node this application runs consumes the schedule's queue, and
 * the method is that queue's handler. The leader enqueues one message on the queue per slot;
 * whichever node claims it calls the method, with the queue's retries and dead letters.
 *
 * <pre>
 * &#64;TenureSchedule(name = "nightly-report", cron = "30 2 * * *", zone = "Europe/Berlin")
 * void nightlyReport() { ... }
 *
 * &#64;TenureSchedule(name = "sweep", every = "5m")
 * void sweep(Delivery delivery) { ... }
 * </pre>
 *
 * <p>Exactly one of {@link #cron()}, {@link #quartz()} and {@link #every()} is set. The method
 * returns {@code void} and takes no parameter or the {@link io.tenure.Delivery}. Its queue is
 * {@link #queue()}, by default the schedule's name; it must not have another handler. Attributes
 * take {@code ${...}} placeholders. The context refuses to start, naming the method, if any of this
 * does not hold.
 */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface TenureSchedule {
  /**
   * @return the schedule's name, unique in the store, at most 128 characters
   */
  String name();

  /**
   * @return a Unix cron expression, five fields: minute hour day-of-month month day-of-week
   */
  String cron() default "";

  /**
   * @return a Quartz cron expression, six or seven fields, seconds first
   */
  String quartz() default "";

  /**
   * @return an interval such as {@code 30s}, {@code 5m} or {@code PT1H}; slots fall on its whole
   *     multiples since 1970-01-01T00:00Z
   */
  String every() default "";

  /**
   * @return the time zone of a cron schedule's wall-clock times, e.g. {@code Europe/Berlin}; empty
   *     for UTC
   */
  String zone() default "";

  /**
   * @return the queue each slot's message goes to, which this method handles; empty for the
   *     schedule's name (which must then be a valid queue name)
   */
  String queue() default "";
}
