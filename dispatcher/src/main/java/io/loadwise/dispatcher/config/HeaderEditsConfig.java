package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * Header edits, applied in the order remove, set, add.
 *
 * @param set replace every value of the header with this one (adding it when absent)
 * @param add add a value, keeping those there
 * @param remove drop the header
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record HeaderEditsConfig(Map<String, String> set, Map<String, String> add, List<String> remove) {

    public Map<String, String> setOrEmpty() {
        return set == null ? Map.of() : set;
    }

    public Map<String, String> addOrEmpty() {
        return add == null ? Map.of() : add;
    }

    public List<String> removeOrEmpty() {
        return remove == null ? List.of() : remove;
    }
}
