/**
 * The JDBC store provider. Applications open it through {@link io.tenure.Tenure#open(String)} with
 * a {@code sqlite:}, {@code jdbc:postgresql:}, {@code jdbc:mariadb:} or {@code jdbc:mysql:} URL, or
 * {@link io.tenure.Tenure#builder(javax.sql.DataSource)}; {@link
 * io.tenure.jdbc.JdbcStore#builder()} opens the SPI store directly, with every setting (connect and
 * statement timeouts, user and password apart from the URL).
 */
@NullMarked
package io.tenure.jdbc;

import org.jspecify.annotations.NullMarked;
