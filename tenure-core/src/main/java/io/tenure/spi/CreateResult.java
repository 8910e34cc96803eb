package io.tenure.spi;

import io.tenure.Marker;

/**
 * The result of a create-if-absent.
 *
 * @param created true if this call inserted the row
 * @param marker the row as stored after the call: the one this call wrote, or the one already there
 */
public record CreateResult(boolean created, Marker marker) {}
