/** The node runtime: membership, election, leader duties. Not exported. */
@NullMarked
package io.tenure.internal.cluster;

import org.jspecify.annotations.NullMarked;
