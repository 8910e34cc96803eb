package io.tenure.spring;

import io.tenure.TenureNode;

/**
 * The admin server as the node's lifecycle sees it, without naming tenure-server's classes (an
 * optional dependency): the address the node advertises, and the node it then serves.
 */
interface AdminEndpoint {
  /**
   * @return the URL other machines reach the admin server at
   */
  String advertisedUrl();

  /** Makes the server the node's admin endpoint: node fields, agent actions, node meters. */
  void attach(TenureNode node);
}
