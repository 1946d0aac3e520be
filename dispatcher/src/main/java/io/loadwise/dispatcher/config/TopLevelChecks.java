package io.loadwise.dispatcher.config;

import static io.loadwise.dispatcher.config.FieldChecks.checkListen;
import static io.loadwise.dispatcher.config.FieldChecks.level;
import static io.loadwise.dispatcher.config.FieldChecks.positive;
import static io.loadwise.dispatcher.config.FieldChecks.range;

import io.loadwise.dispatcher.net.TransportKind;
import java.util.List;

/** The checks of a configuration's top-level settings for {@link ConfigValidator}: admin, logging, transport. */
final class TopLevelChecks {

    private TopLevelChecks() {
    }

    static Integer checkAdmin(AdminConfig admin, List<String> errors) {
        String listen = admin == null ? AdminConfig.DEFAULT_LISTEN : admin.listenOrDefault();
        if (admin != null && admin.dataDir() != null && admin.dataDir().isBlank()) {
            errors.add("admin.dataDir: blank");
        }
        if (admin != null) {
            positive("admin.metricsDiskBudgetMb", admin.metricsDiskBudgetMb(), errors);
            range("admin.metricsRetentionHours", admin.metricsRetentionHours(), 0, ConfigValidator.MAX_METRICS_RETENTION_HOURS, errors);
        }
        // A short token is refused even when LOADWISE_ADMIN_TOKEN overrides it: it is a weak secret left in
        // a file, one unset variable away from being the one in use. A missing token is AdminToken's to report.
        String token = admin == null || admin.token() == null ? null : admin.token().strip();
        if (token != null && !token.isEmpty() && AdminToken.problem(token) != null) {
            errors.add("admin.token: " + AdminToken.problem(token));
        }
        String registration = admin == null || admin.registrationToken() == null ? null
                : admin.registrationToken().strip();
        if (registration != null) {
            if (registration.isEmpty()) {
                errors.add("admin.registrationToken: blank");
            } else if (AdminToken.problem(registration) != null) {
                errors.add("admin.registrationToken: " + AdminToken.problem(registration));
            } else if (registration.equals(token)) {
                errors.add("admin.registrationToken: must differ from admin.token (it is handed to every node and "
                        + "may only register)");
            }
        }
        return checkListen("admin.listen", listen, errors);
    }

    static void checkLogging(LoggingConfig logging, List<String> errors) {
        if (logging == null) {
            return;
        }
        level("logging.level", logging.level(), errors);
        if (logging.levels() != null) {
            logging.levels().forEach((logger, level) -> {
                if (logger.isBlank()) {
                    errors.add("logging.levels: blank logger name");
                }
                if (level == null) {
                    errors.add("logging.levels." + logger + ": missing level");
                }
                level("logging.levels." + logger, level, errors);
            });
        }
        if (logging.file() != null && logging.file().isBlank()) {
            errors.add("logging.file: blank");
        }
        AccessLogConfig access = logging.accessLog();
        if (access != null) {
            if (access.file() == null || access.file().isBlank()) {
                errors.add(access.format() == null || access.file() == null ? "logging.accessLog.file: blank"
                        : "logging.accessLog: blank");
            }
            if (AccessLogTemplate.isTemplate(access.format())) {
                try {
                    AccessLogTemplate.parse(access.format());
                } catch (IllegalArgumentException e) {
                    errors.add("logging.accessLog.format: " + e.getMessage());
                }
            } else if (!AccessLogConfig.FORMATS.contains(access.formatOrDefault())) {
                errors.add("logging.accessLog.format: unknown format '" + access.format() + "', expected one of "
                        + String.join(", ", AccessLogConfig.FORMATS) + ", or a template with %{field} placeholders");
            }
        }
    }

    static void checkTransport(String transport, List<String> errors) {
        if (transport != null && TransportKind.byId(transport) == null) {
            errors.add("transport: unknown transport '" + transport + "', expected one of "
                    + String.join(", ", TransportKind.ids()));
        }
    }
}
