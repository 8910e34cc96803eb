package io.tenure.server;

/**
 * Extra API paths an embedding process serves beside the standard ones, e.g. the demo's
 * supervisor's node controls under {@code /api/demo}.
 */
@FunctionalInterface
public interface AdminRoute {
  /**
   * @return the response body (a value {@link Json#write} accepts), answered with 200
   * @throws AdminException to answer with another status
   */
  Object handle(AdminRequest request);
}
