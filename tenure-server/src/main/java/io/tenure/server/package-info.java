/**
 * A node's admin endpoint: the JSON admin API, the web console, health checks and Prometheus
 * metrics ({@link io.tenure.server.AdminServer}), and the small JSON writer and reader the launcher
 * shares ({@link io.tenure.server.Json}).
 *
 * <p>Every reference is non-null unless annotated {@code @Nullable}.
 */
@NullMarked
package io.tenure.server;

import org.jspecify.annotations.NullMarked;
