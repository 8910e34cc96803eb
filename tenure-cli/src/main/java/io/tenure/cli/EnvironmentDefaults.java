package io.tenure.cli;

import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Takes the default of {@code --store} from {@code TENURE_STORE}. Picocli asks this provider before
 * the annotation's default, so a flag beats the variable and the variable beats the built-in URL.
 */
final class EnvironmentDefaults implements IDefaultValueProvider {
  private final Map<String, String> environment;

  EnvironmentDefaults(Map<String, String> environment) {
    this.environment = environment;
  }

  @Override
  public @Nullable String defaultValue(ArgSpec argument) {
    if (argument instanceof OptionSpec option && option.longestName().equals("--store")) {
      String url = environment.get(StoreOptions.STORE_VARIABLE);
      return url == null || url.isBlank() ? null : url;
    }
    return null;
  }
}
