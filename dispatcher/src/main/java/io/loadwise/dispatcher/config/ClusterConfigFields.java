package io.loadwise.dispatcher.config;

import java.util.List;
import java.util.Map;

/**
 * The settable components of a {@link ClusterConfig}, by name, for {@link ClusterConfig.Builder}: code that makes
 * or changes a configuration (tests, edits, the console's form) sets what it needs; unset components stay
 * {@code null}, which the record's {@code OrDefault} accessors turn into defaults. The self type {@code B} keeps
 * every setter returning {@code ClusterConfig.Builder}.
 *
 * @param <B> the concrete builder
 */
public abstract class ClusterConfigFields<B extends ClusterConfigFields<B>> {

    // package-private: the builder reads them to make the record
    String name;
    Mode mode;
    String listen;
    String policy;
    Map<String, Double> policyOptions;
    Balance balance;
    Affinity affinity;
    String affinityCookie;
    Integer connectTimeoutMs;
    Integer responseTimeoutMs;
    Integer idleTimeoutMs;
    Integer maxHeaderBytes;
    Integer maxConnectionsPerNode;
    Integer connectAttempts;
    Integer unhealthyRetryMs;
    String agentPath;
    Integer agentPollIntervalMs;
    Integer agentExpiryMs;
    Integer agentReprobeMs;
    Integer headerTimeoutMs;
    Integer requestIdleTimeoutMs;
    Integer responseIdleTimeoutMs;
    Integer exchangeTimeoutMs;
    Integer maxClientConnections;
    List<String> trustedProxies;
    ProxyProtocolConfig proxyProtocol;
    String sendProxyProtocol;
    String nodeProtocol;
    Http3Config http3;
    List<NodeConfig> nodes;
    AgentSettings agent;
    TlsConfig tls;
    Http2Config http2;
    NodeTlsConfig nodeTls;
    HealthCheckConfig healthCheck;
    OutlierDetectionConfig outlierDetection;
    Integer slowStartMs;
    Integer queueTimeoutMs;
    Integer maxQueue;
    Integer retryBudgetPercent;
    RegistrationConfig registration;
    List<String> retryOn;
    Integer minActive;
    Integer panicThresholdPercent;

    ClusterConfigFields() {
    }

    /** {@code this}, as the concrete builder. */
    abstract B self();

    /** Sets every component from {@code c}. */
    final B from(ClusterConfig c) {
        this.name = c.name();
        this.mode = c.mode();
        this.listen = c.listen();
        this.policy = c.policy();
        this.policyOptions = c.policyOptions();
        this.balance = c.balance();
        this.affinity = c.affinity();
        this.affinityCookie = c.affinityCookie();
        this.connectTimeoutMs = c.connectTimeoutMs();
        this.responseTimeoutMs = c.responseTimeoutMs();
        this.idleTimeoutMs = c.idleTimeoutMs();
        this.maxHeaderBytes = c.maxHeaderBytes();
        this.maxConnectionsPerNode = c.maxConnectionsPerNode();
        this.connectAttempts = c.connectAttempts();
        this.unhealthyRetryMs = c.unhealthyRetryMs();
        this.agentPath = c.agentPath();
        this.agentPollIntervalMs = c.agentPollIntervalMs();
        this.agentExpiryMs = c.agentExpiryMs();
        this.agentReprobeMs = c.agentReprobeMs();
        this.headerTimeoutMs = c.headerTimeoutMs();
        this.requestIdleTimeoutMs = c.requestIdleTimeoutMs();
        this.responseIdleTimeoutMs = c.responseIdleTimeoutMs();
        this.exchangeTimeoutMs = c.exchangeTimeoutMs();
        this.maxClientConnections = c.maxClientConnections();
        this.trustedProxies = c.trustedProxies();
        this.proxyProtocol = c.proxyProtocol();
        this.sendProxyProtocol = c.sendProxyProtocol();
        this.nodeProtocol = c.nodeProtocol();
        this.http3 = c.http3();
        this.nodes = c.nodes();
        this.agent = c.agent();
        this.tls = c.tls();
        this.http2 = c.http2();
        this.nodeTls = c.nodeTls();
        this.healthCheck = c.healthCheck();
        this.outlierDetection = c.outlierDetection();
        this.slowStartMs = c.slowStartMs();
        this.queueTimeoutMs = c.queueTimeoutMs();
        this.maxQueue = c.maxQueue();
        this.retryBudgetPercent = c.retryBudgetPercent();
        this.registration = c.registration();
        this.retryOn = c.retryOn();
        this.minActive = c.minActive();
        this.panicThresholdPercent = c.panicThresholdPercent();
        return self();
    }

    public final B name(String name) {
        this.name = name;
        return self();
    }

    public final B mode(Mode mode) {
        this.mode = mode;
        return self();
    }

    public final B listen(String listen) {
        this.listen = listen;
        return self();
    }

    public final B policy(String policy) {
        this.policy = policy;
        return self();
    }

    public final B policyOptions(Map<String, Double> policyOptions) {
        this.policyOptions = policyOptions;
        return self();
    }

    public final B balance(Balance balance) {
        this.balance = balance;
        return self();
    }

    public final B affinity(Affinity affinity) {
        this.affinity = affinity;
        return self();
    }

    public final B affinityCookie(String affinityCookie) {
        this.affinityCookie = affinityCookie;
        return self();
    }

    public final B connectTimeoutMs(Integer connectTimeoutMs) {
        this.connectTimeoutMs = connectTimeoutMs;
        return self();
    }

    public final B responseTimeoutMs(Integer responseTimeoutMs) {
        this.responseTimeoutMs = responseTimeoutMs;
        return self();
    }

    public final B idleTimeoutMs(Integer idleTimeoutMs) {
        this.idleTimeoutMs = idleTimeoutMs;
        return self();
    }

    public final B maxHeaderBytes(Integer maxHeaderBytes) {
        this.maxHeaderBytes = maxHeaderBytes;
        return self();
    }

    public final B maxConnectionsPerNode(Integer maxConnectionsPerNode) {
        this.maxConnectionsPerNode = maxConnectionsPerNode;
        return self();
    }

    public final B connectAttempts(Integer connectAttempts) {
        this.connectAttempts = connectAttempts;
        return self();
    }

    public final B unhealthyRetryMs(Integer unhealthyRetryMs) {
        this.unhealthyRetryMs = unhealthyRetryMs;
        return self();
    }

    public final B agentPath(String agentPath) {
        this.agentPath = agentPath;
        return self();
    }

    public final B agentPollIntervalMs(Integer agentPollIntervalMs) {
        this.agentPollIntervalMs = agentPollIntervalMs;
        return self();
    }

    public final B agentExpiryMs(Integer agentExpiryMs) {
        this.agentExpiryMs = agentExpiryMs;
        return self();
    }

    public final B agentReprobeMs(Integer agentReprobeMs) {
        this.agentReprobeMs = agentReprobeMs;
        return self();
    }

    public final B headerTimeoutMs(Integer headerTimeoutMs) {
        this.headerTimeoutMs = headerTimeoutMs;
        return self();
    }

    public final B requestIdleTimeoutMs(Integer requestIdleTimeoutMs) {
        this.requestIdleTimeoutMs = requestIdleTimeoutMs;
        return self();
    }

    public final B responseIdleTimeoutMs(Integer responseIdleTimeoutMs) {
        this.responseIdleTimeoutMs = responseIdleTimeoutMs;
        return self();
    }

    public final B exchangeTimeoutMs(Integer exchangeTimeoutMs) {
        this.exchangeTimeoutMs = exchangeTimeoutMs;
        return self();
    }

    public final B maxClientConnections(Integer maxClientConnections) {
        this.maxClientConnections = maxClientConnections;
        return self();
    }

    public final B trustedProxies(List<String> trustedProxies) {
        this.trustedProxies = trustedProxies;
        return self();
    }

    public final B nodes(List<NodeConfig> nodes) {
        this.nodes = nodes;
        return self();
    }

    public final B agent(AgentSettings agent) {
        this.agent = agent;
        return self();
    }

    public final B tls(TlsConfig tls) {
        this.tls = tls;
        return self();
    }

    public final B http2(Http2Config http2) {
        this.http2 = http2;
        return self();
    }

    public final B nodeTls(NodeTlsConfig nodeTls) {
        this.nodeTls = nodeTls;
        return self();
    }

    public final B healthCheck(HealthCheckConfig healthCheck) {
        this.healthCheck = healthCheck;
        return self();
    }

    public final B outlierDetection(OutlierDetectionConfig outlierDetection) {
        this.outlierDetection = outlierDetection;
        return self();
    }

    public final B slowStartMs(Integer slowStartMs) {
        this.slowStartMs = slowStartMs;
        return self();
    }

    public final B queueTimeoutMs(Integer queueTimeoutMs) {
        this.queueTimeoutMs = queueTimeoutMs;
        return self();
    }

    public final B maxQueue(Integer maxQueue) {
        this.maxQueue = maxQueue;
        return self();
    }

    public final B retryBudgetPercent(Integer retryBudgetPercent) {
        this.retryBudgetPercent = retryBudgetPercent;
        return self();
    }

    public final B registration(RegistrationConfig registration) {
        this.registration = registration;
        return self();
    }

    public final B retryOn(List<String> retryOn) {
        this.retryOn = retryOn;
        return self();
    }

    public final B minActive(Integer minActive) {
        this.minActive = minActive;
        return self();
    }

    public final B panicThresholdPercent(Integer panicThresholdPercent) {
        this.panicThresholdPercent = panicThresholdPercent;
        return self();
    }

    public final B proxyProtocol(ProxyProtocolConfig proxyProtocol) {
        this.proxyProtocol = proxyProtocol;
        return self();
    }

    public final B sendProxyProtocol(String sendProxyProtocol) {
        this.sendProxyProtocol = sendProxyProtocol;
        return self();
    }

    public final B nodeProtocol(String nodeProtocol) {
        this.nodeProtocol = nodeProtocol;
        return self();
    }

    public final B http3(Http3Config http3) {
        this.http3 = http3;
        return self();
    }
}
