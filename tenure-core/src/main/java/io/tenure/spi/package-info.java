/**
 * The storage SPI. A provider implements {@link io.tenure.spi.Store} and its per-area stores, and
 * proves it with the compliance kit ({@code tenure-tck}). Every method states MUST / MUST NOT
 * rules; there are no default methods, so a wrapper that forgets to forward one does not compile.
 */
@NullMarked
package io.tenure.spi;

import org.jspecify.annotations.NullMarked;
