package io.tenure.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.NodeInfo;
import io.tenure.Tenure;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;

/**
 * The admin API and console under {@code tenure.admin.path} on Spring Boot's management server, in
 * a real servlet application (Tomcat): served there with its own Host and token checks, not on the
 * application's port, and advertised by the node.
 */
class TenureManagementPortTest {
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {}

  private static ConfigurableApplicationContext start(String... properties) {
    List<String> all = new ArrayList<>();
    all.add("server.port=0");
    all.add("server.address=127.0.0.1");
    all.add("management.server.port=0");
    all.add("management.server.address=127.0.0.1");
    all.add(
        "spring.autoconfigure.exclude=org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration");
    all.add("tenure.store=" + Runners.freshMemoryUrl());
    all.add("tenure.node.name=web-1");
    all.add("tenure.admin.enabled=true");
    all.add("tenure.admin.on-management-port=true");
    all.addAll(List.of(properties));
    return new SpringApplicationBuilder(App.class)
        .web(WebApplicationType.SERVLET)
        .properties(all.toArray(String[]::new))
        .run();
  }

  @Test
  void
      the_admin_api_and_console_are_served_on_the_management_port_with_the_host_check_and_advertised()
          throws IOException {
    try (ConfigurableApplicationContext context = start()) {
      Environment environment = context.getEnvironment();
      int management = environment.getRequiredProperty("local.management.port", Integer.class);
      int application = environment.getRequiredProperty("local.server.port", Integer.class);
      assertThat(management).isNotEqualTo(application);

      Answer cluster = get(management, "/tenure/api/cluster", "127.0.0.1:" + management);
      assertThat(cluster.status()).isEqualTo(200);
      assertThat(cluster.body()).contains("web-1");
      assertThat(cluster.header("content-type")).startsWith("application/json");

      Answer console = get(management, "/tenure/", "localhost:" + management);
      assertThat(console.status()).isEqualTo(200);
      assertThat(console.body()).contains("<script type=\"module\" src=\"app.js\">");
      assertThat(console.header("content-security-policy")).contains("default-src 'self'");
      assertThat(get(management, "/tenure/app.js", "localhost:" + management).status())
          .isEqualTo(200);
      assertThat(get(management, "/tenure/health/ready", "localhost:" + management).status())
          .isEqualTo(200);

      Answer bare = get(management, "/tenure", "localhost:" + management);
      assertThat(bare.status()).isEqualTo(302);
      assertThat(bare.header("location")).endsWith("/tenure/");

      assertThat(get(application, "/tenure/api/cluster", "127.0.0.1:" + application).status())
          .isEqualTo(404);

      // A page on another name (DNS rebinding), or the bound name with another port, is refused.
      Answer rebound = get(management, "/tenure/api/cluster", "evil.example:" + management);
      assertThat(rebound.status()).isEqualTo(421);
      assertThat(rebound.body()).contains("does not answer to the name 'evil.example");
      assertThat(get(management, "/tenure/api/cluster", "127.0.0.1:1").status()).isEqualTo(421);

      NodeInfo self = context.getBean(Tenure.class).admin().nodes().getFirst();
      assertThat(self.address()).isEqualTo("http://127.0.0.1:" + management + "/tenure");
    }
  }

  @Test
  void with_a_token_every_api_call_needs_it_and_a_cross_site_change_is_refused()
      throws IOException {
    try (ConfigurableApplicationContext context = start("tenure.admin.token=s3cret")) {
      int management =
          context.getEnvironment().getRequiredProperty("local.management.port", Integer.class);
      String host = "127.0.0.1:" + management;
      assertThat(get(management, "/tenure/api/cluster", host).status()).isEqualTo(401);
      assertThat(
              send(management, "GET", "/tenure/api/cluster", host, "Bearer s3cret", null, null)
                  .status())
          .isEqualTo(200);
      Answer crossSite =
          send(
              management,
              "POST",
              "/tenure/api/queues/emails/pause",
              host,
              "Bearer s3cret",
              "http://evil.example",
              "{}");
      assertThat(crossSite.status()).isEqualTo(403);
      Answer paused =
          send(
              management,
              "POST",
              "/tenure/api/queues/emails/pause",
              host,
              "Bearer s3cret",
              "http://" + host,
              "{}");
      assertThat(paused.status()).isEqualTo(200);
      assertThat(context.getBean(Tenure.class).admin().queueControl("emails").paused()).isTrue();
    }
  }

  @Test
  void on_every_interface_without_a_token_the_application_does_not_start() {
    assertThatThrownBy(() -> start("management.server.address=0.0.0.0").close())
        .hasStackTraceContaining("management server on 0.0.0.0")
        .hasStackTraceContaining("give it a token (tenure.admin.token)");
  }

  @Test
  void host_and_port_of_the_own_server_are_refused_with_the_management_port() {
    assertThatThrownBy(() -> start("tenure.admin.port=9999").close())
        .hasStackTraceContaining(
            "tenure.admin.host and tenure.admin.port do not apply with"
                + " tenure.admin.on-management-port=true");
  }

  @Test
  void a_path_that_is_not_a_path_is_refused_naming_the_property() {
    assertThatThrownBy(() -> start("tenure.admin.path=tenure/").close())
        .hasStackTraceContaining("tenure.admin.path must be a path like /tenure");
  }

  @Test
  void without_a_servlet_management_server_the_application_does_not_start() {
    assertThatThrownBy(
            () ->
                new SpringApplicationBuilder(App.class)
                    .web(WebApplicationType.NONE)
                    .properties(
                        "spring.autoconfigure.exclude=org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
                        "tenure.store=" + Runners.freshMemoryUrl(),
                        "server.address=127.0.0.1",
                        "tenure.admin.enabled=true",
                        "tenure.admin.on-management-port=true")
                    .run()
                    .close())
        .hasStackTraceContaining("needs a servlet web application with actuator");
  }

  record Answer(int status, List<String> headers, String body) {
    String header(String name) {
      return headers.stream()
          .filter(h -> h.toLowerCase().startsWith(name + ":"))
          .map(h -> h.substring(name.length() + 1).trim())
          .findFirst()
          .orElse("");
    }
  }

  private static Answer get(int port, String path, String host) throws IOException {
    return send(port, "GET", path, host, null, null, null);
  }

  /** A raw HTTP/1.1 request, so the Host header is exactly the one a browser could send. */
  private static Answer send(
      int port, String method, String path, String host, String auth, String origin, String body)
      throws IOException {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(10_000);
      StringBuilder request = new StringBuilder();
      request.append(method).append(' ').append(path).append(" HTTP/1.1\r\n");
      request.append("Host: ").append(host).append("\r\n");
      request.append("Connection: close\r\n");
      if (auth != null) {
        request.append("Authorization: ").append(auth).append("\r\n");
      }
      if (origin != null) {
        request.append("Origin: ").append(origin).append("\r\n");
      }
      byte[] payload = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
      if (body != null) {
        request.append("Content-Type: application/json\r\n");
        request.append("Content-Length: ").append(payload.length).append("\r\n");
      }
      request.append("\r\n");
      OutputStream out = socket.getOutputStream();
      out.write(request.toString().getBytes(StandardCharsets.US_ASCII));
      out.write(payload);
      out.flush();
      InputStream in = socket.getInputStream();
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      int split = text.indexOf("\r\n\r\n");
      String head = split < 0 ? text : text.substring(0, split);
      String rest = split < 0 ? "" : text.substring(split + 4);
      String[] lines = head.split("\r\n");
      int status = Integer.parseInt(lines[0].split(" ")[1]);
      return new Answer(status, List.of(lines).subList(1, lines.length), rest);
    }
  }
}
