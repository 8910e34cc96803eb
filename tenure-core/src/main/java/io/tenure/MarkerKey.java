package io.tenure;

/**
 * Identifies the one marker a resource may have within a tenant. The same resource id in two
 * tenants names two independent markers.
 *
 * @param tenant the tenant id: 1 to 128 characters, no control characters, no surrounding space
 * @param resource the resource id: 1 to 255 characters, same character rules as the tenant
 */
public record MarkerKey(String tenant, String resource) {
  /** Longest tenant id accepted. */
  public static final int MAX_TENANT_LENGTH = Checks.MAX_TENANT_LENGTH;

  /** Longest resource id accepted. */
  public static final int MAX_RESOURCE_LENGTH = Checks.MAX_RESOURCE_LENGTH;

  /**
   * @throws IllegalArgumentException if either id is null, blank, too long, has control characters
   *     or surrounding whitespace; the message names the argument and its value
   */
  public MarkerKey {
    Checks.id("tenant", tenant, MAX_TENANT_LENGTH);
    Checks.id("resource", resource, MAX_RESOURCE_LENGTH);
  }

  /**
   * @return a validated key
   * @throws IllegalArgumentException as the constructor
   */
  public static MarkerKey of(String tenant, String resource) {
    return new MarkerKey(tenant, resource);
  }

  /**
   * Checks a tenant id on its own, e.g. before a batch read.
   *
   * @return {@code tenant}
   * @throws IllegalArgumentException as the constructor
   */
  public static String requireValidTenant(String tenant) {
    return Checks.id("tenant", tenant, MAX_TENANT_LENGTH);
  }

  @Override
  public String toString() {
    return tenant + "/" + resource;
  }
}
