package io.tenure.server;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One admin API call, as a route sees it.
 *
 * @param method {@code GET} or {@code POST}
 * @param path the path without the query, e.g. {@code /api/queues/orders/dead}
 * @param query the query parameters (the last value of a repeated one)
 * @param body the request body as text, empty if none
 * @param authorization the Authorization header, passed on when the call is forwarded to the leader
 * @param forwarded whether another server forwarded this call (it is never forwarded again)
 */
public record AdminRequest(
    String method,
    String path,
    Map<String, String> query,
    String body,
    @Nullable String authorization,
    boolean forwarded) {
  /** Copies the query. */
  public AdminRequest {
    query = Map.copyOf(query);
  }

  /**
   * @return the body as a JSON object; an empty object for an empty body
   * @throws AdminException 400 if the body is not one JSON object
   */
  public Map<String, Object> json() {
    if (body.isBlank()) {
      return Map.of();
    }
    try {
      return Json.parseObject(body);
    } catch (IllegalArgumentException e) {
      throw AdminException.badRequest("the request body is not a JSON object: " + e.getMessage());
    }
  }

  /**
   * @return the string field {@code name} of the JSON body, or null if absent or null
   * @throws AdminException 400 if it is present with another type
   */
  public @Nullable String string(Map<String, Object> json, String name) {
    Object value = json.get(name);
    if (value == null || value instanceof String) {
      return (String) value;
    }
    throw AdminException.badRequest(
        "field '" + name + "' must be a string, got " + Json.write(value));
  }

  /**
   * @return the query parameter {@code name} as an int in {@code [min, max]}, or {@code fallback}
   * @throws AdminException 400 if it is not such a number
   */
  public int intParameter(String name, int fallback, int min, int max) {
    String value = query.get(name);
    if (value == null) {
      return fallback;
    }
    try {
      int parsed = Integer.parseInt(value);
      if (parsed >= min && parsed <= max) {
        return parsed;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw AdminException.badRequest(
        name + " must be a whole number from " + min + " to " + max + ", got '" + value + "'");
  }
}
