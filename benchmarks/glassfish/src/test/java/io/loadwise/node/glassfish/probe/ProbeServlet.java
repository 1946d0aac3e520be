package io.loadwise.node.glassfish.probe;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/**
 * Deployed by the GlassFish end-to-end test. {@code /probe/hold} takes a connection from the container's
 * jdbc/TradeDB pool and keeps it (and its worker thread) until {@code /probe/release}; {@code /probe/stat}
 * reads one monitoring statistic in-process, as the node agent does.
 */
public final class ProbeServlet extends HttpServlet {

    private static final long HOLD_LIMIT_SECONDS = 60;
    private static final AtomicReference<CountDownLatch> GATE = new AtomicReference<>(new CountDownLatch(1));

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/plain;charset=UTF-8");
        String action = req.getPathInfo() == null ? "" : req.getPathInfo();
        try {
            switch (action) {
                case "/hold" -> resp.getWriter().write(hold());
                case "/release" -> resp.getWriter().write(release());
                case "/stat" -> stat(req.getParameter("mbean"), req.getParameter("attr"), resp);
                default -> resp.sendError(HttpServletResponse.SC_NOT_FOUND, "no probe action " + action);
            }
        } catch (Exception e) {
            resp.setStatus(HttpServletResponse.SC_INTERNAL_SERVER_ERROR);
            resp.getWriter().write(e.toString());
        }
    }

    private static String hold() throws NamingException, SQLException, InterruptedException {
        CountDownLatch gate = GATE.get();
        DataSource dataSource = (DataSource) new InitialContext().lookup("java:comp/env/jdbc/TradeDB");
        try (Connection connection = dataSource.getConnection();
             Statement statement = connection.createStatement();
             ResultSet result = statement.executeQuery("SELECT 1")) {
            result.next();
            if (!gate.await(HOLD_LIMIT_SECONDS, TimeUnit.SECONDS)) {
                return "gate never opened";
            }
            return "held " + result.getInt(1);
        }
    }

    private static String release() {
        GATE.getAndSet(new CountDownLatch(1)).countDown();
        return "released";
    }

    /**
     * Writes the {@code count} of a CountStatistic, the {@code current} of a RangeStatistic, or a plain
     * value; 404 "absent" when the MBean is not registered even after booting AMX.
     */
    private static void stat(String mbean, String attribute, HttpServletResponse resp) throws JMException, IOException {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = new ObjectName(mbean);
        if (!server.isRegistered(name)) {
            server.invoke(new ObjectName("amx-support:type=boot-amx"), "bootAMX", null, null);
            if (!server.isRegistered(name)) {
                resp.setStatus(HttpServletResponse.SC_NOT_FOUND);
                resp.getWriter().write("absent");
                return;
            }
        }
        Object value = server.getAttribute(name, attribute);
        if (value instanceof CompositeData data) {
            value = data.containsKey("current") ? data.get("current") : data.get("count");
        }
        resp.getWriter().write(String.valueOf(value));
    }
}
