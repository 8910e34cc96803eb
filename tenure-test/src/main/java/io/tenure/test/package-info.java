/**
 * The test kit: {@link io.tenure.test.TenureExtension} (or {@link io.tenure.test.TenureTest}) gives
 * each test method a fresh store and injects {@link io.tenure.Tenure}, {@link
 * io.tenure.test.TestClock} and {@link io.tenure.test.TenureTestKit}. See docs/TESTING-YOUR-APP.md.
 */
@NullMarked
package io.tenure.test;

import org.jspecify.annotations.NullMarked;
