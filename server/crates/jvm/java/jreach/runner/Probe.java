package jreach.runner;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Where the probes that {@link Lines} puts at the start of every line report to. A class gets an
 * id when it is instrumented; a run's hits are read and cleared by {@link #take}. The one class of
 * the runner that user code sees (its class loader hands out this very class).
 */
public final class Probe {
    private static final List<String> SOURCES = new ArrayList<>();
    private static final List<BitSet> HITS = new ArrayList<>();
    /** Lines whose code ran up to a probe point (see {@link #done}). */
    private static final List<BitSet> DONE = new ArrayList<>();

    private Probe() {}

    /** Called by instrumented code: line {@code line} of class {@code id} starts running. */
    public static void hit(int id, int line) {
        BitSet b;
        synchronized (HITS) {
            b = HITS.get(id);
            b.set(line);
        }
    }

    /**
     * Called by instrumented code at a probe point, where JaCoCo puts its probes (see {@link
     * Lines}): code of line {@code line} ran up to here. A line whose code an exception cuts short
     * before such a point (a call that throws) never gets here, and JaCoCo does not count it.
     */
    public static void done(int id, int line) {
        synchronized (HITS) {
            DONE.get(id).set(line);
        }
    }

    /** A new class id whose lines belong to the source file {@code source} ("pkg/Foo.java"). */
    static int register(String source) {
        synchronized (HITS) {
            SOURCES.add(source);
            HITS.add(new BitSet());
            DONE.add(new BitSet());
            return SOURCES.size() - 1;
        }
    }

    /**
     * The lines of {@code source} hit since the last call, and in {@code done} those that also
     * ran to their end; clears every class's hits.
     */
    static TreeSet<Integer> takeOf(String source, TreeSet<Integer> done) {
        TreeSet<Integer> lines = new TreeSet<>();
        synchronized (HITS) {
            for (int k = 0; k < SOURCES.size(); k++) {
                BitSet b = HITS.get(k);
                BitSet d = DONE.get(k);
                if (SOURCES.get(k).equals(source)) {
                    b.stream().forEach(lines::add);
                    d.stream().forEach(done::add);
                }
                b.clear();
                d.clear();
            }
        }
        return lines;
    }

    /**
     * The lines hit since the last call, per source file, and in {@code done} those that also ran
     * to their end; forgets the classes.
     */
    static Map<String, TreeSet<Integer>> take(Map<String, TreeSet<Integer>> done) {
        Map<String, TreeSet<Integer>> out = new TreeMap<>();
        synchronized (HITS) {
            for (int k = 0; k < SOURCES.size(); k++) {
                BitSet b = HITS.get(k);
                if (b.isEmpty()) continue;
                TreeSet<Integer> lines = out.computeIfAbsent(SOURCES.get(k), x -> new TreeSet<>());
                b.stream().forEach(lines::add);
                TreeSet<Integer> ended = done.computeIfAbsent(SOURCES.get(k), x -> new TreeSet<>());
                DONE.get(k).stream().forEach(ended::add);
            }
            SOURCES.clear();
            HITS.clear();
            DONE.clear();
        }
        return out;
    }
}
