/**
 * Dialects, schema migration, SQL error classification and the per-area JDBC stores. Not exported.
 */
@NullMarked
package io.tenure.jdbc.internal;

import org.jspecify.annotations.NullMarked;
