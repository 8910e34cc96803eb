/**
 * The JDBC store: open one with {@link io.tenure.jdbc.JdbcStore#builder()} or through {@link
 * io.tenure.Stores#open(String)} with a {@code sqlite:}, {@code jdbc:postgresql:}, {@code
 * jdbc:mariadb:} or {@code jdbc:mysql:} URL.
 */
@NullMarked
package io.tenure.jdbc;

import org.jspecify.annotations.NullMarked;
