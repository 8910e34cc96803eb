package io.tenure.cli;

import io.tenure.server.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import picocli.CommandLine;

/**
 * Runs the launcher in-process, wired as {@code main} wires it, with captured stdout and stderr.
 */
final class Cli {
  private Cli() {}

  /** What one run printed and returned. */
  record Result(int exitCode, String out, String err) {
    /**
     * @return stdout parsed as the one JSON object a {@code --json} command prints
     */
    Map<String, Object> json() {
      return Json.parseObject(out);
    }

    /**
     * @return the non-empty lines of stderr
     */
    List<String> errLines() {
      return err.lines().filter(line -> !line.isBlank()).toList();
    }

    @Override
    public String toString() {
      return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }

  /** Runs with an empty environment, so the developer's TENURE_STORE cannot leak in. */
  static Result run(String... args) {
    return run(Map.of(), args);
  }

  static Result run(Map<String, String> environment, String... args) {
    return run(environment, commandLine -> {}, args);
  }

  /**
   * Runs after {@code setup} saw the wired command line: a test reaches a command object there to
   * put in what the process would otherwise supply, such as the terminal.
   */
  static Result run(Consumer<CommandLine> setup, String... args) {
    return run(Map.of(), setup, args);
  }

  private static Result run(
      Map<String, String> environment, Consumer<CommandLine> setup, String... args) {
    return run(environment, setup, new StringWriter(), new StringWriter(), args);
  }

  private static Result run(
      Map<String, String> environment,
      Consumer<CommandLine> setup,
      StringWriter out,
      StringWriter err,
      String... args) {
    var commandLine = TenureCommand.commandLine(new TenureCommand(environment));
    setup.accept(commandLine);
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    int exitCode = commandLine.execute(args);
    return new Result(exitCode, out.toString(), err.toString());
  }

  /** A run on another thread: what it printed so far, and its result once it ends. */
  record Background(
      StringWriter out, StringWriter err, java.util.concurrent.CompletableFuture<Result> result) {}

  /**
   * Starts a run on a thread of its own (with an empty environment), for a test that watches it
   * run.
   */
  static Background start(String... args) {
    return start(commandLine -> {}, args);
  }

  /** Starts a run on a thread of its own after {@code setup} saw the wired command line. */
  static Background start(Consumer<CommandLine> setup, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    var result =
        java.util.concurrent.CompletableFuture.supplyAsync(
            () -> run(Map.of(), setup, out, err, args),
            task -> Thread.ofPlatform().name("cli-" + args[0]).start(task));
    return new Background(out, err, result);
  }
}
