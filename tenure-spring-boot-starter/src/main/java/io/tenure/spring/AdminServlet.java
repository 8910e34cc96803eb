package io.tenure.spring;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.jspecify.annotations.Nullable;

/**
 * Hands each request under {@code tenure.admin.path} to the admin server ({@link
 * TenureManagementAdmin}), which makes every check of its own server.
 */
final class AdminServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  private final transient @Nullable TenureManagementAdmin admin;

  AdminServlet(@Nullable TenureManagementAdmin admin) {
    this.admin = admin;
  }

  @Override
  public void init() throws ServletException {
    if (admin != null) {
      admin.mounted(getServletContext().getContextPath());
    }
  }

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    String below = request.getPathInfo();
    if (below == null || below.isEmpty()) {
      // The console's files and calls are relative to it: /tenure must become /tenure/.
      String query = request.getQueryString();
      response.sendRedirect(request.getRequestURI() + "/" + (query == null ? "" : "?" + query));
      return;
    }
    if (admin == null || !admin.isRunning()) {
      response.sendError(503, "the Tenure admin server is not running");
      return;
    }
    admin.server().handle(new ServletExchange(request, response));
  }
}
