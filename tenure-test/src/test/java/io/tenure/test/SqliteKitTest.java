package io.tenure.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.QueuePolicy;
import io.tenure.Schedule;
import io.tenure.Tenure;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * The kit on SQLite: a file per test in a folder deleted afterwards, everything but moving the
 * clock, which SQLite reads itself and which the clock refuses to pretend to move.
 */
class SqliteKitTest {
  @RegisterExtension static final TenureExtension TENURE = TenureExtension.sqlite();

  @Test
  void enqueue_drain_and_dead_letter_work_as_in_memory(Tenure tenure, TenureTestKit kit) {
    Queue emails = tenure.queue("emails", QueuePolicy.defaults().withMaxAttempts(1));
    emails.enqueue(OutgoingMessage.text("welcome").key("user-7"));
    emails.enqueue(OutgoingMessage.text("bounce"));
    kit.assertEnqueued(emails, 2, Messages.any());

    DrainResult result =
        kit.drain(
            emails,
            delivery -> {
              if (delivery.text().equals("bounce")) {
                throw new IllegalStateException("mailbox full");
              }
            });

    assertThat(result.handled()).isEqualTo(1);
    assertThat(result.dead()).isEqualTo(1);
    kit.assertEnqueued(emails, 0, Messages.any());
    kit.assertDeadLettered(emails, Messages.text("bounce"));
    assertThat(tenure.toString()).contains("sqlite").contains("tenure-test-");
  }

  @Test
  void the_clock_reads_sqlite_and_refuses_to_move_naming_the_store(Tenure tenure, TestClock clock) {
    Instant before = clock.now();

    assertThat(clock.movable()).isFalse();
    assertThat(Duration.between(before, Instant.now()).abs()).isLessThan(Duration.ofMinutes(1));
    assertThatThrownBy(() -> clock.advance(Duration.ofMinutes(1)))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageStartingWith("TestClock.advance(PT1M) refused: Tenure[sqlite sqlite:")
        .hasMessageContaining("reads its own database clock inside every statement")
        .hasMessageContaining("TenureExtension.inMemory()");
    assertThatThrownBy(() -> clock.set(before.plusSeconds(60)))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> clock.advance(Duration.ofSeconds(-1)))
        .as("bad input is bad input on every store")
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(tenure.store().now()).isBefore(before.plusSeconds(60));
  }

  @Test
  void schedules_fire_by_sqlites_own_clock(Tenure tenure, TestClock clock, TenureTestKit kit) {
    Queue reports = tenure.queue("reports", QueuePolicy.defaults());
    tenure
        .schedules()
        .declare(
            Schedule.every("yearly", Duration.ofDays(365))
                .enqueue(reports, OutgoingMessage.text("report")));
    Instant next = tenure.schedules().find("yearly").orElseThrow().nextFireAt();

    assertThat(kit.fireDueSchedules()).isZero();
    kit.assertScheduledNext("yearly", next);
    assertThat(next).isAfter(clock.now());
    assertThatThrownBy(() -> kit.advanceFiringSchedules(Duration.ofDays(365)))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  /** The folders the sample's tests ran in. */
  static final List<Path> FOLDERS = new CopyOnWriteArrayList<>();

  static class FolderSample {
    @RegisterExtension static final TenureExtension TENURE = TenureExtension.sqlite();

    @Test
    void one(Tenure tenure) {
      FOLDERS.add(folderOf(tenure));
    }

    @Test
    void two(Tenure tenure) {
      FOLDERS.add(folderOf(tenure));
    }

    private static Path folderOf(Tenure tenure) {
      String location = tenure.toString().replaceFirst(".*sqlite:", "").replaceFirst(",.*", "");
      Path file = Path.of(location);
      assertThat(file).exists();
      return file.getParent();
    }
  }

  @Test
  void each_test_has_a_file_of_its_own_whose_folder_is_deleted_after_it() {
    FOLDERS.clear();
    EngineTestKit.engine("junit-jupiter")
        .selectors(selectClass(FolderSample.class))
        .execute()
        .testEvents()
        .assertStatistics(stats -> stats.succeeded(2));

    assertThat(FOLDERS).hasSize(2).doesNotHaveDuplicates();
    assertThat(FOLDERS).allSatisfy(folder -> assertThat(Files.exists(folder)).isFalse());
  }
}
