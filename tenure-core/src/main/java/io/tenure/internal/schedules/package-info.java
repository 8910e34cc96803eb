/**
 * Schedules: when a schedule's slots fall ({@link io.tenure.internal.schedules.Slots}) and which
 * due slots fire ({@link io.tenure.internal.schedules.SlotPlanner}), as pure functions. Not
 * exported.
 */
@NullMarked
package io.tenure.internal.schedules;

import org.jspecify.annotations.NullMarked;
