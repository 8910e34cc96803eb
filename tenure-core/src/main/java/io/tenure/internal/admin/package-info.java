/** The operator view behind {@link io.tenure.Admin}. Not exported. */
@NullMarked
package io.tenure.internal.admin;

import org.jspecify.annotations.NullMarked;
