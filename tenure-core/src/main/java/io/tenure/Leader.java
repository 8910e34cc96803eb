package io.tenure;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The node that holds the leader lease, as the store saw it in one read.
 *
 * @param nodeId the holder's incarnation id
 * @param name the holder's node name; null if its node row is already gone
 * @param epoch the fencing epoch of its tenure, which every leader-only write carries
 * @param expiresAt when the lease expires unless renewed, by the database clock
 */
public record Leader(String nodeId, @Nullable String name, long epoch, Instant expiresAt) {}
