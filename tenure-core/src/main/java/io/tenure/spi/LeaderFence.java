package io.tenure.spi;

/**
 * The token a leader-only write carries: it is accepted only while {@code nodeId} holds the leader
 * lease at exactly {@code epoch} and the lease has not expired by the database clock. Fails closed:
 * a missing lease row refuses the write.
 *
 * @param nodeId the leader's incarnation id
 * @param epoch the epoch it believes it holds
 */
public record LeaderFence(String nodeId, long epoch) {}
