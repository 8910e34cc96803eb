package io.tenure.test;

import io.tenure.Tenure;
import java.time.Instant;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives each test method a fresh Tenure store and injects, into its parameters and those of its
 * {@code @BeforeEach} and {@code @AfterEach} methods, the store's {@link Tenure}, its {@link
 * TestClock} and a {@link TenureTestKit} on both. The store is opened when a parameter first asks
 * for it and closed and removed after the test's {@code @AfterEach} methods.
 *
 * <pre>{@code
 * @TenureTest                                  // in-memory, the clock at TestClock.DEFAULT_START
 * class SignupTest { ... }
 *
 * class SignupOnSqliteTest {
 *   @RegisterExtension
 *   static TenureExtension tenure = TenureExtension.sqlite();   // or url("jdbc:postgresql://...")
 *   ...
 * }
 * }</pre>
 *
 * Use either {@code @TenureTest} ({@code @ExtendWith(TenureExtension.class)}) or a registered
 * field, not both: two would compete for the same parameters. Tests may run in parallel: each has a
 * store of its own.
 */
public final class TenureExtension implements ParameterResolver, AfterEachCallback {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(TenureExtension.class);
  private static final Set<Class<?>> INJECTED =
      Set.of(Tenure.class, TestClock.class, TenureTestKit.class);

  /** What the store is, for messages. */
  private final String kind;

  private final Supplier<TenureTestKit> opener;
  private final @Nullable Instant start;

  /**
   * The in-memory store with the clock at {@link TestClock#DEFAULT_START}, as
   * {@code @ExtendWith(TenureExtension.class)} and {@link TenureTest} build it; the same as {@link
   * #inMemory()}.
   */
  public TenureExtension() {
    this(
        "in-memory",
        () -> TenureTestKit.inMemory(TestClock.DEFAULT_START),
        TestClock.DEFAULT_START);
  }

  private TenureExtension(String kind, Supplier<TenureTestKit> opener, @Nullable Instant start) {
    this.kind = kind;
    this.opener = opener;
    this.start = start;
  }

  /**
   * @return a fresh in-memory store per test, its clock a {@link TestClock} the test moves,
   *     starting at {@link TestClock#DEFAULT_START}
   */
  public static TenureExtension inMemory() {
    return new TenureExtension();
  }

  /**
   * A SQLite file per test in a temporary folder, deleted after it. Its clock is SQLite's: {@link
   * TestClock#advance} refuses. Needs {@code io.tenure:tenure-jdbc} on the test class path.
   *
   * @return the extension
   */
  public static TenureExtension sqlite() {
    return new TenureExtension("SQLite", TenureTestKit::sqlite, null);
  }

  /**
   * A table prefix of its own per test ({@code tt} and 12 random characters) in the database at
   * {@code jdbcUrl}, whose tables are dropped after the test. Its clock is the database's: {@link
   * TestClock#advance} refuses. Needs {@code io.tenure:tenure-jdbc} on the test class path.
   *
   * @param jdbcUrl a PostgreSQL, MariaDB or MySQL database, e.g. {@code
   *     jdbc:postgresql://127.0.0.1:5432/test?user=postgres}
   * @return the extension
   * @throws IllegalArgumentException if the URL is null or not a {@code jdbc:} URL
   */
  public static TenureExtension url(String jdbcUrl) {
    String url = FreshStore.checkUrl(jdbcUrl);
    return new TenureExtension("database", () -> TenureTestKit.url(url), null);
  }

  /**
   * @param start where each test's in-memory clock starts
   * @return an in-memory extension whose clocks start there
   * @throws IllegalArgumentException if {@code start} is null
   * @throws IllegalStateException on a SQLite or URL extension, whose clock is the database's
   */
  public TenureExtension startingAt(Instant start) {
    if (start == null) {
      throw new IllegalArgumentException("start of the test clock must not be null");
    }
    if (this.start == null) {
      throw new IllegalStateException(
          "startingAt sets the in-memory store's clock; a "
              + kind
              + " store runs on its database's own clock, which no test can set");
    }
    return new TenureExtension(kind, () -> TenureTestKit.inMemory(start), start);
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return INJECTED.contains(parameter.getParameter().getType());
  }

  /**
   * @throws ParameterResolutionException for a parameter outside a test method's life (a
   *     constructor, a {@code @BeforeAll} method): the store is per test
   */
  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    if (context.getTestMethod().isEmpty()) {
      throw new ParameterResolutionException(
          "TenureExtension gives each test method a store of its own: take "
              + parameter.getParameter().getType().getSimpleName()
              + " as a parameter of a @Test, @BeforeEach or @AfterEach method, not of "
              + parameter.getDeclaringExecutable()
              + " (a constructor or a @BeforeAll or @AfterAll method)");
    }
    TenureTestKit kit = kit(context);
    Class<?> type = parameter.getParameter().getType();
    if (type == Tenure.class) {
      return kit.tenure();
    }
    return type == TestClock.class ? kit.clock() : kit;
  }

  /** Closes and removes the test's store, if it opened one, after its {@code @AfterEach}. */
  @Override
  public void afterEach(ExtensionContext context) {
    TenureTestKit kit =
        context.getStore(NAMESPACE).remove(TenureTestKit.class, TenureTestKit.class);
    if (kit != null) {
      kit.close();
    }
  }

  private TenureTestKit kit(ExtensionContext context) {
    return context
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(TenureTestKit.class, key -> opener.get(), TenureTestKit.class);
  }

  @Override
  public String toString() {
    return "TenureExtension[" + kind + (start != null ? ", clock from " + start : "") + "]";
  }
}
