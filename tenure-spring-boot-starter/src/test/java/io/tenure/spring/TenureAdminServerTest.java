package io.tenure.spring;

import static io.tenure.spring.TenureHandlerTest.failure;
import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.NodeInfo;
import io.tenure.Tenure;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** tenure-server's admin API and console, served for the application's node. */
class TenureAdminServerTest {
  @Test
  void the_admin_server_serves_the_node_on_a_port_of_its_own_and_the_node_advertises_it() {
    Runners.inMemory()
        .withPropertyValues(
            "tenure.admin.enabled=true", "tenure.admin.port=0", "tenure.node.name=api-3")
        .run(
            context -> {
              TenureAdminServer admin = context.getBean(TenureAdminServer.class);
              assertThat(admin.isRunning()).isTrue();
              HttpClient http = HttpClient.newHttpClient();
              HttpResponse<String> ready =
                  http.send(
                      HttpRequest.newBuilder(URI.create(admin.url() + "/health/ready")).build(),
                      HttpResponse.BodyHandlers.ofString());
              assertThat(ready.statusCode()).isEqualTo(200);
              HttpResponse<String> cluster =
                  http.send(
                      HttpRequest.newBuilder(URI.create(admin.url() + "/api/cluster")).build(),
                      HttpResponse.BodyHandlers.ofString());
              assertThat(cluster.statusCode()).isEqualTo(200);
              assertThat(cluster.body()).contains("api-3");
              NodeInfo self = context.getBean(Tenure.class).admin().nodes().getFirst();
              assertThat(self.address()).isEqualTo(admin.advertisedUrl());
            });
  }

  @Test
  void an_admin_server_beyond_loopback_without_a_token_stops_the_context() {
    Runners.inMemory()
        .withPropertyValues("tenure.admin.enabled=true", "tenure.admin.host=0.0.0.0")
        .run(
            context ->
                assertThat(failure(context))
                    .contains("tenure.admin (admin[enabled=true, 0.0.0.0:0])")
                    .contains("give it a token"));
  }
}
