package io.tenure.server;

import io.tenure.QueueControl;
import io.tenure.QueueLimits;
import io.tenure.RateLimit;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A queue's pause and limits as the admin API and {@code tenure queue limits --json} show and take
 * them (docs/ADMIN-API.md): one vocabulary for both.
 */
public final class QueueControlJson {
  private static final Set<String> LIMIT_FIELDS =
      Set.of("maxInFlight", "maxInFlightPerGroup", "rate");
  private static final Set<String> RATE_FIELDS = Set.of("claims", "perMs", "perGroup");

  private QueueControlJson() {}

  /**
   * @return the control, its limits and their current use
   */
  public static Map<String, @Nullable Object> of(QueueControl control) {
    Map<String, @Nullable Object> fields = new LinkedHashMap<>();
    fields.put("queue", control.queue());
    fields.put("paused", control.paused());
    fields.put("limits", limits(control.limits()));
    fields.put("inFlight", control.inFlight());
    fields.put("groupsInFlight", new LinkedHashMap<>(control.groupsInFlight()));
    fields.put("claimsInWindow", control.claimsInWindow());
    fields.put("updatedAt", control.updatedAt() == null ? null : control.updatedAt().toString());
    return fields;
  }

  /**
   * @return {@code maxInFlight}, {@code maxInFlightPerGroup} (0: none) and {@code rate} (null, or
   *     {@code claims}, {@code perMs}, {@code perGroup})
   */
  public static Map<String, @Nullable Object> limits(QueueLimits limits) {
    Map<String, @Nullable Object> fields = new LinkedHashMap<>();
    fields.put("maxInFlight", limits.maxInFlight());
    fields.put("maxInFlightPerGroup", limits.maxInFlightPerGroup());
    RateLimit rate = limits.rate();
    if (rate == null) {
      fields.put("rate", null);
    } else {
      Map<String, @Nullable Object> r = new LinkedHashMap<>();
      r.put("claims", rate.claims());
      r.put("perMs", rate.per().toMillis());
      r.put("perGroup", rate.perGroup());
      fields.put("rate", r);
    }
    return fields;
  }

  /**
   * Reads limits as {@link #limits} writes them; a field left out is no limit.
   *
   * @throws IllegalArgumentException naming the field that is unknown, of the wrong type or out of
   *     range
   */
  public static QueueLimits parseLimits(Map<String, Object> json) {
    for (String field : json.keySet()) {
      if (!LIMIT_FIELDS.contains(field)) {
        throw new IllegalArgumentException(
            "unknown limits field '" + field + "'; use maxInFlight, maxInFlightPerGroup and rate");
      }
    }
    RateLimit rate = null;
    Object r = json.get("rate");
    if (r instanceof Map<?, ?> map) {
      for (Object field : map.keySet()) {
        if (!RATE_FIELDS.contains(field)) {
          throw new IllegalArgumentException(
              "unknown rate field '" + field + "'; use claims, perMs and perGroup");
        }
      }
      Object perGroup = map.get("perGroup");
      if (perGroup != null && !(perGroup instanceof Boolean)) {
        throw new IllegalArgumentException("rate.perGroup must be true or false, got " + perGroup);
      }
      rate =
          new RateLimit(
              whole(map.get("claims"), "rate.claims"),
              Duration.ofMillis(whole(map.get("perMs"), "rate.perMs")),
              Boolean.TRUE.equals(perGroup));
    } else if (r != null) {
      throw new IllegalArgumentException(
          "rate must be null or {\"claims\": N, \"perMs\": MS, \"perGroup\": false}, got " + r);
    }
    return new QueueLimits(
        orZero(json.get("maxInFlight"), "maxInFlight"),
        orZero(json.get("maxInFlightPerGroup"), "maxInFlightPerGroup"),
        rate);
  }

  private static int orZero(@Nullable Object value, String name) {
    return value == null ? 0 : whole(value, name);
  }

  private static int whole(@Nullable Object value, String name) {
    if (value instanceof Long n && n >= Integer.MIN_VALUE && n <= Integer.MAX_VALUE) {
      return n.intValue();
    }
    if (value instanceof Integer n) {
      return n;
    }
    throw new IllegalArgumentException(name + " must be a whole number, got " + value);
  }
}
