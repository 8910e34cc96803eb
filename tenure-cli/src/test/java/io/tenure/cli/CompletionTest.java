package io.tenure.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tenure completion} loaded into a real bash: it registers for {@code tenure} and {@code
 * ./tenure}.
 */
class CompletionTest {
  @TempDir Path folder;

  @Test
  void the_script_registers_for_tenure_and_for_the_repository_script_and_completes_commands()
      throws Exception {
    Path script = folder.resolve("tenure-completion.bash");
    Files.writeString(script, Cli.run("completion").out());

    String out =
        bash(
            "source "
                + script
                + "; complete -p ./tenure; complete -p tenure;"
                + " COMP_WORDS=(./tenure nod); COMP_CWORD=1; COMP_LINE='./tenure nod'; COMP_POINT=12;"
                + " _complete_tenure; echo \"words: ${COMPREPLY[*]}\"");

    assertThat(out)
        .contains("-F _complete_tenure ./tenure", "-F _complete_tenure tenure")
        .containsPattern("(?m)^words: .*\\bnode\\b.*\\bnodes\\b");
  }

  /**
   * The fault harness's options belong to {@code tenure chaos}, whose nodes are its own: {@code
   * tenure node} offers none (issue 16 §5), and the hidden negative controls are offered nowhere.
   */
  @Test
  void node_offers_no_chaos_option_and_chaos_offers_its_stall_but_not_its_negative_controls()
      throws Exception {
    Path script = folder.resolve("tenure-completion.bash");
    Files.writeString(script, Cli.run("completion").out());

    String node = bash("source " + script + "; " + completing("./tenure node --"));
    String chaos = bash("source " + script + "; " + completing("./tenure chaos --"));

    assertThat(node).containsPattern("(?m)^words: .*--name\\b").doesNotContain("--chaos");
    assertThat(chaos)
        .containsPattern("(?m)^words: .*--stall-leader-pass\\b")
        .doesNotContain("--unsafe")
        .doesNotContain("--unguarded");
  }

  /** Runs the completion function as bash would for {@code line} with the cursor at its end. */
  private static String completing(String line) {
    String[] words = line.split(" ");
    return "COMP_WORDS=("
        + line
        + "); COMP_CWORD="
        + (words.length - 1)
        + "; COMP_LINE='"
        + line
        + "'; COMP_POINT="
        + line.length()
        + "; _complete_tenure; echo \"words: ${COMPREPLY[*]}\"";
  }

  @Test
  void the_name_the_launcher_was_called_by_is_registered_too() throws Exception {
    Path script = folder.resolve("tenure-completion.bash");
    Files.writeString(
        script, Cli.run(Map.of(TenureCommand.LAUNCHER_VARIABLE, "../tenure"), "completion").out());

    assertThat(bash("source " + script + "; complete -p ../tenure")).contains("_complete_tenure");
  }

  private static String bash(String commands) throws IOException, InterruptedException {
    Process bash = new ProcessBuilder("bash", "-c", commands).redirectErrorStream(true).start();
    String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(bash.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(bash.exitValue()).as(out).isZero();
    return out;
  }
}
