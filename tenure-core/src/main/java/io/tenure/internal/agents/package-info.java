/**
 * The agent runtime: the leader's assignment planner and the node reconciliation sweep. Not
 * exported.
 */
@NullMarked
package io.tenure.internal.agents;

import org.jspecify.annotations.NullMarked;
