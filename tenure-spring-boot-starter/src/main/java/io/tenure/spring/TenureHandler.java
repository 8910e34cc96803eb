package io.tenure.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.core.annotation.AliasFor;

/**
 * Makes a method of a Spring bean the handler of a queue: the node this application runs consumes
 * the queue and calls the method for each message (SPEC §6.5). Returning marks the message done;
 * throwing retries it after the queue's backoff, or makes it a dead letter when it is out of
 * attempts. Delivery is at least once, so a handler must be idempotent.
 *
 * <pre>
 * &#64;Component
 * class WelcomeEmails {
 *   &#64;TenureHandler(queue = "emails", concurrency = "4")
 *   void send(Delivery delivery) { ... }
 * }
 * </pre>
 *
 * <p>The method returns {@code void} and takes one parameter: the {@link io.tenure.Delivery}, the
 * payload as a {@code String} (UTF-8) or as a {@code byte[]}. It is called through the bean, so
 * {@code @Transactional} and other proxies apply. A queue has at most one handler per application;
 * the queue's policy comes from a {@link io.tenure.Queue} bean of that name, else from {@code
 * tenure.queues.NAME.*}. The context refuses to start, naming the method, if any of this does not
 * hold.
 */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface TenureHandler {
  /**
   * @return the queue's name; {@code ${...}} placeholders are resolved
   */
  @AliasFor("queue")
  String value() default "";

  /**
   * @return the queue's name, {@code [a-z0-9][a-z0-9._-]{0,127}}; {@code ${...}} placeholders are
   *     resolved
   */
  @AliasFor("value")
  String queue() default "";

  /**
   * @return how many messages of the queue this node handles at once, 1 to 1000, each on a virtual
   *     thread; {@code ${...}} placeholders are resolved. Empty: {@code
   *     tenure.queues.NAME.concurrency}, else {@code tenure.consumer.concurrency} (default 1)
   */
  String concurrency() default "";

  /**
   * @return whether the queue is exclusive (SPEC §6.9): one node of the cluster at a time handles
   *     it, one message at a time, in strict enqueue order. Every node that may run it must declare
   *     the same handler. Takes no concurrency
   */
  boolean exclusive() default false;
}
