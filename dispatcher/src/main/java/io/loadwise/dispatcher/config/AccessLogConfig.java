package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * {@code logging.accessLog}: a plain file name (the {@value #LOADWISE} line, as before issue 33) or
 * {@code {"file": ..., "format": ...}}, whose format defaults to {@value #JSON}.
 *
 * @param file the file, or {@value #STDOUT} for standard output
 * @param format {@value #LOADWISE}, {@value #JSON}, {@value #COMBINED}, {@value #COMMON}, or a template with
 *     {@code %{field}} placeholders ({@link AccessLogTemplate})
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AccessLogConfig(String file, String format) {

    public static final String STDOUT = "-";
    public static final String LOADWISE = "loadwise";
    public static final String JSON = "json";
    public static final String COMBINED = "combined";
    public static final String COMMON = "common";
    public static final List<String> FORMATS = List.of(LOADWISE, JSON, COMBINED, COMMON);

    @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
    public AccessLogConfig(@JsonProperty("file") String file, @JsonProperty("format") String format) {
        this.file = file;
        this.format = format;
    }

    /** The string form: that file, in the line format it always had. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static AccessLogConfig ofFile(String file) {
        return new AccessLogConfig(file, LOADWISE);
    }

    public String formatOrDefault() {
        return format == null ? JSON : format;
    }

    public boolean stdout() {
        return STDOUT.equals(file);
    }
}
