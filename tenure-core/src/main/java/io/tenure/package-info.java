/**
 * Tenure's public API, the only package an application imports. Open a {@link io.tenure.Tenure} by
 * URL or on a {@code DataSource}; build {@link io.tenure.Queue}s, {@link io.tenure.Markers} and a
 * {@link io.tenure.TenureNode} from it; read the cluster and the dead letters through its {@link
 * io.tenure.Admin} view. Typed exceptions are here too.
 *
 * <p>A few signatures name {@code io.tenure.spi} types for providers, integrations and tests that
 * work on a raw store ({@link io.tenure.Stores}, {@link io.tenure.Tenure#store()}, {@code
 * Queue.on}, {@code Markers.builder}, {@code TenureNode.builder}); an architecture test lists them.
 *
 * <p>Every reference is non-null unless annotated {@code @Nullable}.
 */
@NullMarked
package io.tenure;

import org.jspecify.annotations.NullMarked;
