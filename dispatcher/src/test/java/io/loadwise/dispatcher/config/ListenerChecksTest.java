package io.loadwise.dispatcher.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.loadwise.policy.PolicyRegistry;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class ListenerChecksTest {

    private static final PolicyRegistry POLICIES = PolicyRegistry.load();

    /** A configuration with clusters shop (http, no listen), db (tcp) and one listener with {@code routes}. */
    static String config(String routes, String rateLimits) {
        return ("{'clusters':["
                + "{'name':'shop','mode':'http','policy':'round-robin','nodes':[{'name':'a','address':'127.0.0.1:9001'}]},"
                + "{'name':'db','mode':'tcp','listen':'127.0.0.1:7001','policy':'round-robin',"
                + "'nodes':[{'name':'d','address':'127.0.0.1:9002'}]}],"
                + "'listeners':[{'name':'edge','listen':'127.0.0.1:7000','routes':" + routes + "}]"
                + (rateLimits == null ? "" : ",'rateLimits':" + rateLimits) + "}").replace('\'', '"');
    }

    static List<String> errors(String json) throws ConfigValidationException {
        return new ConfigValidator(POLICIES).validate(ConfigLoader.parse(json));
    }

    @Test
    void aValidTableHasNoErrors() throws Exception {
        assertEquals(List.of(), errors(config("[{'match':{'host':'*.example.com','pathPrefix':'/api',"
                + "'methods':['GET'],'headers':{'x-a':'1','x-b':{'present':true}},'query':{'v':'2'}},"
                + "'cluster':'shop','rewrite':{'pathPrefix':'/','host':'shop.internal:8080'},"
                + "'requestHeaders':{'set':{'x-env':'prod'},'remove':['x-debug']},"
                + "'responseHeaders':{'set':{'strict-transport-security':'max-age=31536000'}},'rateLimit':'pc'},"
                + "{'match':{'pathRegex':'/r/[0-9]+'},'split':[{'cluster':'shop','weight':1}]},"
                + "{'match':{'pathPrefix':'/old'},'redirect':{'status':308,'scheme':'https','path':'/new'}},"
                + "{'respond':{'status':200,'body':'ok','contentType':'text/plain'}}]",
                "{'pc':{'key':'header:X-Api-Key','requestsPerSecond':50,'burst':100,'maxKeys':1000}}")));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "{'match':{'path':'/a'},'cluster':'nope'}"
            + " | listeners[0].routes[0].cluster: unknown cluster 'nope'",
        "{'cluster':'db'}"
            + " | listeners[0].routes[0].cluster: cluster 'db' is mode tcp; routes lead to http clusters",
        "{'match':{'path':'/a'}}"
            + " | listeners[0].routes[0]: needs exactly one of cluster, split, redirect, respond (got 0)",
        "{'cluster':'shop','respond':{'status':200}}"
            + " | listeners[0].routes[0]: needs exactly one of cluster, split, redirect, respond (got 2)",
        "{'match':{'pathRegex':'/a(b'},'cluster':'shop'}"
            + " | listeners[0].routes[0].match.pathRegex: not an RE2 expression: missing closing )",
        "{'match':{'pathRegex':'(a)\\\\1'},'cluster':'shop'}"
            + " | listeners[0].routes[0].match.pathRegex: not an RE2 expression: invalid escape sequence",
        "{'match':{'path':'/a','pathPrefix':'/b'},'cluster':'shop'}"
            + " | listeners[0].routes[0].match: at most one of path, pathPrefix, pathRegex",
        "{'match':{'pathPrefix':'api'},'cluster':'shop'}"
            + " | listeners[0].routes[0].match.pathPrefix: 'api' must start with a single '/'",
        "{'match':{'pathPrefix':'/a%zz'},'cluster':'shop'}"
            + " | listeners[0].routes[0].match.pathPrefix: '/a%zz' has a bad percent-escape",
        "{'match':{'host':'a.*.com'},'cluster':'shop'}"
            + " | listeners[0].routes[0].match.host: 'a.*.com' is not a host name or *.domain",
        "{'match':{'methods':['get']},'cluster':'shop'}"
            + " | listeners[0].routes[0].match.methods[0]: 'get' is not a method (upper-case letters)",
        "{'cluster':'shop','requestHeaders':{'set':{'x-a':'1\\r\\nx-b: 2'}}}"
            + " | listeners[0].routes[0].requestHeaders.set.x-a: holds CR, LF, NUL or another control character",
        "{'cluster':'shop','responseHeaders':{'add':{'x-a':'a\\u0000'}}}"
            + " | listeners[0].routes[0].responseHeaders.add.x-a: holds CR, LF, NUL or another control character",
        "{'cluster':'shop','requestHeaders':{'set':{'x a':'1'}}}"
            + " | listeners[0].routes[0].requestHeaders.set: 'x a' is not a header name",
        "{'cluster':'shop','requestHeaders':{'remove':['Content-Length']}}"
            + " | listeners[0].routes[0].requestHeaders.remove[0]: 'Content-Length' cannot be edited (framing or "
            + "hop-by-hop; Host is rewrite.host)",
        "{'cluster':'shop','rewrite':{'pathPrefix':'/x\\r\\n'}}"
            + " | listeners[0].routes[0].rewrite.pathPrefix: '/x\\x0D\\x0A' holds a character a path cannot (space, ?, #, "
            + "\\, control or non-ASCII; percent-encode it)",
        "{'cluster':'shop','rewrite':{'host':'evil\\r\\nx: y'}}"
            + " | listeners[0].routes[0].rewrite.host: 'evil\\x0D\\x0Ax: y' is not a host[:port]",
        "{'respond':{'status':200},'rewrite':{'pathPrefix':'/'}}"
            + " | listeners[0].routes[0].rewrite: only for a route that forwards (cluster or split)",
        "{'redirect':{'status':200,'scheme':'https'}}"
            + " | listeners[0].routes[0].redirect.status: 200 is not 301, 302, 303, 307 or 308",
        "{'redirect':{'scheme':'javascript'}}"
            + " | listeners[0].routes[0].redirect.scheme: 'javascript' is not http or https",
        "{'redirect':{'path':'//evil.example/'}}"
            + " | listeners[0].routes[0].redirect.path: '//evil.example/' must start with a single '/'",
        "{'redirect':{'host':'a.example:443'}}"
            + " | listeners[0].routes[0].redirect.host: 'a.example:443' is not a host name (give the port as port)",
        "{'redirect':{}}"
            + " | listeners[0].routes[0].redirect: changes nothing (give scheme, host, port, path or pathPrefix)",
        "{'respond':{'status':99}}"
            + " | listeners[0].routes[0].respond.status: 99 out of range 200..599",
        "{'respond':{'status':200,'contentType':'text/html\\r\\nSet-Cookie: a=b'}}"
            + " | listeners[0].routes[0].respond.contentType: empty, or holds CR, LF, NUL or another control character",
        "{'split':[{'cluster':'shop','weight':0}]}"
            + " | listeners[0].routes[0].split: the weights add up to 0",
        "{'split':[{'cluster':'shop','weight':1},{'cluster':'shop','weight':1}]}"
            + " | listeners[0].routes[0].split[1].cluster: 'shop' appears twice",
        "{'cluster':'shop','rateLimit':'none'}"
            + " | listeners[0].routes[0].rateLimit: unknown rate limit 'none' (rateLimits has [])",
    })
    void refusesABadRoute(String route, String error) throws Exception {
        assertEquals(List.of(error), errors(config("[" + route + "]", null)));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "{'key':'ip','requestsPerSecond':1} | rateLimits.r.key: 'ip' is not clientIp, header:NAME or cookie:NAME",
        "{'key':'header:','requestsPerSecond':1} | rateLimits.r.key: '' is not a header or cookie name",
        "{'key':'clientIp','requestsPerSecond':0} | rateLimits.r.requestsPerSecond: 0.0 out of range (0, 1000000]",
        "{'key':'clientIp'} | rateLimits.r.requestsPerSecond: missing",
        "{'key':'clientIp','requestsPerSecond':1,'maxKeys':1} | rateLimits.r.maxKeys: 1 out of range 16..10000000",
    })
    void refusesABadRateLimit(String limit, String error) throws Exception {
        assertEquals(List.of(error), errors(config("[{'cluster':'shop'}]", "{'r':" + limit + "}")));
    }

    @Test
    void refusesListenerClashesAndEmptyTables() throws Exception {
        String json = config("[]", null).replace("\"listen\":\"127.0.0.1:7000\"", "\"listen\":\"127.0.0.1:7001\"");
        assertEquals(List.of("listeners[0].listen: port 7001 already used by clusters[1].listen",
                "listeners[0].routes: missing (a listener needs at least one route)"), errors(json));
    }

    @Test
    void aTcpClusterStillNeedsListen() throws Exception {
        String json = config("[{'cluster':'shop'}]", null).replace("\"listen\":\"127.0.0.1:7001\",", "");
        assertEquals(1, errors(json).size());
        assertEquals(true, errors(json).get(0).startsWith("clusters[1].listen: "));
    }
}
