package io.loadwise.dispatcher.logging;

import io.loadwise.dispatcher.config.AccessLogTemplate;
import java.util.List;

/**
 * A {@code logging.accessLog.format} template ({@link AccessLogTemplate}): its literal text, and each
 * {@code %{field}} replaced by the field's value, {@code -} when unknown. Texts are escaped as in the Apache formats
 * ({@code \xNN} for control characters, quotes and backslashes), so no value can split or forge a line.
 */
final class TemplateLine implements AccessLineFormat {

    private final Object[] parts;

    TemplateLine(String template) {
        List<AccessLogTemplate.Part> parsed = AccessLogTemplate.parse(template);
        parts = new Object[parsed.size()];
        for (int i = 0; i < parts.length; i++) {
            AccessLogTemplate.Part p = parsed.get(i);
            parts[i] = p.field() == null ? p.literal() : AccessFields.ALL.get(p.field());
        }
    }

    @Override
    public void append(AccessRecord r, StringBuilder line) {
        for (Object part : parts) {
            if (part instanceof String literal) {
                line.append(literal);
            } else {
                AccessFields.Field field = (AccessFields.Field) part;
                if (field.isText()) {
                    line.append(AccessLog.escape(field.text().apply(r)));
                } else {
                    long value = field.number().applyAsLong(r);
                    if (value < 0) {
                        line.append('-');
                    } else {
                        line.append(value);
                    }
                }
            }
        }
    }
}
