package io.tenure.spring;

import static io.tenure.spring.TenureHandlerTest.failure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tenure.Delivery;
import io.tenure.ScheduleInfo;
import io.tenure.Tenure;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@link TenureSchedule} methods: declared at start, fired by the leader, run as handlers. */
class TenureScheduleTest {
  static class Ticks {
    final AtomicInteger ticks = new AtomicInteger();
    final List<String> reports = new CopyOnWriteArrayList<>();

    @TenureSchedule(name = "tick", every = "${tick.every}")
    void tick() {
      ticks.incrementAndGet();
    }

    @TenureSchedule(
        name = "Nightly Report",
        cron = "30 2 * * *",
        zone = "Europe/Berlin",
        queue = "reports")
    void report(Delivery delivery) {
      reports.add(delivery.text());
    }
  }

  @Test
  void a_scheduled_method_is_declared_at_start_and_runs_once_per_slot() {
    Runners.inMemory()
        .withBean(Ticks.class)
        .withPropertyValues("tick.every=200ms")
        .run(
            context -> {
              Ticks ticks = context.getBean(Ticks.class);
              await().atMost(Duration.ofSeconds(10)).until(() -> ticks.ticks.get() >= 3);
              Tenure tenure = context.getBean(Tenure.class);
              assertThat(tenure.schedules().list())
                  .extracting(ScheduleInfo::name)
                  .containsExactlyInAnyOrder("tick", "Nightly Report");
              // Its message goes to the schedule's queue, which the method handles.
              tenure.schedules().trigger("Nightly Report");
              await().atMost(Duration.ofSeconds(10)).until(() -> ticks.reports.size() == 1);
              assertThat(ticks.reports).containsExactly("Nightly Report");
            });
  }

  static class Twice {
    @TenureSchedule(name = "both", cron = "* * * * *", every = "1m")
    void run() {}
  }

  static class BadCron {
    @TenureSchedule(name = "bad", cron = "61 * * * *")
    void run() {}
  }

  static class NameIsNoQueue {
    @TenureSchedule(name = "Weekly Digest", every = "7d")
    void run() {}
  }

  static class TakesText {
    @TenureSchedule(name = "text", every = "1m")
    void run(String text) {}
  }

  static class BadInterval {
    @TenureSchedule(name = "interval", every = "soon")
    void run() {}
  }

  static class HandlerOnScheduleQueue {
    @TenureSchedule(name = "shared", every = "1m")
    void scheduled() {}

    @TenureHandler(queue = "shared")
    void handler(Delivery delivery) {}
  }

  @Test
  void a_schedule_that_is_not_as_the_annotation_says_stops_the_context_naming_its_method() {
    assertRefused(Twice.class, "Twice.run()", "exactly one of cron, quartz and every");
    assertRefused(BadCron.class, "BadCron.run()", "invalid Unix cron expression '61 * * * *'");
    assertRefused(NameIsNoQueue.class, "NameIsNoQueue.run()", "set queue");
    assertRefused(TakesText.class, "TakesText.run(String)", "no parameter or a Delivery");
    assertRefused(BadInterval.class, "BadInterval.run()", "such as 30s, 5m or PT1H");
    assertRefused(HandlerOnScheduleQueue.class, "HandlerOnScheduleQueue.", "already has a handler");
  }

  private static void assertRefused(Class<?> bean, String method, String why) {
    Runners.inMemory()
        .withBean(bean)
        .run(context -> assertThat(failure(context)).contains(method).contains(why));
  }
}
