package io.tenure.server;

import io.tenure.NodeInfo;
import io.tenure.NodeStatus;
import io.tenure.spi.Lease;
import io.tenure.spi.MembershipView;
import io.tenure.spi.Store;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Other nodes' admin endpoints, at the addresses they advertise in the membership table: a server
 * that is not a node (the demo's supervisor) asks them for their queue rates and sends agent
 * actions to the leader.
 */
final class Peers {
  private static final Duration TIMEOUT = Duration.ofSeconds(1);

  /** A pause waits for the owner to stop the agent: give it the node's own bound and some. */
  private static final Duration ACTION_TIMEOUT = Duration.ofSeconds(30);

  private static final Logger LOG = LoggerFactory.getLogger(Peers.class);

  /** Marks a call one server forwarded to another: it is never forwarded again. */
  static final String FORWARDED = "X-Tenure-Forwarded";

  private final Store store;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

  Peers(Store store) {
    this.store = store;
  }

  /** Sends {@code request} to the leader's admin endpoint and returns its answer. */
  Object forwardToLeader(AdminRequest request, @org.jspecify.annotations.Nullable String selfId) {
    if (request.forwarded()) {
      throw new AdminException(
          503,
          "leadership is changing (a forwarded call reached a node that does not lead); try again");
    }
    Lease lease = store.leases().read();
    if (lease.holder() == null || !lease.expiresAt().isAfter(lease.readAt())) {
      throw new AdminException(503, "no leader right now; try again in a few seconds");
    }
    if (lease.holder().equals(selfId)) {
      throw new AdminException(
          503,
          "this node's lease is still in the table but it no longer leads; try again in a few seconds");
    }
    NodeInfo leader =
        store.membership().read().nodes().stream()
            .filter(n -> n.nodeId().equals(lease.holder()))
            .findFirst()
            .orElseThrow(
                () ->
                    new AdminException(
                        503, "the leader is not in the membership table; try again"));
    if (leader.address().isBlank()) {
      throw AdminException.conflict(
          "the leader " + leader.name() + " advertises no admin address (start it with --http)");
    }
    HttpRequest.Builder forward =
        HttpRequest.newBuilder(resolve(leader.address(), request.path()))
            .timeout(ACTION_TIMEOUT)
            .header("Content-Type", "application/json")
            .header(FORWARDED, "1")
            .POST(HttpRequest.BodyPublishers.ofString(request.body()));
    if (request.authorization() != null) {
      forward.header("Authorization", request.authorization());
    }
    HttpResponse<String> response;
    try {
      response = http.send(forward.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new AdminException(
          502, "the leader " + leader.name() + " at " + leader.address() + " did not answer: " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AdminException(503, "interrupted while asking the leader");
    }
    Map<String, Object> body;
    try {
      body = Json.parseObject(response.body());
    } catch (IllegalArgumentException e) {
      throw new AdminException(
          502,
          "the leader "
              + leader.name()
              + " answered "
              + response.statusCode()
              + " without JSON; is "
              + leader.address()
              + " a Tenure node?");
    }
    if (response.statusCode() != 200) {
      throw new AdminException(response.statusCode(), String.valueOf(body.get("error")));
    }
    return body;
  }

  /**
   * Each queue's handled-per-second summed over the ACTIVE nodes that answer within a second, asked
   * with the caller's Authorization header; queues no node reported are left out.
   */
  Map<String, Double> clusterRates(
      MembershipView view, @org.jspecify.annotations.Nullable String authorization) {
    List<NodeInfo> active =
        view.nodes().stream()
            .filter(n -> n.status() == NodeStatus.ACTIVE && !n.address().isBlank())
            .toList();
    List<CompletableFuture<HttpResponse<String>>> answers =
        active.stream()
            .map(
                n -> {
                  HttpRequest.Builder ask =
                      HttpRequest.newBuilder(resolve(n.address(), "/api/queues"))
                          .timeout(TIMEOUT)
                          .GET();
                  if (authorization != null) {
                    ask.header(
                        "Authorization", authorization); // nodes with a token need it on reads too
                  }
                  return http.sendAsync(ask.build(), HttpResponse.BodyHandlers.ofString());
                })
            .toList();
    Map<String, Double> rates = new HashMap<>();
    for (CompletableFuture<HttpResponse<String>> answer : answers) {
      try {
        HttpResponse<String> response = answer.get();
        if (response.statusCode() != 200) {
          continue;
        }
        Object queues = Json.parseObject(response.body()).get("queues");
        for (Object queue : (List<?>) queues) {
          Map<?, ?> fields = (Map<?, ?>) queue;
          if (fields.get("handledPerSecond") instanceof Number rate) {
            rates.merge((String) fields.get("name"), rate.doubleValue(), Double::sum);
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      } catch (Exception e) {
        LOG.debug("a node did not report its queue rates: {}", e.toString());
      }
    }
    rates.replaceAll((queue, rate) -> Math.round(rate * 10) / 10.0);
    return rates;
  }

  private static URI resolve(String address, String path) {
    String base = address.endsWith("/") ? address.substring(0, address.length() - 1) : address;
    return URI.create(base + path);
  }
}
