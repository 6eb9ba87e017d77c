package jreach.runner;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Map;

/**
 * The class loader of one run: the classes compiled for it (in memory), then the project's
 * classes from the cache directory, both with line probes; everything else (the JDK, the
 * project's dependencies, JUnit) from the parent. Project classes are looked up here first, so a
 * stale copy on the dependency class path never hides the code being tested.
 */
final class RunLoader extends ClassLoader {
    private final Map<String, byte[]> memory;
    private final File cache;

    private final String targetSource;
    private final int targetLine;
    /** The file whose calls report what they return ({@link Calls}); null for none. */
    private String observeSource;

    RunLoader(ClassLoader parent, Map<String, byte[]> memory, File cache) {
        this(parent, memory, cache, null, -1);
    }

    /** With a target: its file's classes also report branch distances toward it ({@link Branches}). */
    RunLoader(ClassLoader parent, Map<String, byte[]> memory, File cache, String targetSource, int targetLine) {
        super(parent);
        this.memory = memory;
        this.cache = cache;
        this.targetSource = targetSource;
        this.targetLine = targetLine;
        // As test runners do (Maven's surefire, Gradle, IDEs): assertions are on in the code under test.
        setDefaultAssertionStatus(true);
    }

    /** The calls of {@code source}'s classes ("pkg/Foo.java") report what they return ({@link Calls}). */
    void observeCalls(String source) {
        this.observeSource = source;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (name.equals(Probe.class.getName())) return Probe.class;
        if (name.equals(Branches.class.getName())) return Branches.class;
        if (name.equals(Inputs.class.getName())) return Inputs.class;
        if (name.equals(Calls.class.getName())) return Calls.class;
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                byte[] bytes = memory.get(name);
                if (bytes == null) bytes = fromCache(name);
                if (bytes != null) {
                    byte[] probed = Lines.instrument(bytes, targetSource, targetLine, observeSource);
                    try {
                        c = defineClass(name, probed, 0, probed.length);
                    } catch (ClassFormatError e) {
                        // The probes broke the class: it runs without them, so none of its lines
                        // counts as run (a test is then not offered; it is never wrongly offered).
                        c = defineClass(name, bytes, 0, bytes.length);
                    }
                }
            }
            if (c == null) return super.loadClass(name, resolve);
            if (resolve) resolveClass(c);
            return c;
        }
    }

    /** The class file of {@code name} as this loader would find it (null when there is none). */
    byte[] bytesOf(String name) {
        byte[] b = memory.get(name);
        if (b == null) b = fromCache(name);
        if (b != null) return b;
        try (java.io.InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            return null;
        }
    }

    private byte[] fromCache(String name) {
        File f = new File(cache, name.replace('.', '/') + ".class");
        if (!f.isFile()) return null;
        try {
            return Files.readAllBytes(f.toPath());
        } catch (IOException e) {
            return null;
        }
    }

    void close() {}
}
