package io.tenure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.inmemory.InMemoryStore;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Malformed agent URIs and a family registered twice: clear errors, nothing written. */
class AgentBadInputTest {

  @Test
  void malformed_agent_uris_are_refused_naming_the_value() {
    assertThatThrownBy(() -> AgentUri.parse("orders"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("scheme://name")
        .hasMessageContaining("'orders'");
    assertThatThrownBy(() -> AgentUri.parse("Projection://orders"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'Projection'");
    assertThatThrownBy(() -> AgentUri.parse("projection://"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("agent name");
    assertThatThrownBy(() -> AgentUri.parse("projection://two words"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'two words'");
    assertThatThrownBy(() -> AgentUri.parse(null)).isInstanceOf(IllegalArgumentException.class);
    assertThat(AgentUri.parse("queue://orders/eu-1").name()).isEqualTo("orders/eu-1");
  }

  @Test
  void a_family_registered_twice_is_refused_and_nothing_is_written() {
    InMemoryStore store = InMemoryStore.create();
    AgentFamily family =
        new AgentFamily() {
          @Override
          public String scheme() {
            return "projection";
          }

          @Override
          public Set<AgentUri> wantedAgents() {
            return Set.of();
          }

          @Override
          public Agent build(AgentUri uri) {
            throw new UnsupportedOperationException();
          }
        };
    TenureNodeBuilder builder = TenureNode.builder(store).agentFamily(family);

    assertThatThrownBy(() -> builder.agentFamily(family))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'projection'");
    assertThat(store.membership().read().nodes()).isEmpty();
    // Without wake-ups, whose wake:udp: capability would stand beside the family's.
    try (TenureNode node = builder.wakeups(false, "127.0.0.1").build()) {
      assertThat(node.settings().capabilities()).containsExactly("projection");
    }
  }
}
