/** The markers runtime. Not exported. */
@NullMarked
package io.tenure.internal.markers;

import org.jspecify.annotations.NullMarked;
