package io.tenure.cli;

import io.tenure.AgentUri;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Parses {@code --agents FAMILY=COUNT}: sample agents for a node to run. */
final class AgentsConverter implements ITypeConverter<AgentsConverter.SampleAgents> {
  /** Enough for a demo; a real fleet registers its own families from Java. */
  static final int MAX_COUNT = 10_000;

  /** {@code count} sample agents of {@code family}. */
  record SampleAgents(String family, int count) {}

  @Override
  public SampleAgents convert(String value) {
    int eq = value.indexOf('=');
    String family = eq < 0 ? value : value.substring(0, eq);
    try {
      new AgentUri(family, "x");
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException("'" + value + "': " + e.getMessage());
    }
    if (family.equals("queue")) {
      throw new TypeConversionException(
          "'" + value + "': the family 'queue' is reserved for exclusive queues");
    }
    int count;
    try {
      count = eq < 0 ? 1 : Integer.parseInt(value.substring(eq + 1));
    } catch (NumberFormatException e) {
      throw new TypeConversionException(
          "'" + value + "': COUNT must be a whole number, as in projection=6");
    }
    if (count < 1 || count > MAX_COUNT) {
      throw new TypeConversionException("'" + value + "': COUNT must be 1 to " + MAX_COUNT);
    }
    return new SampleAgents(family, count);
  }
}
