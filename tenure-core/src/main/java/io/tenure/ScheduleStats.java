package io.tenure;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * What this node's schedule duty did while it led (SPEC §10): for metrics.
 *
 * @param fired slots fired (each enqueued its message, or found it already enqueued)
 * @param skipped slots skipped by their schedules' missed-slot policies
 * @param lastLag how late the last fired slot was enqueued after its time, by the database clock;
 *     null before the first
 * @param maxLag the longest such lag so far; null before the first
 */
public record ScheduleStats(
    long fired, long skipped, @Nullable Duration lastLag, @Nullable Duration maxLag) {}
