package io.tenure.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Every {@code --help} at 80 columns reads as written: descriptions are whole sentences that
 * picocli wraps (never hard-wrapped in the source, so never wrapped twice), and no word, URL or
 * path is split across two lines (picocli's line breaker also breaks after {@code :} and {@code
 * .}).
 */
class HelpTextTest {
  private static final int WIDTH = 80;

  @Test
  void every_description_is_whole_sentences() {
    SoftAssertions softly = new SoftAssertions();
    for (CommandLine command : commands()) {
      CommandSpec spec = command.getCommandSpec();
      for (String paragraph : spec.usageMessage().description()) {
        softly
            .assertThat(paragraph.strip())
            .as(spec.qualifiedName() + " description")
            .endsWith(".");
      }
      for (ArgSpec arg : args(spec)) {
        for (String paragraph : arg.description()) {
          softly
              .assertThat(paragraph.strip())
              .as(spec.qualifiedName() + " " + label(arg))
              .endsWith(".");
        }
      }
    }
    softly.assertAll();
  }

  @Test
  void help_at_80_columns_splits_no_word_and_no_line_is_longer() {
    SoftAssertions softly = new SoftAssertions();
    for (CommandLine command : commands()) {
      CommandSpec spec = command.getCommandSpec();
      String usage = command.getUsageMessage(Help.Ansi.OFF);
      List<String> lines = usage.lines().toList();
      lines.forEach(
          line ->
              softly
                  .assertThat(line.length())
                  .as(spec.qualifiedName() + ": " + line)
                  .isLessThanOrEqualTo(WIDTH));
      List<String> texts = new ArrayList<>(Arrays.asList(spec.usageMessage().description()));
      args(spec).forEach(arg -> texts.addAll(Arrays.asList(arg.description())));
      spec.usageMessage().exitCodeList().values().forEach(texts::add);
      for (String footer : spec.usageMessage().footer()) {
        if (footer.length() <= WIDTH) {
          softly.assertThat(lines).as(spec.qualifiedName() + " footer line").contains(footer);
        } else {
          texts.add(footer);
        }
      }
      spec.subcommands().values().forEach(sub -> texts.add(summary(sub.getCommandSpec())));
      for (String text : texts) {
        for (String word : text.split("\\s+")) {
          if (word.isEmpty() || word.contains("${")) {
            continue;
          }
          softly
              .assertThat(lines.stream().anyMatch(line -> line.contains(word)))
              .as(spec.qualifiedName() + ": '" + word + "' is split across lines in\n" + usage)
              .isTrue();
        }
      }
    }
    softly.assertAll();
  }

  @Test
  void the_top_level_help_names_every_command_the_exit_codes_and_the_environment() {
    String usage =
        TenureCommand.commandLine(new TenureCommand(Map.of())).getUsageMessage(Help.Ansi.OFF);

    assertThat(usage)
        .contains(
            "nodes", "events", "migrate", " 8 ", "TENURE_STORE", "sqlite:tenure-data/tenure.db");
  }

  /** What a parent's command list shows: the header if there is one, else the first paragraph. */
  private static String summary(CommandSpec spec) {
    String[] header = spec.usageMessage().header();
    return header.length > 0 ? header[0] : spec.usageMessage().description()[0];
  }

  private static List<CommandLine> commands() {
    CommandLine root = TenureCommand.commandLine(new TenureCommand(Map.of()));
    List<CommandLine> all = new ArrayList<>();
    collect(root, all);
    return all.stream().filter(c -> !c.getCommandName().equals("help")).toList();
  }

  private static void collect(CommandLine command, List<CommandLine> all) {
    all.add(command);
    command.getSubcommands().values().forEach(sub -> collect(sub, all));
  }

  private static List<ArgSpec> args(CommandSpec spec) {
    return Stream.concat(
            spec.options().stream().filter(o -> !o.hidden()), spec.positionalParameters().stream())
        .map(a -> (ArgSpec) a)
        .filter(
            a ->
                !(a instanceof CommandLine.Model.OptionSpec o
                    && (o.usageHelp() || o.versionHelp())))
        .toList();
  }

  private static String label(ArgSpec arg) {
    return arg instanceof CommandLine.Model.OptionSpec option
        ? option.longestName()
        : arg.paramLabel();
  }
}
