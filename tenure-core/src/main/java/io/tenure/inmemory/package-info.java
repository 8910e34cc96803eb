/**
 * The in-memory store: the same SPI, the same compliance kit, no database. For runtime unit tests
 * and experiments; data lives as long as the JVM.
 */
@NullMarked
package io.tenure.inmemory;

import org.jspecify.annotations.NullMarked;
