package io.tenure.spring;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The {@code tenure.admin.*} properties: tenure-server's admin HTTP API, web console, {@code
 * /health/*} and {@code /metrics}, served for this node on a port of their own (docs/ADMIN-API.md).
 * Needs {@code io.tenure:tenure-server} on the class path.
 */
public class TenureAdminProperties {
  /** Whether to serve the admin API and console (needs io.tenure:tenure-server). */
  private boolean enabled = false;

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
        + host
        + ":"
        + port
        + (token == null ? "" : ", token ****")
        + "]";
  }
}
