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

  /**
   * @return the duration in the largest unit that states it whole: {@code 500ms}, {@code 5s},
   *     {@code 2m}, {@code 1h}; ISO-8601 otherwise
   */
  static String text(Duration duration) {
    if (duration.toNanosPart() % 1_000_000 != 0) {
      return duration.toString();
    }
    long millis = duration.toMillis();
    if (millis % 3_600_000 == 0) {
      return millis / 3_600_000 + "h";
    }
    if (millis % 60_000 == 0) {
      return millis / 60_000 + "m";
    }
    if (millis % 1000 == 0) {
      return millis / 1000 + "s";
    }
    return millis + "ms";
  }
}
