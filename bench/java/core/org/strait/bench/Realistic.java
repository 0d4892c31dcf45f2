package org.strait.bench;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Data of the realistic interop rows (bench/js/realistic.js), built in Java
 * so that strait and Rhino loop over the same collections (Rhino would pass
 * a JS number to List.add as a Double).
 */
public final class Realistic {
    private Realistic() {}

    /** [0, 1, ..., n-1] as an ArrayList of Integer. */
    public static List<Integer> ints(int n) {
        List<Integer> l = new ArrayList<>(n);
        for (int i = 0; i < n; i++) l.add(i);
        return l;
    }

    /** n consecutive days from 2000-01-01. */
    public static List<LocalDate> dates(int n) {
        List<LocalDate> l = new ArrayList<>(n);
        LocalDate d = LocalDate.of(2000, 1, 1);
        for (int i = 0; i < n; i++) l.add(d.plusDays(i));
        return l;
    }

    /** n maps {id: i, name: "item" + i, active: i % 2 == 0} (insertion order kept). */
    public static List<Map<String, Object>> records(int n) {
        List<Map<String, Object>> l = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Map<String, Object> m = new java.util.LinkedHashMap<>();
            m.put("id", i);
            m.put("name", "item" + i);
            m.put("active", i % 2 == 0);
            l.add(m);
        }
        return l;
    }
}
