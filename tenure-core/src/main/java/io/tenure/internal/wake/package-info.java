/**
 * Wake-ups (issue 20 §2): after a commit that enqueues, a datagram that carries only a queue's name
 * tells the nodes that consume it to claim now instead of at their next poll; after the leader's
 * placement commit, one that says only "agents placed" tells every node to sweep its agents now
 * instead of at its next sweep. Not exported.
 */
@NullMarked
package io.tenure.internal.wake;

import org.jspecify.annotations.NullMarked;
