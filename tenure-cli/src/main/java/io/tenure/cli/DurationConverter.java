package io.tenure.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads {@code 500ms}, {@code 5s}, {@code 2m}, {@code 1h} or ISO-8601 ({@code PT5S}). */
final class DurationConverter implements ITypeConverter<Duration> {
  private static final Pattern SHORT = Pattern.compile("(\\d+)(ms|s|m|h)");

  @Override
  public Duration convert(String value) {
    Matcher short_ = SHORT.matcher(value);
    if (short_.matches()) {
      long amount = Long.parseLong(short_.group(1));
      return switch (short_.group(2)) {
        case "ms" -> Duration.ofMillis(amount);
        case "s" -> Duration.ofSeconds(amount);
        case "m" -> Duration.ofMinutes(amount);
        default -> Duration.ofHours(amount);
      };
    }
    try {
      return Duration.parse(value);
    } catch (DateTimeParseException e) {
      throw new TypeConversionException(
          "'" + value + "' is not a duration; use e.g. 500ms, 5s, 2m, 1h or PT5S");
    }
  }
}
