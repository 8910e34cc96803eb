package io.tenure.tck;

import io.tenure.spi.Store;
import io.tenure.spi.TablePrefix;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * Base of every kit class: one fixture per class, a fresh prefix per test, everything dropped at
 * the end.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class FixtureSupport {
  /** The provider's fixture, created once per kit class. */
  protected StoreFixture fixture;

  /**
   * @return the provider's fixture; the only method a provider's subclass implements
   */
  protected abstract StoreFixture createFixture();

  @BeforeAll
  final void openFixture() {
    fixture = createFixture();
  }

  /** Stores do not outlive their test: a server's connection limit is shared by the whole run. */
  @AfterEach
  final void closeStores() {
    if (fixture != null) {
      fixture.closeStores();
    }
  }

  @AfterAll
  final void closeFixture() {
    if (fixture != null) {
      fixture.close();
    }
  }

  /**
   * @return a migrated store on a prefix no other test uses
   */
  protected Store freshStore() {
    return fixture.open(fixture.freshPrefix());
  }

  /**
   * @return a new prefix, for tests that open several stores on it
   */
  protected TablePrefix freshPrefix() {
    return fixture.freshPrefix();
  }
}
