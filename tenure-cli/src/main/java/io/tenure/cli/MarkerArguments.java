package io.tenure.cli;

import io.tenure.MarkerChange;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The TENANT RESOURCE STATE [--reason] arguments shared by {@code transition} and {@code save}. */
final class MarkerArguments {
  @Parameters(index = "0", paramLabel = "TENANT", description = "Tenant id.")
  String tenant = "";

  @Parameters(index = "1", paramLabel = "RESOURCE", description = "Resource id.")
  String resource = "";

  @Parameters(index = "2", paramLabel = "STATE", description = "State, e.g. ARCHIVED.")
  String state = "";

  @Option(names = "--reason", paramLabel = "TEXT", description = "Why, for operators.")
  @Nullable String reason;

  /**
   * @return the validated change
   * @throws IllegalArgumentException naming the malformed argument
   */
  MarkerChange change() {
    return MarkerChange.of(tenant, resource, state, reason);
  }
}
