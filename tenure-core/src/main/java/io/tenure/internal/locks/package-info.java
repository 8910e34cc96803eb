/** Named locks held by a process: acquisition, keep-alive, loss reporting (SPEC §11). */
@NullMarked
package io.tenure.internal.locks;

import org.jspecify.annotations.NullMarked;
