/**
 * The storage SPI, for providers only. A provider implements {@link io.tenure.spi.Store} and its
 * per-area stores, is found through {@link io.tenure.spi.StoreProvider} and {@link
 * java.util.ServiceLoader}, and proves itself with the compliance kit ({@code tenure-tck}). Every
 * method states MUST / MUST NOT rules; there are no default methods, so a wrapper that forgets to
 * forward one does not compile.
 *
 * <p>Applications do not call these stores: their methods (a raw claim, resolve or marker upsert)
 * skip the checks the API makes. They open an {@link io.tenure.Tenure} and use {@code io.tenure}.
 */
@NullMarked
package io.tenure.spi;

import org.jspecify.annotations.NullMarked;
