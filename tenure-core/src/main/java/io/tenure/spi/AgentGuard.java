package io.tenure.spi;

import io.tenure.AgentUri;

/**
 * An agent's ownership as a fencing token (SPEC §6.9): a write carrying it applies only while
 * {@code nodeId} owns {@code agent} at exactly {@code epoch}, checked in the same transaction. It
 * fails closed: no row, another owner or another epoch all refuse.
 */
public record AgentGuard(AgentUri agent, String nodeId, long epoch) {}
