package io.tenure.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code @ExtendWith(TenureExtension.class)}: each test method gets a fresh in-memory store, and
 * its parameters of type {@link io.tenure.Tenure}, {@link TestClock} and {@link TenureTestKit} are
 * injected. For SQLite or a server database, register {@link TenureExtension#sqlite()} or {@link
 * TenureExtension#url} in a field instead.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(TenureExtension.class)
public @interface TenureTest {}
