/**
 * The Tenure compliance kit: abstract JUnit 5 classes, one per area. A store provider runs the kit
 * by subclassing each class with a wiring-only subclass that returns its {@link
 * io.tenure.tck.StoreFixture}.
 */
@NullMarked
package io.tenure.tck;

import org.jspecify.annotations.NullMarked;
