/**
 * The fault harness (SPEC §9.4): node processes ({@link io.tenure.chaos.NodeProcesses}) each
 * running the harness's own node ({@link io.tenure.chaos.ChaosNode}), a workload that records what
 * it does ({@link io.tenure.chaos.ChaosWorkload}, {@link io.tenure.chaos.History}), faults on a
 * seeded schedule ({@link io.tenure.chaos.ChaosRun}), guards broken on purpose from outside the
 * store for negative controls ({@link io.tenure.chaos.UnsafeGuard}), and the checker that reads the
 * history and the tables ({@link io.tenure.chaos.Checker}).
 *
 * <p>Every reference is non-null unless annotated {@code @Nullable}.
 */
@NullMarked
package io.tenure.chaos;

import org.jspecify.annotations.NullMarked;
