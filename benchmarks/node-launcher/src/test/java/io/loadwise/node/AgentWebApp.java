package io.loadwise.node;

import io.loadwise.agent.servlet.LoadwiseAgentFilter;
import io.loadwise.agent.servlet.LoadwiseAgentListener;
import io.loadwise.agent.servlet.LoadwiseMetricsServlet;
import io.loadwise.node.AgentReadmissionIT.NameServlet;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;

/**
 * The application the embedded test nodes run: the real agent registered as its web-fragment does (listener,
 * filter on every path, metrics servlet), and one servlet answering every other request with the node's name.
 */
final class AgentWebApp {

    private AgentWebApp() {
    }

    /** Adds the agent and the name servlet to {@code context}, which is not started yet. */
    static void install(Context context, String name) {
        context.addApplicationListener(LoadwiseAgentListener.class.getName());
        FilterDef filter = new FilterDef();
        filter.setFilterName("LoadwiseAgentFilter");
        filter.setFilterClass(LoadwiseAgentFilter.class.getName());
        context.addFilterDef(filter);
        FilterMap mapping = new FilterMap();
        mapping.setFilterName("LoadwiseAgentFilter");
        mapping.addURLPattern("/*");
        context.addFilterMap(mapping);
        Tomcat.addServlet(context, "LoadwiseMetricsServlet", new LoadwiseMetricsServlet())
                .addMapping("/loadwise-agent/*");
        Tomcat.addServlet(context, "app", new NameServlet(name)).addMapping("/");
    }
}
