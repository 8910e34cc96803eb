package io.tenure.cli;

import io.tenure.spi.TablePrefix;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Checks {@code --prefix} while parsing, so a bad prefix is a usage error before any connection.
 */
final class PrefixConverter implements ITypeConverter<TablePrefix> {
  @Override
  public TablePrefix convert(String value) {
    try {
      return TablePrefix.of(value);
    } catch (IllegalArgumentException e) {
      // Picocli prefixes this message with the option name, which is all the context needed.
      throw new TypeConversionException(e.getMessage());
    }
  }
}
