package io.loadwise.dispatcher.config;

import static io.loadwise.dispatcher.config.ConfigValidatorTest.j;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.policy.PolicyRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code admin.metricsDiskBudgetMb} and {@code admin.metricsRetentionHours}: read, defaulted, validated. */
class AdminMetricsConfigTest {

    private final ConfigValidator validator = new ConfigValidator(PolicyRegistry.load());

    private static LoadwiseConfig withAdmin(String admin) throws ConfigValidationException {
        return ConfigLoader.parse(j("{'admin':{'token':'test-token-0123456789'" + admin + "},'clusters':[]}"));
    }

    @Test
    void theLimitsAreReadFromTheFile() throws Exception {
        AdminConfig admin = withAdmin(",'metricsDiskBudgetMb':300,'metricsRetentionHours':2").admin();
        assertEquals(300, admin.metricsDiskBudgetMbOrDefault());
        assertEquals(2, admin.metricsRetentionHoursOrDefault());
        assertEquals(List.of(), validator.validate(withAdmin(",'metricsDiskBudgetMb':1,'metricsRetentionHours':0")));
    }

    @Test
    void leftOutTheyTakeTheDocumentedDefaultsAndStayLeftOutWhenWritten() throws Exception {
        LoadwiseConfig config = withAdmin("");
        assertNull(config.admin().metricsDiskBudgetMb());
        assertEquals(1024, config.admin().metricsDiskBudgetMbOrDefault());
        assertEquals(24, config.admin().metricsRetentionHoursOrDefault());
        assertEquals(1024, new AdminConfig(null, null, null).metricsDiskBudgetMbOrDefault());
        String written = ConfigLoader.toJson(config);
        assertFalse(written.contains("metrics"), written);
        assertEquals(config, ConfigLoader.parse(written));
    }

    @Test
    void aBudgetOfZeroOrLessIsAnError() throws Exception {
        assertEquals(List.of("admin.metricsDiskBudgetMb: must be greater than 0 (got 0)"),
                validator.validate(withAdmin(",'metricsDiskBudgetMb':0")));
        assertEquals(List.of("admin.metricsDiskBudgetMb: must be greater than 0 (got -5)"),
                validator.validate(withAdmin(",'metricsDiskBudgetMb':-5")));
    }

    @Test
    void aNegativeOrAbsurdRetentionIsAnError() throws Exception {
        assertEquals(List.of("admin.metricsRetentionHours: -1 out of range 0..87600"),
                validator.validate(withAdmin(",'metricsRetentionHours':-1")));
        assertEquals(List.of("admin.metricsRetentionHours: 100000 out of range 0..87600"),
                validator.validate(withAdmin(",'metricsRetentionHours':100000")));
    }

    @Test
    void aBudgetThatIsNotAWholeNumberIsAnErrorNamingTheField() {
        ConfigValidationException e = assertThrows(ConfigValidationException.class,
                () -> withAdmin(",'metricsDiskBudgetMb':'lots'"));
        assertTrue(e.errors().get(0).startsWith("admin.metricsDiskBudgetMb:"), e.errors().toString());
        ConfigValidationException fraction = assertThrows(ConfigValidationException.class,
                () -> withAdmin(",'metricsDiskBudgetMb':1.5"));
        assertTrue(fraction.errors().get(0).startsWith("admin.metricsDiskBudgetMb:"), fraction.errors().toString());
    }
}
