/**
 * Tenure's public API: markers, typed exceptions and the entry point that opens a store by URL.
 *
 * <p>Every reference is non-null unless annotated {@code @Nullable}.
 */
@NullMarked
package io.tenure;

import org.jspecify.annotations.NullMarked;
