package io.tenure.cli;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Logger;
import org.slf4j.helpers.BasicMDCAdapter;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The launcher's SLF4J binding: every log line on stderr carries the node's name, incarnation id
 * and epoch (SPEC §8.5), as logfmt or JSON. Found by {@link java.util.ServiceLoader} through {@code
 * META-INF/services}, hence public; the launcher's only provider, in place of slf4j-simple.
 */
public final class TenureLogProvider implements SLF4JServiceProvider {
  /** The SLF4J API version this provider is written against. */
  private static final String API_VERSION = "2.0.99";

  private final ConcurrentMap<String, Logger> loggers = new ConcurrentHashMap<>();
  private final ILoggerFactory loggerFactory =
      name -> loggers.computeIfAbsent(name, TenureLogger::new);
  private final IMarkerFactory markerFactory = new BasicMarkerFactory();
  private final MDCAdapter mdcAdapter = new BasicMDCAdapter();

  /** Called by {@link java.util.ServiceLoader}. */
  public TenureLogProvider() {}

  /** {@inheritDoc} */
  @Override
  public ILoggerFactory getLoggerFactory() {
    return loggerFactory;
  }

  /** {@inheritDoc} */
  @Override
  public IMarkerFactory getMarkerFactory() {
    return markerFactory;
  }

  /** {@inheritDoc} */
  @Override
  public MDCAdapter getMDCAdapter() {
    return mdcAdapter;
  }

  /** {@inheritDoc} */
  @Override
  public String getRequestedApiVersion() {
    return API_VERSION;
  }

  /** Nothing to set up: the settings live in the launcher and apply as they change. */
  @Override
  public void initialize() {}
}
