package jreach.runner;

/**
 * The inputs of one run of a search harness: a test class jreach writes once per search, whose
 * argument values are calls such as {@code Inputs.i(0)} instead of literals, so that one compiled
 * harness runs with many inputs. The runner sets {@link #values} before each run; like
 * {@link Probe}, user code sees this very class (its class loader hands it out).
 *
 * <p>Numbers arrive from JSON as {@code Long} or {@code Double}; a double that JSON cannot write
 * ({@code NaN}, the infinities, {@code -0.0}) arrives as its Java spelling in a string.
 */
public final class Inputs {
    static volatile Object[] values = new Object[0];
    /**
     * Which inputs this run read: an input the run never read (one in a {@code switch} case of a
     * choice not taken) cannot change what it does, and the search does not move it.
     */
    static volatile boolean[] read = new boolean[0];
    /** What the harness's call returned in this run, as {@link #observed} holds it. */
    static volatile boolean returned;
    static volatile Object observed;

    private Inputs() {}

    private static Object at(int k) {
        Object[] v = values;
        if (k >= v.length) throw new IllegalStateException("the search gave no input " + k);
        boolean[] r = read;
        if (k < r.length) r[k] = true;
        return v[k];
    }

    /** The target's source file in this search ("pkg/Foo.java"), for {@link #begin}. */
    static volatile String targetSource;
    /**
     * The lines of the target's file that ran before the call under test began, and those of
     * them that ran to their end ({@link #begin}); null when the run did not come to it.
     */
    static volatile java.util.TreeSet<Integer> beforeCall, beforeCallDone;

    /** Sets the inputs of the next run, none of them read yet. */
    static void set(Object[] next, String source) {
        read = new boolean[next.length];
        values = next;
        targetSource = source;
        beforeCall = null;
        beforeCallDone = null;
    }

    /**
     * Called by a search harness just before the call under test: the lines that ran so far
     * (making the receiver and the arguments) are set apart, so that the search's measure of
     * progress counts only what the call ran (a receiver made by more setter calls is no
     * closer to the target).
     */
    public static void begin() {
        String source = targetSource;
        if (source == null) return;
        java.util.TreeSet<Integer> done = new java.util.TreeSet<>();
        beforeCall = Probe.takeOf(source, done);
        beforeCallDone = done;
    }

    /**
     * The inputs the last run read, as hex digits: digit {@code j} holds inputs {@code 4j} to
     * {@code 4j+3}, input {@code k} as bit {@code k % 4}.
     */
    static String readMask() {
        boolean[] r = read;
        StringBuilder out = new StringBuilder();
        for (int j = 0; j < r.length; j += 4) {
            int digit = 0;
            for (int b = 0; b < 4 && j + b < r.length; b++) if (r[j + b]) digit |= 1 << b;
            out.append(Character.forDigit(digit, 16));
        }
        return out.toString();
    }

    private static double number(Object o) {
        if (o instanceof String) return Double.parseDouble((String) o);
        return ((Number) o).doubleValue();
    }

    private static long integral(Object o) {
        if (o instanceof Number && !(o instanceof Double)) return ((Number) o).longValue();
        return (long) number(o);
    }

    public static boolean z(int k) { return Boolean.TRUE.equals(at(k)); }
    public static byte b(int k) { return (byte) integral(at(k)); }
    public static short s(int k) { return (short) integral(at(k)); }
    public static char c(int k) { return (char) integral(at(k)); }
    public static int i(int k) { return (int) integral(at(k)); }
    public static long j(int k) { return integral(at(k)); }
    public static float f(int k) { return (float) number(at(k)); }
    public static double d(int k) { return number(at(k)); }
    /**
     * A string input, interned: the test the search writes passes it as a literal, which the JVM
     * interns, so that code comparing it by reference with a constant ({@code str == TRUE}) sees
     * in the search what it sees in the test.
     */
    public static String str(int k) { Object o = at(k); return o == null ? null : o.toString().intern(); }

    private static java.util.List<?> list(int k) {
        Object o = at(k);
        return o == null ? null : (java.util.List<?>) o;
    }

    public static boolean[] zs(int k) { return booleansOf(list(k)); }
    private static boolean[] booleansOf(java.util.List<?> l) {
        if (l == null) return null;
        boolean[] a = new boolean[l.size()];
        for (int n = 0; n < a.length; n++) a[n] = Boolean.TRUE.equals(l.get(n));
        return a;
    }
    public static byte[] bs(int k) {
        java.util.List<?> l = list(k);
        if (l == null) return null;
        byte[] a = new byte[l.size()];
        for (int n = 0; n < a.length; n++) a[n] = (byte) integral(l.get(n));
        return a;
    }
    public static short[] ss(int k) {
        java.util.List<?> l = list(k);
        if (l == null) return null;
        short[] a = new short[l.size()];
        for (int n = 0; n < a.length; n++) a[n] = (short) integral(l.get(n));
        return a;
    }
    public static char[] cs(int k) { return charsOf(list(k)); }
    private static char[] charsOf(java.util.List<?> l) {
        if (l == null) return null;
        char[] a = new char[l.size()];
        for (int n = 0; n < a.length; n++) a[n] = (char) integral(l.get(n));
        return a;
    }
    public static int[] is(int k) { return intsOf(list(k)); }
    private static int[] intsOf(java.util.List<?> l) {
        if (l == null) return null;
        int[] a = new int[l.size()];
        for (int n = 0; n < a.length; n++) a[n] = (int) integral(l.get(n));
        return a;
    }
    public static long[] js(int k) { return longsOf(list(k)); }
    private static long[] longsOf(java.util.List<?> l) {
        if (l == null) return null;
        long[] a = new long[l.size()];
        for (int n = 0; n < a.length; n++) a[n] = integral(l.get(n));
        return a;
    }
    public static float[] fs(int k) {
        java.util.List<?> l = list(k);
        if (l == null) return null;
        float[] a = new float[l.size()];
        for (int n = 0; n < a.length; n++) a[n] = (float) number(l.get(n));
        return a;
    }
    public static double[] ds(int k) { return doublesOf(list(k)); }
    private static double[] doublesOf(java.util.List<?> l) {
        if (l == null) return null;
        double[] a = new double[l.size()];
        for (int n = 0; n < a.length; n++) a[n] = number(l.get(n));
        return a;
    }
    public static Integer[] ints(int k) {
        java.util.List<?> l = list(k);
        if (l == null) return null;
        Integer[] a = new Integer[l.size()];
        for (int n = 0; n < a.length; n++) a[n] = (int) integral(l.get(n));
        return a;
    }
    /** Boxed elements, none null: the primitive array's, boxed. */
    public static Short[] shortBoxes(int k) { return boxed(ss(k), Short.class); }
    public static Byte[] byteBoxes(int k) { return boxed(bs(k), Byte.class); }
    public static Character[] charBoxes(int k) { return boxed(cs(k), Character.class); }
    public static Long[] longBoxes(int k) { return boxed(js(k), Long.class); }
    public static Float[] floatBoxes(int k) { return boxed(fs(k), Float.class); }
    public static Double[] doubleBoxes(int k) { return boxed(ds(k), Double.class); }
    public static Boolean[] boolBoxes(int k) { return boxed(zs(k), Boolean.class); }
    @SuppressWarnings("unchecked")
    private static <T> T[] boxed(Object primitives, Class<T> box) {
        if (primitives == null) return null;
        int n = java.lang.reflect.Array.getLength(primitives);
        T[] a = (T[]) java.lang.reflect.Array.newInstance(box, n);
        for (int i = 0; i < n; i++) a[i] = box.cast(java.lang.reflect.Array.get(primitives, i));
        return a;
    }
    public static String[] strs(int k) {
        java.util.List<?> l = list(k);
        if (l == null) return null;
        String[] a = new String[l.size()];
        for (int n = 0; n < a.length; n++) a[n] = l.get(n) == null ? null : l.get(n).toString().intern();
        return a;
    }

    /** Two-dimensional arrays: a list of rows (a null row stays null). */
    public static int[][] iss(int k) {
        java.util.List<?> l = list(k);
        if (l == null) return null;
        int[][] a = new int[l.size()][];
        for (int n = 0; n < a.length; n++) a[n] = intsOf((java.util.List<?>) l.get(n));
        return a;
    }
    public static long[][] jss(int k) {
        java.util.List<?> l = list(k);
        if (l == null) return null;
        long[][] a = new long[l.size()][];
        for (int n = 0; n < a.length; n++) a[n] = longsOf((java.util.List<?>) l.get(n));
        return a;
    }
    public static double[][] dss(int k) {
        java.util.List<?> l = list(k);
        if (l == null) return null;
        double[][] a = new double[l.size()][];
        for (int n = 0; n < a.length; n++) a[n] = doublesOf((java.util.List<?>) l.get(n));
        return a;
    }
    public static boolean[][] zss(int k) {
        java.util.List<?> l = list(k);
        if (l == null) return null;
        boolean[][] a = new boolean[l.size()][];
        for (int n = 0; n < a.length; n++) a[n] = booleansOf((java.util.List<?>) l.get(n));
        return a;
    }
    public static char[][] css(int k) {
        java.util.List<?> l = list(k);
        if (l == null) return null;
        char[][] a = new char[l.size()][];
        for (int n = 0; n < a.length; n++) a[n] = charsOf((java.util.List<?>) l.get(n));
        return a;
    }

    /** Called by the harness with the call's result (boxed). */
    public static void observe(Object v) {
        observed = v;
        returned = true;
    }

    /** Forgets the last run's result. */
    static void clearObserved() {
        observed = null;
        returned = false;
    }

    /**
     * The last run's result as JSON can carry it (integers, booleans, characters as their code,
     * floating values as strings, strings up to 10,000 characters, null), or this very class when
     * it cannot.
     */
    static Object observedForJson() {
        if (!returned) return Inputs.class;
        Object v = observed;
        if (v == null || v instanceof Boolean || v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return v instanceof Number ? (Object) ((Number) v).longValue() : v;
        }
        if (v instanceof Character) return (long) (Character) v;
        // Floating values as Java spells them, which the parent reads back exactly.
        if (v instanceof Double) return Double.toString((Double) v);
        if (v instanceof Float) return Float.toString((Float) v);
        if (v instanceof String && ((String) v).length() <= 10_000 && whole((String) v)) return v;
        return Inputs.class;
    }

    /** Whether {@code s} has no lone surrogate (which the protocol's UTF-8 cannot carry). */
    static boolean whole(String s) {
        return s.codePoints().noneMatch(cp -> cp >= 0xD800 && cp <= 0xDFFF);
    }
}
