package io.tenure.cli;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Parses an ISO-8601 instant such as {@code 2024-05-01T12:00:00Z}, with a message that shows one.
 */
final class InstantConverter implements ITypeConverter<Instant> {
  @Override
  public Instant convert(String value) {
    try {
      return Instant.parse(value);
    } catch (DateTimeParseException e) {
      throw new TypeConversionException(
          "expected an ISO-8601 instant such as 2024-05-01T12:00:00Z, got '" + value + "'");
    }
  }
}
