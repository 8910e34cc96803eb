package io.tenure.spring;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The {@code tenure.admin.*} properties: tenure-server's admin HTTP API, web console, {@code
 * /health/*} and {@code /metrics}, served for this node on a port of their own, or under a path of
 * the management server (docs/ADMIN-API.md, docs/SPRING.md). Needs {@code io.tenure:tenure-server}
 * on the class path.
 */
public class TenureAdminProperties {
  /** Whether to serve the admin API and console (needs io.tenure:tenure-server). */
  private boolean enabled = false;

  /**
   * Serve them under {@code path} on the management server (management.server.port, else the
   * application's port) instead of a port of their own; needs a servlet web application with
   * actuator. host and port then do not apply.
   */
  private boolean onManagementPort = false;

  /** Where they are served on the management server, e.g. /tenure (console at /tenure/). */
  private String path = "/tenure";

  /** The address to listen on. Beyond loopback a token is required: the API changes the cluster. */
  private String host = "127.0.0.1";

  /** The port to listen on, 0 to 65535; 0 picks a free one (logged at start). */
  private int port = 0;

  /**
   * The bearer token every /api call and /metrics must carry; required when bound beyond loopback.
   */
  private @Nullable String token;

  /**
   * Host names the server answers to besides its address, e.g. the name a reverse proxy forwards
   * (NAME or NAME:PORT); a request naming another gets 421.
   */
  private List<String> allowedHosts = new ArrayList<>();

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public boolean isOnManagementPort() {
    return onManagementPort;
  }

  public void setOnManagementPort(boolean onManagementPort) {
    this.onManagementPort = onManagementPort;
  }

  public String getPath() {
    return path;
  }

  public void setPath(String path) {
    if (path == null || !path.matches("(/[A-Za-z0-9._~-]+)+")) {
      throw new IllegalArgumentException(
          "tenure.admin.path must be a path like /tenure or /ops/tenure (segments of letters,"
              + " digits, '.', '_', '~' or '-', no trailing '/'), got '"
              + path
              + "'");
    }
    this.path = path;
  }

  public String getHost() {
    return host;
  }

  public void setHost(String host) {
    if (host == null || host.isBlank()) {
      throw new IllegalArgumentException("tenure.admin.host must not be blank");
    }
    this.host = host;
  }

  public int getPort() {
    return port;
  }

  public void setPort(int port) {
    this.port = PropertyChecks.between("tenure.admin.port", port, 0, 65_535);
  }

  public @Nullable String getToken() {
    return token;
  }

  public void setToken(@Nullable String token) {
    this.token = token;
  }

  public List<String> getAllowedHosts() {
    return allowedHosts;
  }

  public void setAllowedHosts(List<String> allowedHosts) {
    this.allowedHosts = new ArrayList<>(allowedHosts);
  }

  @Override
  public String toString() {
    // The token is a secret: never in a log line or an error message.
    return "admin[enabled="
        + enabled
        + ", "
        + (onManagementPort ? "management port " + path : host + ":" + port)
        + (token == null ? "" : ", token ****")
        + "]";
  }
}
