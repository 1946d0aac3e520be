package io.loadwise.dispatcher.route;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.loadwise.dispatcher.config.ConfigLoader;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RouteWarningsTest {

    static List<String> warnings(String routes, boolean tls) throws Exception {
        String json = ("{'listeners':[{'name':'edge','listen':'127.0.0.1:0',"
                + (tls ? "'tls':{'certificate':'c.pem','key':'k.pem'}," : "") + "'routes':" + routes + "}]}")
                .replace('\'', '"');
        return RouteWarnings.of(ConfigLoader.parse(json));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "none", value = {
        "[{'match':{'pathPrefix':'/api'},'cluster':'a'},{'match':{'pathPrefix':'/api/v1'},'cluster':'b'}]"
            + " | listeners[0].routes[1] (edge/1) is shadowed by listeners[0].routes[0] (edge/0): every request it "
            + "matches, the earlier one takes",
        "[{'cluster':'a'},{'name':'late','match':{'path':'/x'},'cluster':'b'}]"
            + " | listeners[0].routes[1] (late) is shadowed by listeners[0].routes[0] (edge/0): every request it "
            + "matches, the earlier one takes",
        "[{'match':{'host':'*.example.com'},'cluster':'a'},{'match':{'host':'Shop.Example.com','path':'/'},'cluster':'b'}]"
            + " | listeners[0].routes[1] (edge/1) is shadowed by listeners[0].routes[0] (edge/0): every request it "
            + "matches, the earlier one takes",
        "[{'match':{'pathPrefix':'/api'},'cluster':'a'},{'match':{'pathPrefix':'/apiary'},'cluster':'b'}] | none",
        "[{'match':{'pathPrefix':'/api','methods':['GET']},'cluster':'a'},{'match':{'pathPrefix':'/api'},'cluster':'b'}]"
            + " | none",
        "[{'match':{'pathRegex':'/a.*'},'cluster':'a'},{'match':{'path':'/ab'},'cluster':'b'}] | none",
        "[{'match':{'headers':{'x':'1'}},'cluster':'a'},{'match':{'headers':{'X':'1'},'path':'/'},'cluster':'b'}]"
            + " | listeners[0].routes[1] (edge/1) is shadowed by listeners[0].routes[0] (edge/0): every request it "
            + "matches, the earlier one takes",
        "[{'match':{'pathPrefix':'/old'},'redirect':{'path':'/old/new'}}]"
            + " | listeners[0].routes[0] (edge/0) redirects to a location it matches itself: a redirect loop",
        "[{'match':{'pathPrefix':'/old'},'redirect':{'path':'/new'}}] | none",
        "[{'redirect':{'scheme':'https'}}] | none",
        "[{'redirect':{'scheme':'http'}}]"
            + " | listeners[0].routes[0] (edge/0) redirects to a location it matches itself: a redirect loop",
    })
    void warnsOfWhatCanNeverWork(String routes, String warning) throws Exception {
        assertEquals(warning == null ? List.of() : List.of(warning), warnings(routes, false));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"[{'redirect':{'scheme':'https'}}]"})
    void httpsToHttpsLoopsOnATlsListener(String routes) throws Exception {
        assertEquals(List.of("listeners[0].routes[0] (edge/0) redirects to a location it matches itself: a redirect loop"),
                warnings(routes, true));
    }
}
