package io.tenure.server;

import io.tenure.LockInfo;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A named lock as {@code GET /api/locks} and {@code tenure locks list --json} show it
 * (docs/ADMIN-API.md): one vocabulary for both.
 */
public final class LockJson {
  private LockJson() {}

  /**
   * @return the lock's fields: name, state, holder, token, acquiredAt, expiresAt, expiresInMs
   */
  public static Map<String, @Nullable Object> of(LockInfo lock) {
    Map<String, @Nullable Object> fields = new LinkedHashMap<>();
    fields.put("name", lock.name());
    fields.put("state", state(lock));
    fields.put("holder", lock.holder());
    fields.put("token", lock.token());
    fields.put("acquiredAt", lock.acquiredAt() == null ? null : lock.acquiredAt().toString());
    fields.put("expiresAt", lock.expiresAt().toString());
    fields.put("expiresInMs", Duration.between(lock.readAt(), lock.expiresAt()).toMillis());
    return fields;
  }

  /**
   * @return {@code HELD} while an acquisition holds it, {@code RELEASED} once given back but kept
   *     until its keep-for time, {@code FREE} once anyone may take it
   */
  public static String state(LockInfo lock) {
    if (lock.held()) {
      return "HELD";
    }
    return lock.available() ? "FREE" : "RELEASED";
  }
}
