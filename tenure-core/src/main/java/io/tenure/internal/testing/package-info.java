/**
 * The one door from the user test kit (tenure-test, module {@code io.tenure.test}) into the
 * runtime: {@code module-info} exports this package to that module alone. Not part of the API.
 */
@NullMarked
package io.tenure.internal.testing;

import org.jspecify.annotations.NullMarked;
