package io.loadwise.node.tomcat;

import java.util.ArrayList;
import java.util.List;
import org.apache.catalina.Context;
import org.apache.catalina.ha.session.DeltaManager;
import org.apache.catalina.ha.tcp.SimpleTcpCluster;
import org.apache.catalina.startup.Tomcat;
import org.apache.catalina.tribes.group.GroupChannel;
import org.apache.catalina.tribes.group.interceptors.MessageDispatchInterceptor;
import org.apache.catalina.tribes.group.interceptors.TcpFailureDetector;
import org.apache.catalina.tribes.membership.StaticMember;
import org.apache.catalina.tribes.membership.StaticMembershipService;
import org.apache.catalina.tribes.transport.nio.NioReceiver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tomcat session replication for the replication-domains benchmark, off unless asked for: with
 * {@code -Dloadwise.replication.port=P} (this node's tribes receiver on 127.0.0.1:P) and
 * {@code -Dloadwise.replication.members=P2[,P3...]} (its partners' receiver ports on loopback), the engine gets a
 * {@link SimpleTcpCluster} with static membership and the trade app a {@link DeltaManager}: every session is copied
 * to every partner (all-to-all, as in a two-node domain). SimpleTcpCluster's defaults add the ReplicationValve
 * (replicates at the end of each request) and the JvmRouteBinderValve (a session that failed over gets the new
 * node's route in its id). Only the trade app's session class may be deserialized from a partner.
 */
final class SessionReplication {

    static final String PORT_PROPERTY = "loadwise.replication.port";
    static final String MEMBERS_PROPERTY = "loadwise.replication.members";
    private static final Logger LOG = LoggerFactory.getLogger(SessionReplication.class);

    private SessionReplication() {
    }

    /** Whether the system properties ask for replication. */
    static boolean requested() {
        return System.getProperty(PORT_PROPERTY) != null;
    }

    /** Replicates {@code context}'s sessions with the partners the system properties name. */
    static void configure(Tomcat tomcat, Context context, String nodeName) throws java.io.IOException {
        int port = Integer.parseInt(System.getProperty(PORT_PROPERTY));
        List<Integer> partners = new ArrayList<>();
        for (String member : System.getProperty(MEMBERS_PROPERTY, "").split(",")) {
            if (!member.isBlank()) {
                partners.add(Integer.parseInt(member.trim()));
            }
        }
        GroupChannel channel = new GroupChannel();
        NioReceiver receiver = new NioReceiver();
        receiver.setAddress("127.0.0.1");
        receiver.setPort(port);
        receiver.setAutoBind(1); // exactly this port: the partners' configuration names it
        channel.setChannelReceiver(receiver);
        StaticMembershipService membership = new StaticMembershipService();
        StaticMember local = new StaticMember();
        local.setUniqueId(uniqueId(port));
        membership.setLocalMember(local);
        for (int partner : partners) {
            StaticMember member = new StaticMember("127.0.0.1", partner, 0);
            member.setUniqueId(uniqueId(partner));
            membership.addStaticMember(member);
        }
        channel.setMembershipService(membership);
        channel.addInterceptor(new TcpFailureDetector());
        channel.addInterceptor(new MessageDispatchInterceptor());

        SimpleTcpCluster cluster = new SimpleTcpCluster();
        cluster.setChannel(channel);
        tomcat.getEngine().setCluster(cluster);

        DeltaManager manager = new DeltaManager();
        manager.setExpireSessionsOnShutdown(false);
        manager.setNotifyListenersOnReplication(true);
        manager.setStateTransferTimeout(10); // a partner that is down answers nothing: start alone after 10 s
        manager.setSessionAttributeValueClassNameFilter("io\\.loadwise\\.trade\\.web\\.TradeSession");
        manager.setProcessExpiresFrequency(1);
        context.setDistributable(true);
        context.setManager(manager);
        LOG.info("node {}: replicating sessions (DeltaManager) from 127.0.0.1:{} with partners on ports {}", nodeName,
                port, partners);
    }

    /** Tribes' 16-byte member id, as {@code {0,...,hi,lo}} of the receiver port (unique on one host). */
    private static String uniqueId(int port) {
        return "{0,0,0,0,0,0,0,0,0,0,0,0,0,0," + (byte) (port >> 8) + "," + (byte) port + "}"; // signed bytes
    }
}
