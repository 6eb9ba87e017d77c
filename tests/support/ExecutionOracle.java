import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.FilePermission;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Proxy;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.SocketPermission;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Permission;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;

/**
 * Drives methods of compiled Java classes with many generated inputs, so that a coverage agent
 * (JaCoCo) can record which lines the real JVM executes. It is the execution half of jreach's
 * soundness oracle: any line jreach reports unreachable that runs here refutes the report.
 *
 * <pre>
 * java -javaagent:jacocoagent.jar=destfile=X.exec -Djava.security.manager=allow \
 *      -cp CLASSES:ORACLE_DIR ExecutionOracle SPEC_FILE SECONDS_PER_METHOD SEED
 * </pre>
 *
 * <p>SPEC_FILE (UTF-8) has one method per line, four tab-separated fields:
 *
 * <ol>
 *   <li>the binary class name ({@code pkg.Outer$Inner}), or for a method of an enum constant's
 *       body {@code pkg.Enum#CONSTANT} (the body's class is found by initializing the enum);
 *   <li>the method name ({@code <init>} for a constructor);
 *   <li>the parameter types as written in the source, separated by {@code ;} (generic arguments,
 *       arrays and varargs allowed: {@code List<String>;int[];String...});
 *   <li>the method's literals, separated by {@code ;}. Each literal is one tag letter and the
 *       decoded value: {@code i} an integer in decimal ({@code i-42}), {@code f} a floating value
 *       ({@code f0.5}), {@code c} a character ({@code c;}), {@code s} a string ({@code shello}).
 *       The value is escaped: {@code \t}, {@code \n}, {@code \r}, {@code \\}, {@code \;} and
 *       {@code \}{@code uXXXX} for anything else that is not printable ASCII.
 * </ol>
 *
 * <p>For every method it finds the method or constructor (by name, parameter count and erased
 * simple type names, falling back to name and count), then calls it for SECONDS_PER_METHOD seconds
 * of wall time (at most {@value #MAX_CALLS} calls). Every call builds a fresh receiver and fresh
 * arguments from a {@link Random} seeded by SEED, the method's position and the call's number, and
 * runs in a worker thread with a {@value #CALL_LIMIT_MS} ms limit; a call that does not finish is
 * abandoned with {@code Thread.stop()}, and after {@value #MAX_HANGS} such hangs the method is given
 * up. Every Throwable is caught. While methods run, {@code System.out}/{@code err} go nowhere,
 * {@code System.in} is empty, and a security manager traps {@code System.exit}/{@code
 * Runtime.halt}, shutdown hooks, file writes and deletes, process starts and network access from
 * the code under test. After each method one line goes to the real stdout:
 *
 * <pre>
 * pkg.Outer$Inner method calls=N hangs=H [note]
 * </pre>
 *
 * <p>At the end the program calls {@code System.exit(0)}, which lets the agent write its exec file
 * even if some abandoned threads are still stuck. Exit status 2 on bad usage or an unreadable spec.
 */
public final class ExecutionOracle {
    static final int MAX_CALLS = 20_000;
    static final long CALL_LIMIT_MS = 200;
    /** The first call of a method also loads (and instruments) classes: it gets longer. */
    static final long FIRST_CALL_LIMIT_MS = 3_000;
    static final int MAX_HANGS = 3;
    /** Constructors tried (with generated arguments) before allocating without one. */
    static final int CONSTRUCTOR_ATTEMPTS = 3;
    /** Nesting of generated objects (constructor arguments of constructor arguments, ...). */
    static final int MAX_DEPTH = 3;

    private ExecutionOracle() {}

    public static void main(String[] args) {
        if (args.length != 3) {
            System.err.println("usage: ExecutionOracle SPEC_FILE SECONDS_PER_METHOD SEED");
            System.exit(2);
        }
        List<Target> targets;
        double seconds;
        long seed;
        try {
            targets = readSpec(Path.of(args[0]));
            seconds = Double.parseDouble(args[1]);
            seed = Long.parseLong(args[2]);
        } catch (IOException | IllegalArgumentException e) {
            System.err.println("ExecutionOracle: " + e.getMessage());
            System.exit(2);
            return;
        }
        PrintStream out = System.out;
        PrintStream err = System.err;
        InputStream in = System.in;
        PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream());
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> {});
        Guard.install();
        ClassIndex index = ClassIndex.scan(System.getProperty("java.class.path", ""));
        // System.out/err stay silenced for the whole run (abandoned threads may still print);
        // the summaries go to the saved stream.
        for (int k = 0; k < targets.size(); k++) {
            Target t = targets.get(k);
            Summary s;
            System.setOut(nowhere);
            System.setErr(nowhere);
            System.setIn(new ByteArrayInputStream(new byte[0]));
            try {
                s = new Driver(t, index, seed, k).drive(seconds);
            } catch (Throwable e) {
                s = new Summary(0, 0, "error:" + oneWord(e.toString()));
            }
            out.println(t.className + " " + t.methodName + " calls=" + s.calls + " hangs=" + s.hangs
                    + (s.note.isEmpty() ? "" : " " + s.note));
            out.flush();
        }
        Guard.allowAll = true;
        System.setOut(out);
        System.setErr(err);
        System.setIn(in);
        System.exit(0);
    }

    static String oneWord(String s) {
        String w = s.replaceAll("\\s+", "_");
        return w.length() > 160 ? w.substring(0, 160) : w;
    }

    // -----------------------------------------------------------------------------------------
    // The spec

    /** One method to drive. */
    static final class Target {
        final String className;
        final String methodName;
        final List<String> paramTypes;
        final Literals literals;

        Target(String className, String methodName, List<String> paramTypes, Literals literals) {
            this.className = className;
            this.methodName = methodName;
            this.paramTypes = paramTypes;
            this.literals = literals;
        }
    }

    static List<Target> readSpec(Path spec) throws IOException {
        List<Target> out = new ArrayList<>();
        int lineNo = 0;
        for (String line : Files.readAllLines(spec, StandardCharsets.UTF_8)) {
            lineNo++;
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split("\t", -1);
            if (f.length != 4 || f[0].isEmpty() || f[1].isEmpty()) {
                throw new IllegalArgumentException(spec + ":" + lineNo
                        + ": expected 4 tab-separated fields (class, method, parameter types, literals)");
            }
            List<String> params = new ArrayList<>();
            for (String p : splitEscaped(f[2])) {
                if (!p.isBlank()) {
                    params.add(p.trim());
                }
            }
            out.add(new Target(f[0], f[1], params, Literals.parse(splitEscaped(f[3]))));
        }
        return out;
    }

    /** Splits at unescaped {@code ;} and unescapes every part. */
    static List<String> splitEscaped(String s) {
        List<String> parts = new ArrayList<>();
        if (s.isEmpty()) {
            return parts;
        }
        StringBuilder cur = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == ';') {
                parts.add(cur.toString());
                cur.setLength(0);
            } else if (c == '\\' && i + 1 < s.length()) {
                char n = s.charAt(++i);
                switch (n) {
                    case 't': cur.append('\t'); break;
                    case 'n': cur.append('\n'); break;
                    case 'r': cur.append('\r'); break;
                    case 'u':
                        if (i + 4 < s.length()) {
                            cur.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
                            i += 4;
                        } else {
                            throw new IllegalArgumentException("bad \\u escape in spec: " + s);
                        }
                        break;
                    default: cur.append(n); // \\ and \;
                }
            } else {
                cur.append(c);
            }
        }
        parts.add(cur.toString());
        return parts;
    }

    /** The literals of a method: the seeds of its inputs. */
    static final class Literals {
        final long[] ints;
        final double[] floats;
        final char[] chars;
        final String[] strings;

        Literals(long[] ints, double[] floats, char[] chars, String[] strings) {
            this.ints = ints;
            this.floats = floats;
            this.chars = chars;
            this.strings = strings;
        }

        static Literals parse(List<String> items) {
            List<Long> ints = new ArrayList<>();
            List<Double> floats = new ArrayList<>();
            StringBuilder chars = new StringBuilder();
            List<String> strings = new ArrayList<>();
            for (String item : items) {
                if (item.isEmpty()) {
                    continue;
                }
                String v = item.substring(1);
                try {
                    switch (item.charAt(0)) {
                        case 'i': ints.add(Long.parseLong(v)); break;
                        case 'f': floats.add(Double.parseDouble(v)); break;
                        case 'c': if (!v.isEmpty()) chars.append(v.charAt(0)); break;
                        case 's': strings.add(v); break;
                        default: throw new IllegalArgumentException("unknown literal tag in " + item);
                    }
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("bad literal " + item);
                }
            }
            return new Literals(ints.stream().mapToLong(Long::longValue).toArray(),
                    floats.stream().mapToDouble(Double::doubleValue).toArray(),
                    chars.toString().toCharArray(), strings.toArray(new String[0]));
        }
    }

    static final class Summary {
        final int calls;
        final int hangs;
        final String note;

        Summary(int calls, int hangs, String note) {
            this.calls = calls;
            this.hangs = hangs;
            this.note = note;
        }
    }

    // -----------------------------------------------------------------------------------------
    // The sandbox: what the code under test may not do

    /**
     * Traps exits and shutdown hooks always (until the end), and file writes, process starts and
     * network access from threads of the sandbox group (the workers and the threads they start).
     */
    @SuppressWarnings("removal")
    static final class Guard extends SecurityManager {
        static final ThreadGroup SANDBOX = new ThreadGroup("execution-oracle-sandbox");
        static volatile boolean allowAll;

        static void install() {
            System.setSecurityManager(new Guard());
        }

        static boolean inSandbox() {
            ThreadGroup g = Thread.currentThread().getThreadGroup();
            while (g != null) {
                if (g == SANDBOX) {
                    return true;
                }
                g = g.getParent();
            }
            return false;
        }

        @Override
        public void checkPermission(Permission p) {
            if (allowAll) {
                return;
            }
            if (p instanceof RuntimePermission) {
                String n = p.getName();
                if (n.startsWith("exitVM") || n.equals("shutdownHooks") || n.equals("setSecurityManager")) {
                    throw new SecurityException("ExecutionOracle: " + n + " trapped");
                }
                return;
            }
            if (p instanceof FilePermission) {
                String a = p.getActions();
                if ((a.contains("write") || a.contains("delete") || a.contains("execute")) && inSandbox()) {
                    throw new SecurityException("ExecutionOracle: file " + a + " trapped");
                }
                return;
            }
            if (p instanceof SocketPermission && inSandbox()) {
                throw new SecurityException("ExecutionOracle: network trapped");
            }
        }

        @Override
        public void checkPermission(Permission p, Object context) {
            checkPermission(p);
        }

        @Override
        public void checkExit(int status) {
            if (!allowAll) {
                throw new SecurityException("ExecutionOracle: exit(" + status + ") trapped");
            }
        }
    }

    // -----------------------------------------------------------------------------------------
    // Calls with a time limit

    /** One call: run {@code body}, then count down {@code done}. */
    static final class Task {
        final Runnable body;
        final CountDownLatch done = new CountDownLatch(1);

        Task(Runnable body) {
            this.body = body;
        }
    }

    /** A reusable daemon thread of the sandbox group that runs one task at a time. */
    static final class Worker extends Thread {
        final SynchronousQueue<Task> tasks = new SynchronousQueue<>();
        volatile boolean abandoned;

        Worker() {
            super(Guard.SANDBOX, "execution-oracle-worker");
            setDaemon(true);
            setUncaughtExceptionHandler((t, e) -> {});
        }

        @Override
        public void run() {
            while (!abandoned) {
                Thread.interrupted();
                Task t;
                try {
                    t = tasks.take();
                } catch (InterruptedException e) {
                    continue;
                }
                try {
                    t.body.run();
                } catch (Throwable e) {
                    // Exceptions are expected; ThreadDeath from an abandonment too.
                }
                t.done.countDown();
            }
        }

        /** Runs {@code body}; false when it did not finish in time (the worker is then abandoned). */
        @SuppressWarnings("removal")
        boolean call(Runnable body, long limitMs) throws InterruptedException {
            Task t = new Task(body);
            if (!tasks.offer(t, 1, TimeUnit.SECONDS)) {
                abandoned = true;
                return false;
            }
            if (t.done.await(limitMs, TimeUnit.MILLISECONDS)) {
                return true;
            }
            abandoned = true;
            stop();
            return false;
        }
    }

    /** Drives one method. */
    static final class Driver {
        final Target target;
        final ClassIndex index;
        final long seed;
        final int position;

        Driver(Target target, ClassIndex index, long seed, int position) {
            this.target = target;
            this.index = index;
            this.seed = seed;
            this.position = position;
        }

        @SuppressWarnings("removal")
        Summary drive(double seconds) throws InterruptedException {
            List<Worker> zombies = new ArrayList<>();
            Worker worker = start();
            Class<?> cls;
            try {
                cls = resolve(worker);
            } catch (Throwable e) {
                worker.abandoned = true;
                worker.interrupt();
                return new Summary(0, 0, "class-not-loaded:" + oneWord(e.toString()));
            }
            if (worker.abandoned) {
                zombies.add(worker);
                worker = start();
            }
            Lookup found = Lookup.find(cls, target.methodName, target.paramTypes);
            if (found.executable == null) {
                worker.abandoned = true;
                worker.interrupt();
                return new Summary(0, 0, found.note);
            }
            Executable exec = found.executable;
            exec.trySetAccessible();
            long deadline = System.nanoTime() + (long) (seconds * 1e9);
            int calls = 0;
            int hangs = 0;
            while (calls < MAX_CALLS && hangs < MAX_HANGS && System.nanoTime() < deadline) {
                final int call = calls;
                Runnable body = () -> {
                    Gen g = new Gen(new Random(mix(seed, position, call)), target.literals, index, exec);
                    g.invoke(exec);
                };
                calls++;
                if (!worker.call(body, call == 0 ? FIRST_CALL_LIMIT_MS : CALL_LIMIT_MS)) {
                    hangs++;
                    zombies.add(worker);
                    worker = start();
                }
            }
            worker.abandoned = true;
            worker.interrupt();
            for (Worker z : zombies) {
                if (z.isAlive()) {
                    z.stop();
                }
            }
            String note = found.note;
            if (hangs >= MAX_HANGS) {
                note = (note.isEmpty() ? "" : note + ",") + "given-up-after-hangs";
            }
            return new Summary(calls, hangs, note);
        }

        /**
         * The class named by the target: loaded without initialization, except for an enum
         * constant's body ({@code pkg.Enum#CONSTANT}), whose enum is initialized in the sandbox.
         */
        Class<?> resolve(Worker worker) throws Exception {
            ClassLoader loader = ExecutionOracle.class.getClassLoader();
            int hash = target.className.indexOf('#');
            if (hash < 0) {
                return Class.forName(target.className, false, loader);
            }
            String enumName = target.className.substring(0, hash);
            String constant = target.className.substring(hash + 1);
            Class<?>[] found = new Class<?>[1];
            Throwable[] failure = new Throwable[1];
            boolean done = worker.call(() -> {
                try {
                    Object[] ks = Class.forName(enumName, true, loader).getEnumConstants();
                    for (Object k : ks == null ? new Object[0] : ks) {
                        if (((Enum<?>) k).name().equals(constant)) {
                            found[0] = k.getClass();
                        }
                    }
                } catch (Throwable e) {
                    failure[0] = e;
                }
            }, FIRST_CALL_LIMIT_MS);
            if (!done) {
                throw new IllegalStateException("initializing " + enumName + " hung");
            }
            if (found[0] == null) {
                throw new ClassNotFoundException(target.className
                        + (failure[0] == null ? " (no such enum constant)" : " (" + failure[0] + ")"));
            }
            return found[0];
        }

        static Worker start() {
            Worker w = new Worker();
            w.start();
            return w;
        }

        static long mix(long seed, int position, int call) {
            long h = seed * 0x9E3779B97F4A7C15L + position * 0xC2B2AE3D27D4EB4FL + call;
            h ^= h >>> 31;
            h *= 0xBF58476D1CE4E5B9L;
            return h ^ (h >>> 29);
        }
    }

    // -----------------------------------------------------------------------------------------
    // Finding the method

    static final class Lookup {
        final Executable executable;
        final String note;

        Lookup(Executable executable, String note) {
            this.executable = executable;
            this.note = note;
        }

        static Lookup find(Class<?> cls, String name, List<String> srcTypes) {
            List<Executable> named = new ArrayList<>();
            try {
                if (name.equals("<init>")) {
                    if (cls.isEnum()) {
                        return new Lookup(null, "enum-constructor-not-callable");
                    }
                    named.addAll(Arrays.asList(cls.getDeclaredConstructors()));
                } else {
                    for (Method m : cls.getDeclaredMethods()) {
                        if (m.getName().equals(name) && !m.isSynthetic() && !m.isBridge()) {
                            named.add(m);
                        }
                    }
                }
            } catch (Throwable e) {
                return new Lookup(null, "members-not-loaded:" + oneWord(e.toString()));
            }
            named.sort(Comparator.comparing(Executable::toString));
            Executable byCount = null;
            for (Executable e : named) {
                Class<?>[] raw = sourceParams(e, srcTypes.size());
                if (raw == null) {
                    continue;
                }
                if (byCount == null) {
                    byCount = e;
                }
                if (typesMatch(e, raw, srcTypes)) {
                    return new Lookup(e, "");
                }
            }
            if (byCount != null) {
                return new Lookup(byCount, "matched-by-count");
            }
            if (Modifier.isAbstract(cls.getModifiers()) && cls.isInterface() && name.equals("<init>")) {
                return new Lookup(null, "interface-has-no-constructor");
            }
            return new Lookup(null, "method-not-found");
        }

        /** The parameters the source declares (without an inner class's outer instance), or null. */
        static Class<?>[] sourceParams(Executable e, int count) {
            Class<?>[] raw = e.getParameterTypes();
            if (raw.length == count) {
                return raw;
            }
            if (e instanceof Constructor && raw.length == count + 1 && isInner(e.getDeclaringClass())
                    && raw[0] == e.getDeclaringClass().getEnclosingClass()) {
                return Arrays.copyOfRange(raw, 1, raw.length);
            }
            return null;
        }

        static boolean typesMatch(Executable e, Class<?>[] raw, List<String> srcTypes) {
            Type[] generic = e.getGenericParameterTypes();
            int shift = generic.length - raw.length;
            for (int i = 0; i < raw.length; i++) {
                String src = erase(srcTypes.get(i));
                int dims = 0;
                while (src.endsWith("[]")) {
                    src = src.substring(0, src.length() - 2);
                    dims++;
                }
                Class<?> c = raw[i];
                int cdims = 0;
                while (c.isArray()) {
                    c = c.getComponentType();
                    cdims++;
                }
                if (dims != cdims) {
                    return false;
                }
                if (src.equals(c.getSimpleName())) {
                    continue;
                }
                Type g = (shift >= 0 && i + shift < generic.length) ? generic[i + shift] : null;
                while (g instanceof GenericArrayType) {
                    g = ((GenericArrayType) g).getGenericComponentType();
                }
                if (g instanceof TypeVariable && ((TypeVariable<?>) g).getName().equals(src)) {
                    continue;
                }
                return false;
            }
            return true;
        }

        /** {@code final @A java.util.Map.Entry<K, V>...} → {@code Entry[]}. */
        static String erase(String t) {
            StringBuilder b = new StringBuilder();
            int depth = 0;
            for (int i = 0; i < t.length(); i++) {
                char c = t.charAt(i);
                if (c == '<') {
                    depth++;
                } else if (c == '>') {
                    depth--;
                } else if (depth == 0) {
                    b.append(c);
                }
            }
            String s = b.toString().replaceAll("@[\\w.]+(\\([^)]*\\))?", " ").replace("...", "[]");
            s = s.replaceAll("\\bfinal\\b", " ").replaceAll("\\s+", "");
            int dims = s.indexOf('[');
            String base = dims < 0 ? s : s.substring(0, dims);
            String suffix = dims < 0 ? "" : s.substring(dims);
            int dot = base.lastIndexOf('.');
            return base.substring(dot + 1) + suffix;
        }
    }

    static boolean isInner(Class<?> c) {
        return c.getEnclosingClass() != null && !Modifier.isStatic(c.getModifiers()) && !c.isInterface()
                && !c.isEnum() && !c.isRecord();
    }

    // -----------------------------------------------------------------------------------------
    // Concrete classes on the class path, for abstract types

    /** The concrete classes found in the directories of the class path (loaded, not initialized). */
    static final class ClassIndex {
        static final int MAX_CLASSES = 5_000;
        final List<Class<?>> concrete = new ArrayList<>();
        final Map<Class<?>, List<Class<?>>> cache = new HashMap<>();

        static ClassIndex scan(String classPath) {
            ClassIndex idx = new ClassIndex();
            List<String> names = new ArrayList<>();
            for (String entry : classPath.split(File.pathSeparator)) {
                File root = new File(entry);
                if (root.isDirectory()) {
                    collect(root, "", names);
                }
            }
            names.sort(null);
            ClassLoader loader = ExecutionOracle.class.getClassLoader();
            for (String n : names) {
                if (idx.concrete.size() >= MAX_CLASSES) {
                    break;
                }
                if (n.startsWith("ExecutionOracle") || n.equals("module-info") || n.endsWith("package-info")) {
                    continue;
                }
                try {
                    Class<?> c = Class.forName(n, false, loader);
                    int mod = c.getModifiers();
                    if (!c.isInterface() && !Modifier.isAbstract(mod) && !c.isEnum() && !c.isAnnotation()) {
                        idx.concrete.add(c);
                    }
                } catch (Throwable e) {
                    // A class that does not load is no candidate.
                }
            }
            return idx;
        }

        static void collect(File dir, String prefix, List<String> out) {
            File[] files = dir.listFiles();
            if (files == null) {
                return;
            }
            for (File f : files) {
                String name = f.getName();
                if (f.isDirectory()) {
                    collect(f, prefix + name + ".", out);
                } else if (name.endsWith(".class")) {
                    out.add(prefix + name.substring(0, name.length() - 6));
                }
            }
        }

        synchronized List<Class<?>> subtypes(Class<?> of) {
            return cache.computeIfAbsent(of, k -> {
                List<Class<?>> out = new ArrayList<>();
                for (Class<?> c : concrete) {
                    if (k.isAssignableFrom(c) && c != k) {
                        out.add(c);
                    }
                }
                return out;
            });
        }
    }

    // -----------------------------------------------------------------------------------------
    // Inputs

    static final Object UNSAFE;
    static final Method ALLOCATE;

    static {
        Object unsafe = null;
        Method allocate = null;
        try {
            Class<?> u = Class.forName("sun.misc.Unsafe");
            Field f = u.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            unsafe = f.get(null);
            allocate = u.getMethod("allocateInstance", Class.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // Without Unsafe, objects come from constructors only.
        }
        UNSAFE = unsafe;
        ALLOCATE = allocate;
    }

    static final char[] CHAR_POOL = {
        ' ', 'a', 'Z', '0', '9', '\0', '}', ',', 'é', 'ß', '\u0663', 'İ',
        'A', 'z', '\n', '\t', '\r', '<', '>', '&', '"', '\'', '-', '_', '.', '/', '\\', ':', '=', '#', '{',
        '(', ')', '[', ']', '@', '!', '?', '+', '*', '%', '\u00a0', '\u2028', '\uffff', '\ud800',
    };

    static final long[] INT_POOL = {
        0, 1, -1, 2, 3, 10, -2, 4, 5, 7, 8, 16, 31, 32, 64, 100, 127, 128, -128, 255, 256, 1000, 1024,
        65535, 65536, Integer.MIN_VALUE, Integer.MAX_VALUE, Integer.MIN_VALUE + 1, Integer.MAX_VALUE - 1,
        Short.MIN_VALUE, Short.MAX_VALUE, Byte.MIN_VALUE, Byte.MAX_VALUE, Character.MAX_VALUE,
    };

    static final long[] LONG_EXTRA = {
        Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1, 1L << 32, (1L << 32) - 1,
        1L << 31, -(1L << 31) - 1,
    };

    static final double[] DOUBLE_POOL = {
        0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0.5, -0.5, 1.0, -1.0,
        2.0, 10.0, 0.1, 1e-9, 1e9, Double.MAX_VALUE, Double.MIN_VALUE, -Double.MAX_VALUE,
        Float.MAX_VALUE, Float.MIN_VALUE, 1.5, 100.0,
    };

    static final String ASCII =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

    /** Values for one call, all from one {@link Random}. */
    static final class Gen {
        final Random r;
        final Literals lits;
        final ClassIndex index;
        /** The method under test: a proxy receiver must run it, not answer it. */
        final Executable target;
        final long[] ints;
        final char[] chars;
        final String alphabet;

        Gen(Random r, Literals lits, ClassIndex index, Executable target) {
            this.r = r;
            this.lits = lits;
            this.index = index;
            this.target = target;
            List<Long> is = new ArrayList<>();
            for (long v : lits.ints) {
                is.add(v);
                is.add(v - 1);
                is.add(v + 1);
                is.add(-v);
            }
            for (String s : lits.strings) {
                is.add((long) s.length());
                is.add((long) s.length() - 1);
                is.add((long) s.length() + 1);
            }
            for (char c : lits.chars) {
                is.add((long) c);
            }
            this.ints = is.stream().mapToLong(Long::longValue).toArray();
            StringBuilder cs = new StringBuilder();
            cs.append(lits.chars);
            for (String s : lits.strings) {
                for (int i = 0; i < s.length() && i < 24; i++) {
                    if (cs.indexOf(String.valueOf(s.charAt(i))) < 0) {
                        cs.append(s.charAt(i));
                    }
                }
            }
            this.chars = cs.toString().toCharArray();
            this.alphabet = cs + ASCII + "éßİ\u0663\u00a0";
        }

        // --- the call

        void invoke(Executable exec) {
            try {
                if (exec instanceof Constructor) {
                    Constructor<?> c = (Constructor<?>) exec;
                    c.newInstance(args(c, 0));
                } else {
                    Method m = (Method) exec;
                    Object receiver = Modifier.isStatic(m.getModifiers()) ? null : receiver(m.getDeclaringClass());
                    if (receiver == null && !Modifier.isStatic(m.getModifiers())) {
                        return;
                    }
                    m.invoke(receiver, args(m, 0));
                }
            } catch (Throwable e) {
                // Exceptions of the code under test are expected.
            }
        }

        /** Arguments for every parameter (an inner class's outer instance included). */
        Object[] args(Executable e, int depth) {
            Class<?>[] raw = e.getParameterTypes();
            Type[] generic = e.getGenericParameterTypes();
            Object[] a = new Object[raw.length];
            for (int i = 0; i < raw.length; i++) {
                Type t = generic.length == raw.length ? generic[i] : raw[i];
                a[i] = value(t, depth);
                if (a[i] == null && raw[i].isPrimitive()) {
                    a[i] = zero(raw[i]);
                }
            }
            return a;
        }

        Object receiver(Class<?> c) {
            Class<?> e = c.isEnum() ? c : c.getSuperclass() != null && c.getSuperclass().isEnum() ? c.getSuperclass() : null;
            if (e != null) {
                // An enum, or the body of one of its constants: one of the constants of that class.
                List<Object> ks = new ArrayList<>();
                for (Object k : e.getEnumConstants() == null ? new Object[0] : e.getEnumConstants()) {
                    if (c.isInstance(k)) {
                        ks.add(k);
                    }
                }
                return ks.isEmpty() ? null : ks.get(r.nextInt(ks.size()));
            }
            if (c.isInterface() || Modifier.isAbstract(c.getModifiers())) {
                List<Class<?>> subs = inheriting(c);
                if (!subs.isEmpty() && (r.nextBoolean() || !c.isInterface())) {
                    return instance(subs.get(r.nextInt(subs.size())), 0, true);
                }
                return c.isInterface() ? proxy(c, null, 0) : null;
            }
            return instance(c, 0, true);
        }

        /** Concrete subtypes of {@code c} that do not override the method under test. */
        List<Class<?>> inheriting(Class<?> c) {
            List<Class<?>> out = new ArrayList<>();
            for (Class<?> s : index.subtypes(c)) {
                if (!(target instanceof Method) || !overrides(s, c, (Method) target)) {
                    out.add(s);
                }
            }
            return out.isEmpty() ? index.subtypes(c) : out;
        }

        static boolean overrides(Class<?> sub, Class<?> base, Method m) {
            for (Class<?> k = sub; k != null && k != base; k = k.getSuperclass()) {
                try {
                    k.getDeclaredMethod(m.getName(), m.getParameterTypes());
                    return true;
                } catch (NoSuchMethodException | LinkageError e) {
                    // not here
                }
            }
            return false;
        }

        /** An object of class {@code c}: from a constructor with generated arguments, else Unsafe. */
        Object instance(Class<?> c, int depth, boolean receiver) {
            if (c.isEnum()) {
                return receiver(c);
            }
            if (c.isInterface() || Modifier.isAbstract(c.getModifiers()) || c.isArray() || c.isPrimitive()) {
                return null;
            }
            if (r.nextInt(10) != 0 && depth <= MAX_DEPTH) {
                Constructor<?>[] ctors;
                try {
                    ctors = c.getDeclaredConstructors();
                } catch (Throwable e) {
                    ctors = new Constructor<?>[0];
                }
                List<Constructor<?>> order = new ArrayList<>(Arrays.asList(ctors));
                order.sort(Comparator.comparing(Constructor::toString));
                java.util.Collections.shuffle(order, r);
                int attempts = 0;
                for (Constructor<?> k : order) {
                    if (attempts++ >= CONSTRUCTOR_ATTEMPTS) {
                        break;
                    }
                    if (!k.trySetAccessible()) {
                        continue;
                    }
                    try {
                        return k.newInstance(args(k, depth + 1));
                    } catch (Throwable e) {
                        // try another constructor
                    }
                }
            }
            return allocate(c);
        }

        static Object allocate(Class<?> c) {
            if (ALLOCATE == null) {
                return null;
            }
            try {
                return ALLOCATE.invoke(UNSAFE, c);
            } catch (Throwable e) {
                return null;
            }
        }

        // --- by type

        Object value(Type t, int depth) {
            if (t instanceof Class) {
                return of((Class<?>) t, new Type[0], depth);
            }
            if (t instanceof ParameterizedType) {
                ParameterizedType p = (ParameterizedType) t;
                return of((Class<?>) p.getRawType(), p.getActualTypeArguments(), depth);
            }
            if (t instanceof GenericArrayType) {
                Type comp = ((GenericArrayType) t).getGenericComponentType();
                return array(raw(comp), comp, depth);
            }
            if (t instanceof TypeVariable) {
                Type[] bounds = ((TypeVariable<?>) t).getBounds();
                return bounds.length == 0 || bounds[0] == Object.class ? object() : bounded(bounds[0], depth);
            }
            if (t instanceof WildcardType) {
                WildcardType w = (WildcardType) t;
                if (w.getLowerBounds().length > 0) {
                    return value(w.getLowerBounds()[0], depth);
                }
                Type up = w.getUpperBounds().length > 0 ? w.getUpperBounds()[0] : Object.class;
                return up == Object.class ? object() : bounded(up, depth);
            }
            return null;
        }

        /** A value for a type variable's bound (often recursive, as {@code Comparable<T>}). */
        Object bounded(Type bound, int depth) {
            Class<?> b = raw(bound);
            if (b == Comparable.class) {
                return r.nextBoolean() ? string() : (Object) (int) integer();
            }
            return value(b, depth);
        }

        static Class<?> raw(Type t) {
            if (t instanceof Class) {
                return (Class<?>) t;
            }
            if (t instanceof ParameterizedType) {
                return (Class<?>) ((ParameterizedType) t).getRawType();
            }
            if (t instanceof GenericArrayType) {
                return Array.newInstance(raw(((GenericArrayType) t).getGenericComponentType()), 0).getClass();
            }
            if (t instanceof TypeVariable) {
                Type[] b = ((TypeVariable<?>) t).getBounds();
                return b.length == 0 ? Object.class : raw(b[0]);
            }
            if (t instanceof WildcardType) {
                Type[] b = ((WildcardType) t).getUpperBounds();
                return b.length == 0 ? Object.class : raw(b[0]);
            }
            return Object.class;
        }

        Object of(Class<?> c, Type[] typeArgs, int depth) {
            if (c.isPrimitive()) {
                return primitive(c);
            }
            boolean boxed = c == Integer.class || c == Long.class || c == Short.class || c == Byte.class
                    || c == Character.class || c == Boolean.class || c == Double.class || c == Float.class;
            if (boxed) {
                return r.nextInt(16) == 0 ? null : primitive(unbox(c));
            }
            if (c == String.class) {
                return string();
            }
            if (c == CharSequence.class) {
                String s = string();
                return s != null && r.nextInt(4) == 0 ? new StringBuilder(s) : s;
            }
            if (c == StringBuilder.class || c == StringBuffer.class) {
                if (r.nextInt(12) == 0) {
                    return null;
                }
                String s = nonNullString();
                return c == StringBuilder.class ? new StringBuilder(s) : new StringBuffer(s);
            }
            if (c.isArray()) {
                Type comp = typeArgs.length == 1 ? typeArgs[0] : c.getComponentType();
                return array(c.getComponentType(), comp, depth);
            }
            if (c.isEnum()) {
                Object[] k = c.getEnumConstants();
                return k == null || k.length == 0 || r.nextInt(8) == 0 ? null : k[r.nextInt(k.length)];
            }
            if (c == Object.class) {
                return object();
            }
            if (depth > MAX_DEPTH) {
                return null;
            }
            if (c == Optional.class) {
                int k = r.nextInt(8);
                return k == 0 ? null : k <= 2 ? Optional.empty() : Optional.ofNullable(value(arg(typeArgs, 0), depth + 1));
            }
            if (Map.class.isAssignableFrom(c)) {
                return map(c, typeArgs, depth);
            }
            if (Collection.class.isAssignableFrom(c) || c == Iterable.class) {
                return collection(c, typeArgs, depth);
            }
            if (c == Iterator.class) {
                Collection<Object> items = collection(List.class, typeArgs, depth);
                return items == null ? null : items.iterator();
            }
            if (c == Number.class) {
                switch (r.nextInt(4)) {
                    case 0: return (int) integer();
                    case 1: return integer();
                    case 2: return dbl();
                    default: return null;
                }
            }
            if (c == BigInteger.class) {
                return r.nextInt(10) == 0 ? null : BigInteger.valueOf(integer());
            }
            if (c == BigDecimal.class) {
                return r.nextInt(10) == 0 ? null : BigDecimal.valueOf(integer(), r.nextInt(4));
            }
            if (c == Class.class) {
                Class<?>[] k = {String.class, Integer.class, Object.class, List.class, int.class, null};
                return k[r.nextInt(k.length)];
            }
            if (c == Comparable.class) {
                return r.nextBoolean() ? string() : (Object) (int) integer();
            }
            Object jdk = jdkStandIn(c);
            if (jdk != null) {
                return jdk;
            }
            if (r.nextInt(6) == 0) {
                return null;
            }
            if (c.isInterface()) {
                List<Class<?>> subs = index.subtypes(c);
                if (!subs.isEmpty() && r.nextBoolean() && depth < MAX_DEPTH) {
                    return instance(subs.get(r.nextInt(subs.size())), depth + 1, false);
                }
                return proxy(c, typeArgs, depth);
            }
            if (Modifier.isAbstract(c.getModifiers())) {
                List<Class<?>> subs = index.subtypes(c);
                if (subs.isEmpty() || depth >= MAX_DEPTH) {
                    return null;
                }
                return instance(subs.get(r.nextInt(subs.size())), depth + 1, false);
            }
            return depth < MAX_DEPTH ? instance(c, depth + 1, false) : null;
        }

        /** Common abstract JDK types with a natural implementation; null for other types. */
        Object jdkStandIn(Class<?> c) {
            if (c == InputStream.class) {
                return new ByteArrayInputStream(nonNullString().getBytes(StandardCharsets.UTF_8));
            }
            if (c == java.io.Reader.class) {
                return new java.io.StringReader(nonNullString());
            }
            if (c == OutputStream.class) {
                return new java.io.ByteArrayOutputStream();
            }
            if (c == java.io.Writer.class) {
                return new java.io.StringWriter();
            }
            if (c == Appendable.class) {
                return new StringBuilder(nonNullString());
            }
            if (c == java.nio.charset.Charset.class) {
                java.nio.charset.Charset[] k = {StandardCharsets.UTF_8, StandardCharsets.US_ASCII,
                    StandardCharsets.ISO_8859_1, StandardCharsets.UTF_16};
                return k[r.nextInt(k.length)];
            }
            if (c == java.util.Locale.class) {
                java.util.Locale[] k = {java.util.Locale.ROOT, java.util.Locale.ENGLISH,
                    java.util.Locale.forLanguageTag("tr"), java.util.Locale.GERMANY};
                return k[r.nextInt(k.length)];
            }
            if (c == java.net.URL.class || c == java.net.URI.class) {
                String u = urlText();
                try {
                    return c == java.net.URI.class ? new java.net.URI(u) : new java.net.URL(u);
                } catch (Exception e) {
                    return null;
                }
            }
            if (c == File.class || c == Path.class) {
                String name = r.nextBoolean() ? nonNullString() : "/nonexistent/" + nonNullString();
                try {
                    return c == File.class ? new File(name) : Path.of(name);
                } catch (RuntimeException e) {
                    return c == File.class ? new File("/nonexistent") : Path.of("/nonexistent");
                }
            }
            if (c == java.util.regex.Pattern.class) {
                try {
                    return java.util.regex.Pattern.compile(nonNullString());
                } catch (RuntimeException e) {
                    return java.util.regex.Pattern.compile("a*");
                }
            }
            return null;
        }

        /** A URL: a literal that looks like one, else a few forms around a generated string. */
        String urlText() {
            List<String> urls = new ArrayList<>();
            for (String l : lits.strings) {
                if (l.contains("://") || l.startsWith("file:") || l.startsWith("mailto:")) {
                    urls.add(l);
                }
            }
            if (!urls.isEmpty() && r.nextBoolean()) {
                return urls.get(r.nextInt(urls.size()));
            }
            String[] forms = {"http://example.com/", "https://example.com/a/b?c=d#e", "http://example.com:8080/x?",
                "file:/tmp/x.html", "https://[::1]/", "ftp://host/"};
            String base = forms[r.nextInt(forms.length)];
            return r.nextBoolean() ? base : base + nonNullString().replace(' ', '+');
        }

        static Type arg(Type[] typeArgs, int i) {
            return i < typeArgs.length ? typeArgs[i] : null;
        }

        /** An element of a collection whose element type is {@code t} (null: unknown). */
        Object element(Type t, boolean strings, int depth) {
            if (t == null || t == Object.class || (t instanceof WildcardType && raw(t) == Object.class)
                    || (t instanceof TypeVariable && raw(t) == Object.class)) {
                return strings ? string() : (Object) (int) integer();
            }
            return value(t, depth + 1);
        }

        @SuppressWarnings("unchecked")
        Collection<Object> collection(Class<?> c, Type[] typeArgs, int depth) {
            if (r.nextInt(10) == 0) {
                return null;
            }
            Collection<Object> col;
            boolean noNulls = false;
            boolean sorted = false;
            if (!c.isInterface() && !Modifier.isAbstract(c.getModifiers())) {
                try {
                    col = (Collection<Object>) c.getDeclaredConstructor().newInstance();
                } catch (Throwable e) {
                    return (Collection<Object>) instance(c, depth + 1, false);
                }
                noNulls = col instanceof ArrayDeque || col instanceof TreeSet;
                sorted = col instanceof TreeSet;
            } else if (SortedSet.class.isAssignableFrom(c) || NavigableSet.class.isAssignableFrom(c)) {
                col = new TreeSet<>();
                noNulls = true;
                sorted = true;
            } else if (Set.class.isAssignableFrom(c)) {
                col = new LinkedHashSet<>();
            } else if (Queue.class.isAssignableFrom(c) || Deque.class.isAssignableFrom(c)) {
                col = new ArrayDeque<>();
                noNulls = true;
            } else {
                col = new ArrayList<>();
            }
            if (!c.isInstance(col)) {
                return null;
            }
            Type elem = arg(typeArgs, 0);
            boolean strings = r.nextBoolean();
            int n = r.nextInt(5);
            for (int i = 0; i < n; i++) {
                Object v = element(elem, strings, depth);
                if (v == null && noNulls) {
                    continue;
                }
                try {
                    col.add(v);
                } catch (Throwable e) {
                    if (sorted) {
                        break;
                    }
                }
            }
            return col;
        }

        @SuppressWarnings("unchecked")
        Map<Object, Object> map(Class<?> c, Type[] typeArgs, int depth) {
            if (r.nextInt(10) == 0) {
                return null;
            }
            Map<Object, Object> m;
            boolean sorted = false;
            if (!c.isInterface() && !Modifier.isAbstract(c.getModifiers())) {
                try {
                    m = (Map<Object, Object>) c.getDeclaredConstructor().newInstance();
                } catch (Throwable e) {
                    return (Map<Object, Object>) instance(c, depth + 1, false);
                }
                sorted = m instanceof TreeMap;
            } else if (SortedMap.class.isAssignableFrom(c) || NavigableMap.class.isAssignableFrom(c)) {
                m = new TreeMap<>();
                sorted = true;
            } else {
                m = r.nextBoolean() ? new HashMap<>() : new LinkedHashMap<>();
            }
            if (!c.isInstance(m)) {
                return null;
            }
            boolean strings = r.nextInt(4) != 0;
            int n = r.nextInt(5);
            for (int i = 0; i < n; i++) {
                Object k = element(arg(typeArgs, 0), strings, depth);
                if (k == null && sorted) {
                    continue;
                }
                try {
                    m.put(k, element(arg(typeArgs, 1), !strings, depth));
                } catch (Throwable e) {
                    if (sorted) {
                        break;
                    }
                }
            }
            return m;
        }

        Object array(Class<?> comp, Type genericComp, int depth) {
            int k = r.nextInt(12);
            if (k == 0) {
                return null;
            }
            if (comp == char.class && k <= 4) {
                return nonNullString().toCharArray();
            }
            if (comp == byte.class && k <= 4) {
                return nonNullString().getBytes(r.nextBoolean() ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
            }
            int len = k == 5 || depth > MAX_DEPTH ? 0 : 1 + r.nextInt(4);
            Object a = Array.newInstance(comp, len);
            for (int i = 0; i < len; i++) {
                Object v = value(genericComp, depth + 1);
                if (v == null && comp.isPrimitive()) {
                    v = zero(comp);
                }
                try {
                    Array.set(a, i, v);
                } catch (IllegalArgumentException e) {
                    // a value of the wrong kind (a bound's stand-in): leave the default
                }
            }
            return a;
        }

        /** A proxy whose methods answer generated values of their return types. */
        Object proxy(Class<?> iface, Type[] typeArgs, int depth) {
            if (depth > MAX_DEPTH + 1 || iface.isAnnotation() || iface.isSealed()) {
                return null;
            }
            Map<String, Type> vars = new HashMap<>();
            TypeVariable<?>[] params = iface.getTypeParameters();
            for (int i = 0; i < params.length && typeArgs != null && i < typeArgs.length; i++) {
                vars.put(params[i].getName(), typeArgs[i]);
            }
            InvocationHandler h = (proxy, m, a) -> {
                int n = a == null ? 0 : a.length;
                switch (m.getName()) {
                    case "equals":
                        if (n == 1) {
                            return proxy == a[0];
                        }
                        break;
                    case "hashCode":
                        if (n == 0) {
                            return System.identityHashCode(proxy);
                        }
                        break;
                    case "toString":
                        if (n == 0) {
                            return iface.getSimpleName() + "@proxy";
                        }
                        break;
                    default:
                }
                if (m.isDefault() && (m.equals(target) || r.nextBoolean())) {
                    return InvocationHandler.invokeDefault(proxy, m, a);
                }
                Type rt = m.getGenericReturnType();
                if (rt instanceof TypeVariable && vars.containsKey(((TypeVariable<?>) rt).getName())) {
                    rt = vars.get(((TypeVariable<?>) rt).getName());
                }
                Class<?> raw = m.getReturnType();
                if (raw == void.class) {
                    return null;
                }
                Object v = value(rt, depth + 1);
                if (v == null && raw.isPrimitive()) {
                    return zero(raw);
                }
                return raw.isPrimitive() || v == null || raw.isInstance(v) ? v : null;
            };
            try {
                ClassLoader loader = iface.getClassLoader() != null ? iface.getClassLoader()
                        : ExecutionOracle.class.getClassLoader();
                return Proxy.newProxyInstance(loader, new Class<?>[] {iface}, h);
            } catch (Throwable e) {
                return null;
            }
        }

        // --- scalars

        Object primitive(Class<?> c) {
            if (c == int.class) {
                return (int) integer();
            }
            if (c == long.class) {
                return r.nextInt(5) == 0 ? LONG_EXTRA[r.nextInt(LONG_EXTRA.length)] : integer();
            }
            if (c == short.class) {
                return (short) integer();
            }
            if (c == byte.class) {
                return (byte) integer();
            }
            if (c == char.class) {
                return character();
            }
            if (c == boolean.class) {
                return r.nextBoolean();
            }
            if (c == double.class) {
                return dbl();
            }
            if (c == float.class) {
                return (float) dbl();
            }
            return null;
        }

        static Class<?> unbox(Class<?> c) {
            if (c == Integer.class) return int.class;
            if (c == Long.class) return long.class;
            if (c == Short.class) return short.class;
            if (c == Byte.class) return byte.class;
            if (c == Character.class) return char.class;
            if (c == Boolean.class) return boolean.class;
            if (c == Double.class) return double.class;
            return float.class;
        }

        static Object zero(Class<?> c) {
            if (c == int.class) return 0;
            if (c == long.class) return 0L;
            if (c == short.class) return (short) 0;
            if (c == byte.class) return (byte) 0;
            if (c == char.class) return '\0';
            if (c == boolean.class) return false;
            if (c == double.class) return 0.0;
            if (c == float.class) return 0.0f;
            return null;
        }

        /** An integer: boundary values, the method's literals (±1, negated), small and random ones. */
        long integer() {
            int k = r.nextInt(100);
            if (k < 35 && ints.length > 0) {
                return ints[r.nextInt(ints.length)];
            }
            if (k < 70) {
                return INT_POOL[r.nextInt(INT_POOL.length)];
            }
            if (k < 90) {
                return r.nextInt(61) - 20;
            }
            return r.nextInt();
        }

        char character() {
            int k = r.nextInt(100);
            if (k < 40 && chars.length > 0) {
                return chars[r.nextInt(chars.length)];
            }
            if (k < 80) {
                return CHAR_POOL[r.nextInt(CHAR_POOL.length)];
            }
            if (k < 95) {
                return (char) (32 + r.nextInt(95));
            }
            return (char) r.nextInt(0x10000);
        }

        double dbl() {
            int k = r.nextInt(100);
            if (k < 40) {
                return DOUBLE_POOL[r.nextInt(DOUBLE_POOL.length)];
            }
            if (k < 55 && lits.floats.length > 0) {
                double v = lits.floats[r.nextInt(lits.floats.length)];
                return r.nextBoolean() ? v : -v;
            }
            if (k < 75) {
                return integer();
            }
            if (k < 90) {
                return r.nextGaussian() * 100;
            }
            return Double.longBitsToDouble(r.nextLong());
        }

        Object object() {
            switch (r.nextInt(6)) {
                case 0: return null;
                case 1:
                case 2: return string();
                case 3: return (int) integer();
                case 4: return character();
                default: return r.nextBoolean() ? new Object() : dbl();
            }
        }

        String nonNullString() {
            String s = string();
            return s == null ? "" : s;
        }

        /** A string: null, "", the literals, single characters, random text, literal variations. */
        String string() {
            String[] s = lits.strings;
            int k = r.nextInt(100);
            if (k < 5) {
                return null;
            }
            if (k < 10) {
                return "";
            }
            if (k < 30 && s.length > 0) {
                return s[r.nextInt(s.length)];
            }
            if (k < 40) {
                return String.valueOf(character());
            }
            if (k < 50 && s.length > 0) {
                return s[r.nextInt(s.length)] + s[r.nextInt(s.length)];
            }
            if (k < 58) {
                return numberText();
            }
            if (k < 75 && s.length > 0) {
                return mutate(s[r.nextInt(s.length)]);
            }
            return randomText();
        }

        String randomText() {
            int len = r.nextInt(8) == 0 ? 8 + r.nextInt(40) : r.nextInt(9);
            StringBuilder b = new StringBuilder(len);
            for (int i = 0; i < len; i++) {
                b.append(r.nextInt(4) == 0 ? character() : alphabet.charAt(r.nextInt(alphabet.length())));
            }
            return b.toString();
        }

        String numberText() {
            switch (r.nextInt(6)) {
                case 0: return Long.toString(integer());
                case 1: return Integer.toString((int) integer());
                case 2: return Double.toString(dbl());
                case 3: return " " + (r.nextInt(200) - 100) + " ";
                case 4: return "0x" + Integer.toHexString(r.nextInt(4096));
                default: return (r.nextBoolean() ? "+" : "-") + r.nextInt(1000);
            }
        }

        /** A literal, changed a little: a character in or out, case, spaces, repetition, affixes. */
        String mutate(String s) {
            StringBuilder b = new StringBuilder(s);
            switch (r.nextInt(9)) {
                case 0:
                    b.insert(r.nextInt(b.length() + 1), character());
                    break;
                case 1:
                    if (b.length() > 0) {
                        b.deleteCharAt(r.nextInt(b.length()));
                    }
                    break;
                case 2:
                    if (b.length() > 0) {
                        b.setCharAt(r.nextInt(b.length()), character());
                    }
                    break;
                case 3:
                    return r.nextBoolean() ? s.toUpperCase(java.util.Locale.ROOT) : s.toLowerCase(java.util.Locale.ROOT);
                case 4:
                    return " " + s + (r.nextBoolean() ? " " : "\n");
                case 5:
                    return s + s;
                case 6:
                    return randomText() + s;
                case 7:
                    return s + randomText();
                default:
                    return s + character() + (lits.strings.length > 0 ? lits.strings[r.nextInt(lits.strings.length)] : "");
            }
            return b.toString();
        }
    }
}
