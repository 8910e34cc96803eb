/**
 * The {@code tenure} launcher: operator commands over a store ({@code migrate}, {@code status},
 * {@code markers ...}) with text or {@code --json} output and documented exit codes.
 *
 * <p>Every reference is non-null unless annotated {@code @Nullable}.
 */
@NullMarked
package io.tenure.cli;

import org.jspecify.annotations.NullMarked;
