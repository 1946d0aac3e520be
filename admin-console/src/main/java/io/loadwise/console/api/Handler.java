package io.loadwise.console.api;

import io.loadwise.dispatcher.config.ConfigValidationException;
import java.io.IOException;

/** Handles one HTTP method of one resource. */
@FunctionalInterface
interface Handler {

    Reply handle(ApiCall call) throws ApiException, ConfigValidationException, IOException;
}
