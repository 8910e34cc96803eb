/**
 * Tenure for Spring Boot: auto-configuration of a {@link io.tenure.Tenure} on the application's
 * {@code DataSource}, a node tied to the context's lifecycle, {@link
 * io.tenure.spring.TenureHandler} and {@link io.tenure.spring.TenureSchedule} methods, {@link
 * io.tenure.spring.TenureQueues} (whose enqueue joins the current transaction), a health indicator
 * and meters. See docs/SPRING.md.
 *
 * <p>Every reference is non-null unless annotated {@code @Nullable}.
 */
@NullMarked
package io.tenure.spring;

import org.jspecify.annotations.NullMarked;
