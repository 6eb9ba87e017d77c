package jreach.runner;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.security.Permission;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * jreach's JVM runner: a long-lived child process that reads one JSON request per line on stdin
 * and writes one JSON reply per line on stdout. A {@code run} request compiles a candidate test
 * with the files it names ({@link Compile}), loads them in a fresh class loader whose project
 * classes carry line probes ({@link Lines}), runs the one test method with a time limit and
 * replies with the outcome and the lines that ran, per source file.
 *
 * <p>User code runs only here: the working directory is a scratch directory the parent chose,
 * {@code System.exit} is refused while a test runs (where the JDK still allows a security
 * manager), its output is captured, and a run that outlives its limit ends this process (the
 * parent starts a new one for the next request).
 */
public final class Main {
    private static final PrintStream PROTOCOL = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
    private static final ByteArrayOutputStream CAPTURED = new ByteArrayOutputStream();
    static volatile boolean testRunning;
    /** The first call that tried to end the JVM while a test ran ({@code System.exit(3)}), or null. */
    static volatile String exitCall;

    public static void main(String[] args) throws Exception {
        PrintStream capture = new PrintStream(CAPTURED, true, StandardCharsets.UTF_8);
        System.setOut(capture);
        System.setErr(capture);
        trapExit();
        // The requests come on the process's standard input; the code under test gets an empty
        // one (a read is at its end at once), never the protocol's.
        BufferedReader in = new BufferedReader(new InputStreamReader(new FileInputStream(FileDescriptor.in), StandardCharsets.UTF_8));
        emptyStdin();
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) continue;
            Map<String, Object> reply = new LinkedHashMap<>();
            try {
                @SuppressWarnings("unchecked")
                Map<String, Object> req = (Map<String, Object>) Json.parse(line);
                reply.put("id", req.get("id"));
                String op = (String) req.get("op");
                if ("ping".equals(op)) {
                    reply.put("status", "ok");
                    reply.put("java", System.getProperty("java.version"));
                } else if ("run".equals(op)) {
                    endSearch(); // its classes' probes are forgotten by the run
                    run(req, reply);
                } else if ("search".equals(op)) {
                    search(req, reply);
                } else {
                    reply.put("status", "error");
                    reply.put("message", "unknown op " + op);
                }
            } catch (Throwable t) {
                reply.put("status", "error");
                reply.put("message", t.toString());
            }
            PROTOCOL.println(Json.write(reply));
            if (Boolean.TRUE.equals(reply.get("fatal"))) Runtime.getRuntime().halt(3);
        }
    }

    @SuppressWarnings({"removal", "deprecation"})
    private static void trapExit() {
        try {
            System.setSecurityManager(new SecurityManager() {
                @Override
                public void checkExit(int status) {
                    if (!testRunning) return;
                    String call = exitCallName() + "(" + status + ")";
                    if (exitCall == null) exitCall = call;
                    throw new SecurityException("the code under test called " + call);
                }

                @Override
                public void checkPermission(Permission perm) {}

                @Override
                public void checkPermission(Permission perm, Object context) {}
            });
        } catch (UnsupportedOperationException | SecurityException e) {
            // This JDK has no security manager: System.exit ends the runner, which the parent reports.
        }
    }

    /** Which JDK method is ending the JVM, from the current stack: halt, exit or System.exit. */
    private static String exitCallName() {
        String name = "Runtime.exit";
        for (StackTraceElement e : new Throwable().getStackTrace()) {
            if (e.getClassName().equals("java.lang.Runtime") && e.getMethodName().equals("halt")) return "Runtime.halt";
            if (e.getClassName().equals("java.lang.System") && e.getMethodName().equals("exit")) name = "System.exit";
        }
        return name;
    }

    @SuppressWarnings("unchecked")
    /** Standard input as a test sees it unless it sets its own: empty (a test before may have set one). */
    private static void emptyStdin() {
        System.setIn(new ByteArrayInputStream(new byte[0]));
    }

    private static void run(Map<String, Object> req, Map<String, Object> reply) throws Exception {
        List<File> roots = files((List<Object>) req.get("sourceRoots"));
        List<File> classpath = files((List<Object>) req.get("classpath"));
        File cache = new File((String) req.get("cacheDir"));
        Map<String, String> texts = new LinkedHashMap<>();
        for (Object o : (List<Object>) req.get("sources")) {
            Map<String, Object> s = (Map<String, Object>) o;
            texts.put((String) s.get("path"), (String) s.get("text"));
        }
        String testClass = (String) req.get("testClass");
        String testMethod = (String) req.get("testMethod");
        long timeoutMs = ((Number) req.getOrDefault("timeoutMs", 10000L)).longValue();

        long t0 = System.nanoTime();
        Compile compiled = Compile.run(texts, roots, classpath, cache);
        reply.put("compileMs", (System.nanoTime() - t0) / 1_000_000);
        if (compiled.error != null) {
            reply.put("status", "compile-error");
            reply.put("message", compiled.error);
            return;
        }
        List<URL> urls = new ArrayList<>();
        for (File f : classpath) urls.add(f.toURI().toURL());
        URLClassLoader deps = new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
        RunLoader loader = new RunLoader(deps, compiled.classes, cache);
        String observe = (String) req.get("observeCalls");
        if (observe != null) loader.observeCalls(observe);
        Probe.take(new java.util.HashMap<>());
        Calls.take();
        Map<String, Object> outcome = new LinkedHashMap<>();
        CAPTURED.reset();
        Thread t = new Thread(() -> runTest(loader, testClass, testMethod, outcome), "jreach-test");
        t.setDaemon(true);
        t.setContextClassLoader(loader);
        long t1 = System.nanoTime();
        exitCall = null;
        emptyStdin();
        testRunning = true;
        t.start();
        t.join(timeoutMs);
        testRunning = false;
        reply.put("runMs", (System.nanoTime() - t1) / 1_000_000);
        // Even when the test caught the refusal: in a build, the call would have ended the JVM.
        if (exitCall != null) reply.put("exitCall", exitCall);
        Map<String, List<Integer>> lines = new LinkedHashMap<>();
        Map<String, TreeSet<Integer>> done = new LinkedHashMap<>();
        for (Map.Entry<String, TreeSet<Integer>> e : Probe.take(done).entrySet()) lines.put(e.getKey(), new ArrayList<>(e.getValue()));
        reply.put("lines", lines);
        Map<String, List<Integer>> completed = new LinkedHashMap<>();
        for (Map.Entry<String, TreeSet<Integer>> e : done.entrySet()) completed.put(e.getKey(), new ArrayList<>(e.getValue()));
        reply.put("completed", completed);
        if (observe != null) reply.put("calls", Calls.take());
        String output = CAPTURED.toString(StandardCharsets.UTF_8);
        reply.put("output", output.length() > 4000 ? output.substring(0, 4000) + "…" : output);
        if (t.isAlive()) {
            reply.put("status", "timeout");
            reply.put("message", "the test still ran after " + timeoutMs + " ms");
            reply.put("fatal", true);
            return;
        }
        reply.putAll(outcome);
        loader.close();
        deps.close();
    }

    /** A search's compiled harness and class loader, kept while requests name the same session. */
    private static final class Session {
        String key;
        RunLoader loader;
        URLClassLoader deps;
        String testClass, testMethod, targetSource;
        int targetLine;
        final java.util.Set<String> scanned = new java.util.HashSet<>();
        /** The lines of the target's file any run of the session ran. */
        final java.util.BitSet ran = new java.util.BitSet();
    }

    private static Session search;

    /** Forgets the search session, closing what its class loader opened. */
    private static void endSearch() {
        if (search == null) return;
        try {
            search.deps.close();
        } catch (java.io.IOException e) {
            // Nothing to do: the loader is dropped either way.
        }
        search = null;
    }

    /**
     * Runs a search harness (a test whose inputs are {@link Inputs} calls) once per input vector
     * of {@code inputs}, up to the first run that reaches the target line: per run the outcome,
     * whether the target line ran, how many lines of the target's file ran and the branch
     * fitness ({@link Branches}); once, the constants of the
     * target's classes and of the classes in the runs' stack traces. The harness is compiled and
     * loaded once per session ({@code session}, a key the caller chooses), so later batches of
     * the same search only run.
     */
    @SuppressWarnings({"unchecked", "deprecation", "removal"})
    private static void search(Map<String, Object> req, Map<String, Object> reply) throws Exception {
        String key = (String) req.get("session");
        long t0 = System.nanoTime();
        if (search == null || !search.key.equals(key)) {
            endSearch();
            List<File> roots = files((List<Object>) req.get("sourceRoots"));
            List<File> classpath = files((List<Object>) req.get("classpath"));
            File self = new File(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            List<File> compileCp = new ArrayList<>(classpath);
            compileCp.add(self);
            File cache = new File((String) req.get("cacheDir"));
            Map<String, String> texts = new LinkedHashMap<>();
            for (Object o : (List<Object>) req.get("sources")) {
                Map<String, Object> s = (Map<String, Object>) o;
                texts.put((String) s.get("path"), (String) s.get("text"));
            }
            Compile compiled = Compile.run(texts, roots, compileCp, cache);
            if (compiled.error != null) {
                reply.put("compileMs", (System.nanoTime() - t0) / 1_000_000);
                reply.put("status", "compile-error");
                reply.put("message", compiled.error);
                return;
            }
            List<URL> urls = new ArrayList<>();
            for (File f : classpath) urls.add(f.toURI().toURL());
            Session s = new Session();
            s.key = key;
            s.deps = new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
            s.targetSource = (String) req.get("targetSource");
            s.targetLine = ((Number) req.get("targetLine")).intValue();
            Probe.take(new java.util.HashMap<>());
            Branches.clear();
            s.loader = new RunLoader(s.deps, compiled.classes, cache, s.targetSource, s.targetLine);
            s.testClass = (String) req.get("testClass");
            s.testMethod = (String) req.get("testMethod");
            search = s;
        }
        reply.put("compileMs", (System.nanoTime() - t0) / 1_000_000);
        Session s = search;
        long limit = ((Number) req.getOrDefault("timeoutMs", 1000L)).longValue();
        List<Object> results = new ArrayList<>();
        long t1 = System.nanoTime();
        boolean stuck = false;
        for (Object input : (List<Object>) req.get("inputs")) {
            Inputs.set(((List<Object>) input).toArray(), s.targetSource);
            Probe.takeOf(s.targetSource, new TreeSet<>());
            Branches.reset();
            Inputs.clearObserved();
            Map<String, Object> outcome = new LinkedHashMap<>();
            CAPTURED.reset();
            Thread t = new Thread(() -> runTest(s.loader, s.testClass, s.testMethod, outcome), "jreach-search");
            t.setDaemon(true);
            t.setContextClassLoader(s.loader);
            exitCall = null;
            emptyStdin();
            testRunning = true;
            t.start();
            t.join(limit);
            boolean late = t.isAlive();
            if (late) {
                try {
                    t.stop();
                } catch (UnsupportedOperationException e) {
                    // Newer JDKs cannot stop a thread: the runner ends after this reply.
                }
                t.join(500);
            }
            testRunning = false;
            Map<String, Object> r = new LinkedHashMap<>();
            TreeSet<Integer> done = new TreeSet<>();
            TreeSet<Integer> lines = Probe.takeOf(s.targetSource, done);
            // What the call under test ran, for the measure of progress; with what ran before
            // it, for the rest.
            int callLines = lines.size();
            if (Inputs.beforeCall != null) {
                lines.addAll(Inputs.beforeCall);
                done.addAll(Inputs.beforeCallDone);
            }
            // A hit is a run whose target line ran to its end (one that throws on it is not counted
            // as run by coverage tools). A run that tried to end the JVM is no test to offer,
            // whatever it reached.
            r.put("hit", done.contains(s.targetLine) && exitCall == null);
            // Started, not finished: closer than any run that turned away before the line.
            r.put("started", lines.contains(s.targetLine));
            if (exitCall != null) r.put("exitCall", exitCall);
            r.put("lines", callLines);
            // How many lines no earlier run of the session ran: the search keeps such runs as
            // places to start from (coverage-guided, as a fuzzer does).
            int novel = 0;
            for (int line : lines) {
                if (!s.ran.get(line)) {
                    s.ran.set(line);
                    novel++;
                }
            }
            r.put("novel", novel);
            r.put("read", Inputs.readMask());
            double[] fit = Branches.fitness();
            if (fit != null) r.put("fitness", java.util.Arrays.asList(fit[0], fit[1]));
            if (t.isAlive()) {
                r.put("status", "timeout");
                results.add(r);
                stuck = true;
                break;
            }
            if (outcome.containsKey("trace") && outcome.get("status").equals("fail")) {
                for (Object frame : (List<Object>) outcome.get("trace")) {
                    String f = frame.toString();
                    int paren = f.indexOf('(');
                    String method = paren < 0 ? f : f.substring(0, paren);
                    int dot = method.lastIndexOf('.');
                    if (dot < 0) continue;
                    String cls = method.substring(0, dot);
                    int slash = cls.lastIndexOf('/');
                    if (slash >= 0) cls = cls.substring(slash + 1);
                    if (cls.startsWith("java.") || cls.startsWith("javax.") || cls.startsWith("jdk.") || cls.startsWith("sun.")) continue;
                    if (s.scanned.add(cls)) {
                        byte[] bytes = s.loader.bytesOf(cls);
                        if (bytes != null) Branches.scanConstants(bytes);
                    }
                }
            }
            r.put("status", late ? "timeout" : outcome.getOrDefault("status", "fail"));
            Object returned = Inputs.observedForJson();
            if (returned != Inputs.class && !late) {
                Map<String, Object> v = new LinkedHashMap<>();
                v.put("value", returned);
                r.put("returned", v);
            }
            if (outcome.containsKey("exception") && !late) r.put("exception", outcome.get("exception"));
            results.add(r);
            // The caller takes the first run that reaches the line: the rest need not run.
            if (Boolean.TRUE.equals(r.get("hit"))) break;
        }
        reply.put("runMs", (System.nanoTime() - t1) / 1_000_000);
        reply.put("status", "ok");
        reply.put("results", results);
        List<Object> constants;
        synchronized (Branches.class) { constants = new ArrayList<>(Branches.CONSTANTS); }
        reply.put("constants", constants);
        StringBuilder chars = new StringBuilder();
        synchronized (Branches.class) { for (char c : Branches.CHARS) chars.append(c); }
        reply.put("chars", chars.toString());
        if (stuck) {
            endSearch();
            reply.put("fatal", true);
        }
    }

    private static void runTest(ClassLoader loader, String className, String methodName, Map<String, Object> outcome) {
        try {
            Class<?> cls = Class.forName(className, true, loader);
            Method test = cls.getDeclaredMethod(methodName);
            test.setAccessible(true);
            Object instance = null;
            if (!java.lang.reflect.Modifier.isStatic(test.getModifiers())) {
                var ctor = cls.getDeclaredConstructor();
                ctor.setAccessible(true);
                instance = ctor.newInstance();
            }
            invokeAnnotated(cls, instance, "BeforeEach", "Before");
            try {
                test.invoke(instance);
            } finally {
                invokeAnnotated(cls, instance, "AfterEach", "After");
            }
            outcome.put("status", "pass");
        } catch (InvocationTargetException e) {
            fail(outcome, e.getCause() == null ? e : e.getCause());
        } catch (Throwable e) {
            fail(outcome, e);
        }
    }

    private static void fail(Map<String, Object> outcome, Throwable e) {
        outcome.put("status", "fail");
        outcome.put("exception", e.getClass().getName());
        String msg = e.getMessage();
        outcome.put("message", msg == null ? "" : msg.length() > 500 ? msg.substring(0, 500) + "…" : msg);
        List<String> trace = new ArrayList<>();
        for (StackTraceElement el : e.getStackTrace()) {
            String c = el.getClassName();
            if (c.startsWith("jreach.runner.") || c.startsWith("java.lang.reflect.") || c.startsWith("jdk.internal.")
                    || c.startsWith("org.junit.") || c.startsWith("org.opentest4j.")) continue;
            trace.add(el.toString());
            if (trace.size() == 8) break;
        }
        outcome.put("trace", trace);
    }

    private static void invokeAnnotated(Class<?> cls, Object instance, String... names) throws Throwable {
        for (Method m : cls.getDeclaredMethods()) {
            for (Annotation a : m.getAnnotations()) {
                String n = a.annotationType().getSimpleName();
                if (n.equals(names[0]) || n.equals(names[1])) {
                    m.setAccessible(true);
                    try {
                        m.invoke(java.lang.reflect.Modifier.isStatic(m.getModifiers()) ? null : instance);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                }
            }
        }
    }

    private static List<File> files(List<Object> paths) {
        List<File> out = new ArrayList<>();
        if (paths != null) for (Object p : paths) out.add(new File((String) p));
        return out;
    }
}
