package io.tenure.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.cli.Cli.Result;
import io.tenure.spi.LockGrant;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@code tenure locks list} against a real store, its locks taken through the store. */
abstract class LockCommandsContract extends LiveStoreContract {
  @Test
  void list_shows_each_lock_with_its_state_holder_token_and_expiry() {
    inStore(
        store -> {
          LockGrant released =
              store
                  .locks()
                  .acquire("a-cleanup", UUID.randomUUID().toString(), "api-2", Duration.ofHours(1))
                  .orElseThrow();
          store.locks().release(released, Duration.ofMinutes(30));
          LockGrant free =
              store
                  .locks()
                  .acquire("b-export", UUID.randomUUID().toString(), "api-3", Duration.ofHours(1))
                  .orElseThrow();
          store.locks().release(free, Duration.ZERO);
          return store
              .locks()
              .acquire("c-report", UUID.randomUUID().toString(), "api-1", Duration.ofHours(1));
        });

    Result json = tenure("locks", "list", "--json");
    Result text = tenure("locks", "list");

    assertThat(json.exitCode()).as(json.toString()).isZero();
    List<Map<String, Object>> locks = list(json.json(), "locks");
    assertThat(locks)
        .extracting(
            l -> l.get("name"), l -> l.get("state"), l -> l.get("holder"), l -> l.get("token"))
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("a-cleanup", "RELEASED", "api-2", 1L),
            org.assertj.core.groups.Tuple.tuple("b-export", "FREE", "api-3", 1L),
            org.assertj.core.groups.Tuple.tuple("c-report", "HELD", "api-1", 1L));
    assertThat((Long) locks.get(2).get("expiresInMs")).isBetween(3_500_000L, 3_600_000L);
    assertThat(text.exitCode()).isZero();
    assertThat(text.out().lines().toList())
        .hasSize(4)
        .first()
        .asString()
        .matches("LOCK +STATE +HOLDER +TOKEN +EXPIRES IN");
    assertThat(text.out()).containsPattern("(?m)^c-report +HELD +api-1 +1 +59m [0-9]+s$");
    assertThat(text.out()).containsPattern("(?m)^b-export +FREE +api-3 +1 +-$");
  }

  @Test
  void list_of_a_store_where_no_lock_was_taken_says_so() {
    Result text = tenure("locks", "list");
    Result json = tenure("locks", "list", "--json");

    assertThat(text.exitCode()).isZero();
    assertThat(text.out()).isEqualTo("no lock was ever taken.\n");
    assertThat(list(json.json(), "locks")).isEmpty();
  }
}
