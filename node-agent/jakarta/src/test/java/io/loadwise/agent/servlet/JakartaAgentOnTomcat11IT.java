package io.loadwise.agent.servlet;

import io.loadwise.agent.tomcat.AgentOnTomcatContract;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.Connection;
import java.util.concurrent.TimeUnit;
import javax.naming.InitialContext;
import javax.sql.DataSource;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;

/** The shaded jakarta agent JAR on a real embedded Tomcat 11 (Servlet 6). */
class JakartaAgentOnTomcat11IT extends AgentOnTomcatContract {

    /** Creates a session, as any stateful page would. */
    public static final class SessionServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            req.getSession(true).setAttribute("user", "alice");
            resp.getWriter().write("session");
        }
    }

    /** Borrows a pooled JDBC connection (and a worker thread) until the test releases it. */
    public static final class HoldDatabaseServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            try {
                DataSource ds = (DataSource) new InitialContext().lookup("java:comp/env/" + DATASOURCE);
                try (Connection c = ds.getConnection()) {
                    c.createStatement().execute("SELECT 1");
                    DB_HELD.countDown();
                    DB_RELEASE.await(30, TimeUnit.SECONDS);
                }
                resp.getWriter().write("released");
            } catch (Exception e) {
                throw new IOException(e);
            }
        }
    }

    @Override
    protected void addTestServlets(Context context) {
        Tomcat.addServlet(context, "session", new SessionServlet()).addMapping("/session");
        Tomcat.addServlet(context, "hold-db", new HoldDatabaseServlet()).addMapping("/hold-db");
    }
}
