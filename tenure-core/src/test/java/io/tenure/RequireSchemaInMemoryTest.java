package io.tenure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.spi.Store;
import io.tenure.spi.StoreSettings;
import io.tenure.spi.TablePrefix;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@link StoreSettings#existing} through {@link Stores#open} on the in-memory provider. */
class RequireSchemaInMemoryTest {
  private final String url = "memory:require-" + UUID.randomUUID();

  @Test
  void an_existing_open_refuses_a_prefix_never_migrated_and_opens_it_once_migrated() {
    TablePrefix prefix = TablePrefix.of("req_");

    assertThatThrownBy(() -> Stores.open(StoreSettings.existing(url, prefix)))
        .isInstanceOf(SchemaMissingException.class)
        .hasMessageContaining("prefix 'req_'")
        .hasMessageContaining("tenure migrate");
    try (Store migrated = Stores.open(new StoreSettings(url, prefix, true));
        Store existing = Stores.open(StoreSettings.existing(url, prefix))) {
      assertThat(existing.describe().schemaVersion())
          .isEqualTo(migrated.describe().schemaVersion());
    }
  }

  @Test
  void require_schema_with_migration_is_refused() {
    assertThatThrownBy(() -> new StoreSettings(url, TablePrefix.DEFAULT, true, true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("requireSchema");
    assertThat(new StoreSettings(url, TablePrefix.DEFAULT, false).requireSchema()).isFalse();
  }
}
