package io.tenure.spring;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A servlet request and response as the JDK server's exchange, which the admin server's router
 * serves: the path is the one below the servlet's mapping, so {@code /tenure/api/cluster} reads as
 * {@code /api/cluster}. Everything the router checks (Host, Origin, Content-Type, the token) comes
 * from the request as sent.
 */
final class ServletExchange extends HttpExchange {
  private final HttpServletRequest request;
  private final HttpServletResponse response;
  private final Headers requestHeaders = new Headers();
  private final Headers responseHeaders = new Headers();
  private final URI uri;
  private @Nullable InputStream in;
  private @Nullable OutputStream out;
  private int status = -1;

  ServletExchange(HttpServletRequest request, HttpServletResponse response) {
    this.request = request;
    this.response = response;
    for (String name : Collections.list(request.getHeaderNames())) {
      requestHeaders.put(name, Collections.list(request.getHeaders(name)));
    }
    // The raw (undecoded) path below the mapping, as the JDK server would give it.
    String raw = request.getRequestURI();
    int mapped = request.getContextPath().length() + request.getServletPath().length();
    String below = raw.length() > mapped ? raw.substring(mapped) : "/";
    String query = request.getQueryString();
    this.uri = URI.create(below + (query == null ? "" : "?" + query));
  }

  @Override
  public Headers getRequestHeaders() {
    return requestHeaders;
  }

  @Override
  public Headers getResponseHeaders() {
    return responseHeaders;
  }

  @Override
  public URI getRequestURI() {
    return uri;
  }

  @Override
  public String getRequestMethod() {
    return request.getMethod();
  }

  @Override
  public @Nullable HttpContext getHttpContext() {
    return null;
  }

  @Override
  public void close() {
    try {
      if (status < 0) {
        response.setStatus(500);
      }
      if (in != null) {
        in.close();
      }
      if (out != null) {
        out.close();
      }
    } catch (IOException e) {
      // The client went away; the container cleans up after it.
    }
  }

  @Override
  public InputStream getRequestBody() {
    if (in == null) {
      try {
        in = request.getInputStream();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return in;
  }

  @Override
  public OutputStream getResponseBody() {
    if (out == null) {
      try {
        out = response.getOutputStream();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return out;
  }

  /**
   * As the JDK server: {@code length} -1 for no body, 0 for a body of unknown length, else its
   * length.
   */
  @Override
  public void sendResponseHeaders(int code, long length) throws IOException {
    if (status >= 0) {
      throw new IOException("headers already sent");
    }
    status = code;
    response.setStatus(code);
    for (Map.Entry<String, List<String>> header : responseHeaders.entrySet()) {
      boolean first = true;
      for (String value : header.getValue()) {
        if (first) {
          response.setHeader(header.getKey(), value);
          first = false;
        } else {
          response.addHeader(header.getKey(), value);
        }
      }
    }
    if (length > 0) {
      response.setContentLengthLong(length);
    } else if (length < 0) {
      response.setContentLengthLong(0);
    }
    response.flushBuffer();
  }

  @Override
  public InetSocketAddress getRemoteAddress() {
    return address(request.getRemoteAddr(), request.getRemotePort());
  }

  @Override
  public int getResponseCode() {
    return status;
  }

  /** The address and port the request arrived on: the management server's. */
  @Override
  public InetSocketAddress getLocalAddress() {
    return address(request.getLocalAddr(), request.getLocalPort());
  }

  @Override
  public String getProtocol() {
    return request.getProtocol();
  }

  @Override
  public Object getAttribute(String name) {
    return request.getAttribute(name);
  }

  @Override
  public void setAttribute(String name, Object value) {
    request.setAttribute(name, value);
  }

  @Override
  public void setStreams(InputStream in, OutputStream out) {
    this.in = in;
    this.out = out;
  }

  @Override
  public @Nullable HttpPrincipal getPrincipal() {
    return null;
  }

  private static InetSocketAddress address(String literal, int port) {
    try {
      // The container gives an address literal, which is parsed without asking DNS.
      return new InetSocketAddress(InetAddress.getByName(literal), port);
    } catch (IOException e) {
      return InetSocketAddress.createUnresolved(literal, port);
    }
  }
}
