package io.tenure.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.MissedSlots;
import io.tenure.OutgoingMessage;
import io.tenure.Schedule;
import io.tenure.ScheduleInfo;
import io.tenure.cli.Cli.Result;
import io.tenure.spi.ScheduleDefinition;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code tenure schedules list|pause|resume|trigger|delete} against a real store. */
abstract class ScheduleCommandsContract extends LiveStoreContract {
  private void declare(Schedule schedule, Instant next) {
    inStore(store -> store.schedules().declare(new ScheduleDefinition(schedule, 3, next)));
  }

  private ScheduleInfo stored(String name) {
    return inStore(store -> store.schedules().read(name).orElseThrow());
  }

  @Test
  void list_shows_each_schedule_with_when_it_fires_and_what_it_did() {
    Instant now = inStore(store -> store.now());
    declare(
        Schedule.cron("nightly", "30 2 * * *")
            .zone("Europe/Berlin")
            .enqueue("reports", OutgoingMessage.text("run"))
            .missedSlots(MissedSlots.catchUp(3)),
        now.plus(Duration.ofHours(2)));
    declare(
        Schedule.every("heartbeat", Duration.ofSeconds(5))
            .enqueue("pings", OutgoingMessage.text("ping")),
        now.plus(Duration.ofSeconds(5)));

    Result json = tenure("schedules", "list", "--json");
    Result text = tenure("schedules", "list");

    assertThat(json.exitCode()).as(json.toString()).isZero();
    List<Map<String, Object>> schedules = list(json.json(), "schedules");
    assertThat(schedules).extracting(s -> s.get("name")).containsExactly("heartbeat", "nightly");
    assertThat(schedules.get(1))
        .containsEntry("kind", "CRON")
        .containsEntry("when", "30 2 * * *")
        .containsEntry("zone", "Europe/Berlin")
        .containsEntry("queue", "reports")
        .containsEntry("paused", false)
        .containsEntry("missedSlots", "catch up 3")
        .containsEntry("whilePaused", "DROP")
        .containsEntry("fired", 0L);
    assertThat(schedules.get(0)).containsEntry("when", "every PT5S").containsEntry("zone", null);
    assertThat(text.out().lines().toList())
        .hasSize(3)
        .first()
        .asString()
        .matches("SCHEDULE +WHEN +QUEUE +STATE +NEXT IN +LAST FIRE +FIRED +SKIPPED");
    assertThat(text.out())
        .containsPattern(
            "(?m)^nightly +30 2 \\* \\* \\* Europe/Berlin +reports +RUNNING +.+ +- +0 +0$");
  }

  @Test
  void pause_resume_trigger_and_delete_act_on_the_store_and_say_so() {
    Instant now = inStore(store -> store.now());
    declare(
        Schedule.every("heartbeat", Duration.ofMinutes(5))
            .enqueue("pings", OutgoingMessage.text("ping")),
        now.plus(Duration.ofMinutes(5)));

    Result paused = tenure("schedules", "pause", "heartbeat");
    Result again = tenure("schedules", "pause", "heartbeat", "--json");
    assertThat(paused.out()).isEqualTo("schedule 'heartbeat': paused.\n");
    assertThat(again.json())
        .containsEntry("schedule", "heartbeat")
        .containsEntry("result", "was paused already");
    assertThat(stored("heartbeat").paused()).isTrue();

    assertThat(tenure("schedules", "resume", "heartbeat").out())
        .isEqualTo("schedule 'heartbeat': resumed.\n");
    assertThat(stored("heartbeat").paused()).isFalse();

    Result triggered = tenure("schedules", "trigger", "heartbeat");
    assertThat(triggered.exitCode()).as(triggered.toString()).isZero();
    long id = stored("heartbeat").lastMessageId();
    assertThat(triggered.out()).isEqualTo("schedule 'heartbeat': enqueued message " + id + ".\n");
    assertThat(message(id).queue()).isEqualTo("pings");

    assertThat(tenure("schedules", "delete", "heartbeat").out())
        .isEqualTo("schedule 'heartbeat': deleted.\n");
    java.util.Optional<ScheduleInfo> gone = inStore(store -> store.schedules().read("heartbeat"));
    assertThat(gone).isEmpty();
    assertThat(message(id).queue()).as("its message stays").isEqualTo("pings");
  }

  @Test
  void an_unknown_or_malformed_name_is_refused_and_changes_nothing() {
    for (String command : List.of("pause", "resume", "trigger", "delete")) {
      Result unknown = tenure("schedules", command, "nope");
      assertOneErrorLine(unknown, ExitCodes.NOT_FOUND);
      assertThat(unknown.err()).contains("no schedule named 'nope'");
      Result malformed = tenure("schedules", command, " padded");
      assertOneErrorLine(malformed, ExitCodes.USAGE);
      assertThat(malformed.err()).contains("schedule name");
    }
    assertThat(tenure("schedules", "list").out()).isEqualTo("no schedule is declared.\n");
  }
}
