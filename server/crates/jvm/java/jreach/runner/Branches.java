package jreach.runner;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * How far a run came from its target line, for the search on the JVM (symcretic execution's
 * concrete phase): the branch distance at the conditional jumps that decide whether the target
 * can still be reached.
 *
 * <p>For each method holding the target line, {@link Plan} reads its instructions and control
 * flow (exception handlers included) and finds the <em>critical</em> jumps: those where one way
 * can still reach the target and the other cannot. {@link Adder} puts a call before each: with
 * the jump's operands it records how far they were from going the good way (0 when they went it).
 * A run's fitness ({@link #fitness}) is its divergence closest to the target: the fewest
 * instructions from the jump to the target first, then the smallest normalised distance.
 *
 * <p>A call of the class's own method on the way (a <em>site</em>) gives no gradient of its own
 * when it throws ({@code parseInt(s, 4, 6)} on a non-digit) or when a jump tests its boolean
 * result ({@code if (checkOffset(s, i, ':'))}); so the callee's jumps that decide whether it
 * returns, returns true or returns false get distance calls too, which count, while the site's
 * call runs, as a divergence just before the site. A
 * {@code lcmp}/{@code dcmpl}/... before a jump is replaced by a call that computes the same
 * result and keeps the operands' difference, so the distance is that difference and not -1/0/1.
 *
 * <p>Like {@link Probe}, user code sees this very class; it is read and cleared between runs.
 */
public final class Branches {
    private Branches() {}

    /** Per critical jump (by id): instructions from it to the target, the way that reaches it. */
    private static final List<int[]> JUMPS = new ArrayList<>();
    /** Per jump id: the smallest distance seen when it went the bad way (NaN: never). */
    private static double[] seen = new double[0];
    /** Per jump id: whether it went the good way in the last run. */
    private static boolean[] passed = new boolean[0];
    private static double lastDiff;
    /** String and number constants of the classes instrumented for the target. */
    static final Set<Object> CONSTANTS = new LinkedHashSet<>();
    /**
     * Characters the code of those classes pushes as small constants ({@code c == '"'} compiles
     * to {@code bipush 34}): printable ASCII, tab and line breaks. Strings a search builds are made
     * of them, as a fuzzer's dictionary is.
     */
    static final Set<Character> CHARS = new LinkedHashSet<>();

    /**
     * Per site (a call of the class's own method on the way to the target, see {@link
     * Plan#sites}): {level, what the call must do}; what the runs saw inside its callee; the
     * site whose call is running (-1: none).
     */
    private static final List<int[]> SITES = new ArrayList<>();
    private static double[] seenSite = new double[0];
    /** Per site: whether its call returned in the last run. */
    private static boolean[] passedSite = new boolean[0];
    /** (Plain: written and read by the thread running the harness, and read after it ends.) */
    private static int currentSite = -1;
    /** Per callee jump: {@link Plan#asCallee}'s entry. Their ids are offset by {@link #CALLEE}. */
    private static final List<int[]> CALLEE_JUMPS = new ArrayList<>();
    private static final int CALLEE = 1 << 24;

    static synchronized int registerSite(int level, int way) {
        SITES.add(new int[] {level, way});
        seenSite = Arrays.copyOf(seenSite, SITES.size());
        seenSite[SITES.size() - 1] = Double.NaN;
        passedSite = Arrays.copyOf(passedSite, SITES.size());
        return SITES.size() - 1;
    }

    static synchronized int registerCallee(int[] ways) {
        CALLEE_JUMPS.add(ways);
        return CALLEE + CALLEE_JUMPS.size() - 1;
    }

    /** Called by instrumented code before and after the call of a site. */
    public static void enterSite(int site) { currentSite = site; }
    public static void leaveSite(int site) {
        currentSite = -1;
        if (site < passedSite.length) passedSite[site] = true;
    }

    static synchronized int register(int level, boolean goodTaken) {
        JUMPS.add(new int[] {level, goodTaken ? 1 : 0});
        seen = Arrays.copyOf(seen, JUMPS.size());
        seen[JUMPS.size() - 1] = Double.NaN;
        passed = Arrays.copyOf(passed, JUMPS.size());
        return JUMPS.size() - 1;
    }

    /**
     * Per critical switch's id: {whether its default reaches the target, how many keys do, those
     * keys, then the keys whose case does not}.
     */
    private static final Map<Integer, int[]> SWITCHES = new HashMap<>();

    static synchronized int registerSwitch(int[] plan) {
        int id = register(plan[0], true);
        SWITCHES.put(id, Arrays.copyOfRange(plan, 1, plan.length));
        return id;
    }

    /**
     * Called before a critical switch on {@code v}: 0 when a way toward the target is taken (a
     * case that reaches it, or the default when it does and {@code v} is no other case's key),
     * else how far {@code v} is from the nearest key whose case reaches it (at most 1 when the
     * default does).
     */
    public static void switchOn(int v, int id) {
        int[] plan;
        synchronized (Branches.class) { plan = SWITCHES.get(id); }
        if (plan == null) return;
        boolean defaultGood = plan[0] == 1;
        int good = plan[1];
        double d = Double.POSITIVE_INFINITY;
        for (int k = 2; k < 2 + good; k++) d = Math.min(d, Math.abs((double) v - (double) plan[k]));
        if (d > 0 && defaultGood) {
            boolean otherCase = false;
            for (int k = 2 + good; k < plan.length; k++) otherCase |= plan[k] == v;
            d = otherCase ? Math.min(d, 1) : 0;
        }
        record(id, d, 0);
    }

    /** Forgets what the last run saw (the plan of the jumps stays). */
    static synchronized void reset() {
        Arrays.fill(seen, Double.NaN);
        Arrays.fill(passed, false);
        Arrays.fill(seenSite, Double.NaN);
        Arrays.fill(passedSite, false);
        currentSite = -1;
    }

    /**
     * The last run's fitness as {level, distance in [0, 1)}, or null when the run came to no
     * critical jump.
     */
    static synchronized double[] fitness() {
        double[] best = null;
        for (int id = 0; id < seen.length; id++) {
            double d = seen[id];
            if (Double.isNaN(d)) continue;
            best = closer(best, JUMPS.get(id)[0], d);
        }
        // A site whose callee went a bad way counts just before the site's own level: inside
        // the callee is the gradient a boolean result (or a thrown exception) lacks. A run whose
        // call of a site that must return did return is past it: no farther than the site, and
        // closer than a run whose call threw there (before the sites, a run that threw at once
        // ranked with one that went on without a divergence, and below any divergence).
        for (int id = 0; id < seenSite.length; id++) {
            boolean passed = passedSite[id] && SITES.get(id)[1] == RETURNS;
            double d = passed ? 0 : seenSite[id];
            if (Double.isNaN(d)) continue;
            best = closer(best, SITES.get(id)[0] - 0.5, d);
        }
        // A run that went no critical jump the bad way but some the good way, and then threw
        // on the way (a call of another class with arguments it rejects), is past the closest
        // of those: closer than a run that went it the bad way. Without this it ranked below any
        // divergence, and the search went back to the bad way of the last jump it passed. (A run
        // that diverged somewhere keeps that divergence: which jump is closer is a static
        // measure, and a jump passed before a divergence is no progress beyond it.)
        if (best != null) return best;
        for (int id = 0; id < passed.length; id++) {
            if (passed[id]) best = closer(best, JUMPS.get(id)[0] - 0.5, 0);
        }
        return best;
    }

    /** {@code best}, or {level, distance d normalised} if that is closer to the target. */
    private static double[] closer(double[] best, double level, double d) {
        double norm = Double.isInfinite(d) ? 1.0 - 1e-9 : d / (d + 1.0);
        boolean nearer = best == null || level < best[0] || (level == best[0] && norm < best[1]);
        return nearer ? new double[] {level, norm} : best;
    }

    private static void record(int id, double toTaken, double toNotTaken) {
        if (id >= CALLEE) {
            // A callee's jump, hot code called from everywhere: no lock (the sites and callee
            // jumps are registered before the runs, and the run's thread alone writes here).
            int site = currentSite;
            if (site < 0 || site >= seenSite.length || id - CALLEE >= CALLEE_JUMPS.size()) return;
            int good = CALLEE_JUMPS.get(id - CALLEE)[SITES.get(site)[1]];
            if (good == 0) return;
            double d = good == 2 ? toTaken : toNotTaken;
            if (d > 0 && (Double.isNaN(seenSite[site]) || d < seenSite[site])) seenSite[site] = d;
            return;
        }
        recordJump(id, toTaken, toNotTaken);
    }

    private static synchronized void recordJump(int id, double toTaken, double toNotTaken) {
        if (id >= JUMPS.size()) return;
        double d = JUMPS.get(id)[1] == 1 ? toTaken : toNotTaken;
        if (d > 0 && (Double.isNaN(seen[id]) || d < seen[id])) seen[id] = d;
        if (d == 0) passed[id] = true;
    }

    /** Distances of {@code v OP 0} to being taken and to not being taken. */
    private static void zeroDistances(double v, int op, int id) {
        double t, n;
        if (Double.isNaN(v)) { record(id, 1, 1); return; }
        switch (op) {
            case Opcodes.IFEQ: t = Math.abs(v); n = v == 0 ? 1 : 0; break;
            case Opcodes.IFNE: t = v == 0 ? 1 : 0; n = Math.abs(v); break;
            case Opcodes.IFLT: t = v < 0 ? 0 : v + 1; n = v < 0 ? -v : 0; break;
            case Opcodes.IFGE: t = v >= 0 ? 0 : -v; n = v >= 0 ? v + 1 : 0; break;
            case Opcodes.IFGT: t = v > 0 ? 0 : 1 - v; n = v > 0 ? v : 0; break;
            case Opcodes.IFLE: t = v <= 0 ? 0 : v; n = v <= 0 ? 1 - v : 0; break;
            default: return;
        }
        record(id, t, n);
    }

    // Called by instrumented code.
    public static void zero(int v, int op, int id) { zeroDistances(v, op, id); }
    public static void zeroAfterCmp(int v, int op, int id) { zeroDistances(v == 0 ? 0 : lastDiff, op, id); }
    public static void icmp(int a, int b, int op, int id) { zeroDistances((double) a - (double) b, op - (Opcodes.IF_ICMPEQ - Opcodes.IFEQ), id); }
    public static void refs(Object a, Object b, int op, int id) {
        boolean same = a == b;
        boolean taken = op == Opcodes.IF_ACMPEQ ? same : !same;
        record(id, taken ? 0 : 1, taken ? 1 : 0);
    }
    public static void nullness(Object a, int op, int id) {
        boolean taken = op == Opcodes.IFNULL ? a == null : a != null;
        record(id, taken ? 0 : 1, taken ? 1 : 0);
    }
    public static int lcmp(long a, long b) { lastDiff = (double) a - (double) b; return Long.compare(a, b); }
    public static int dcmpl(double a, double b) { lastDiff = a - b; return Double.isNaN(lastDiff) ? -1 : a < b ? -1 : a == b ? 0 : 1; }
    public static int dcmpg(double a, double b) { lastDiff = a - b; return Double.isNaN(lastDiff) ? 1 : a < b ? -1 : a == b ? 0 : 1; }
    public static int fcmpl(float a, float b) { return dcmpl(a, b); }
    public static int fcmpg(float a, float b) { return dcmpg(a, b); }

    /**
     * The control flow of one method, read in a first pass: for each instruction (in the order
     * the class reader visits them) its successors and line, and from that the critical jumps
     * and their distance to the target line. Empty when the method does not hold the line.
     */
    static final class Plan extends MethodVisitor {
        /** The internal name of the method's class: calls to its own methods may be sites. */
        private final String self;
        private final int targetLine;
        /** The methods (name + descriptor) of the class whose calls stand for the target, if any. */
        private final Set<String> targetCalls;
        /** How many calls this method is from the target line (0: it holds the line; -1: none). */
        private final int depth;
        /** The opcode of each instruction (-1 for those that have none of their own). */
        private final List<Integer> ops = new ArrayList<>();
        /** The calls of methods of the class (name + descriptor), by instruction index. */
        private final Map<Integer, String> selfCalls = new HashMap<>();
        /** The instructions that call one of {@link #targetCalls}. */
        private final Set<Integer> callsAt = new java.util.HashSet<>();
        private int count;
        /** The successors of each instruction, kept until {@link #asCallee} is worked out. */
        private List<List<Integer>> flow;
        private final Map<Label, Integer> labelAt = new HashMap<>();
        private final List<Object[]> jumps = new ArrayList<>(); // {index, Label[] targets, conditional?}
        private final List<Integer> ends = new ArrayList<>();   // returns and throws
        private final List<Object[]> lines = new ArrayList<>(); // {Label, line}
        private final List<Label[]> handlers = new ArrayList<>(); // {start, end, handler}
        private final List<Object[]> switches = new ArrayList<>(); // {index, int[] keys, Label[] labels, Label default}
        /** Per critical jump's instruction index: {level, goodTaken}. */
        final Map<Integer, int[]> critical = new HashMap<>();
        /**
         * Per critical switch's instruction index: {level, whether its default reaches the
         * target, how many keys do, those keys, then the keys whose case does not}.
         */
        final Map<Integer, int[]> criticalSwitches = new HashMap<>();
        /**
         * Per call of a method of the class on the way to the target (by instruction index):
         * {level, what the call must do: {@link #RETURNS}, {@link #RETURNS_TRUE} or {@link
         * #RETURNS_FALSE}}, and the method it calls ({@link #siteCallee}).
         */
        final Map<Integer, int[]> sites = new HashMap<>();
        final Map<Integer, String> siteCallee = new HashMap<>();
        /**
         * This method as a callee: per conditional jump (by instruction index) and per way of
         * ending (the three above), 0 when the jump does not decide it, 1 when its good way is to
         * fall through, 2 when it is to jump.
         */
        final Map<Integer, int[]> asCallee = new HashMap<>();

        /**
         * For a method {@code depth} calls from the target line: its target is a call of one of
         * {@code targetCalls} (methods of its class one call closer), or the line itself at depth 0.
         */
        Plan(String self, int targetLine, Set<String> targetCalls, int depth) {
            super(Opcodes.ASM9);
            this.self = self;
            this.targetLine = targetLine;
            this.targetCalls = targetCalls;
            this.depth = depth;
        }

        private void insn() { insn(-1); }
        private void insn(int op) { ops.add(op); count++; }

        /** Whether this method, as a callee, has a jump that decides how it ends {@code way}. */
        boolean decides(int way) {
            // (Worked out only for the methods a site calls: the searches of every other
            // method's jumps would cost each class load of the target's file.)
            if (flow != null) {
                calleeWays(count, flow);
                flow = null;
            }
            for (int[] w : asCallee.values()) if (w[way] != 0) return true;
            return false;
        }

        @Override public void visitLabel(Label l) { labelAt.put(l, count); }
        @Override public void visitLineNumber(int line, Label start) { lines.add(new Object[] {start, line}); }
        @Override public void visitTryCatchBlock(Label s, Label e, Label h, String t) { handlers.add(new Label[] {s, e, h}); }
        @Override public void visitInsn(int op) {
            if ((op >= Opcodes.IRETURN && op <= Opcodes.RETURN) || op == Opcodes.ATHROW) ends.add(count);
            insn(op);
        }
        @Override public void visitIntInsn(int op, int operand) { insn(); }
        @Override public void visitVarInsn(int op, int v) { if (op == Opcodes.RET) ends.add(count); insn(); }
        @Override public void visitTypeInsn(int op, String t) { insn(); }
        @Override public void visitFieldInsn(int op, String o, String n, String d) { insn(); }
        @Override public void visitMethodInsn(int op, String o, String n, String d, boolean i) {
            if (targetCalls.contains(n + d)) callsAt.add(count);
            else if (o.equals(self)) selfCalls.put(count, n + d);
            insn();
        }
        @Override public void visitInvokeDynamicInsn(String n, String d, org.objectweb.asm.Handle h, Object... a) { insn(); }
        @Override public void visitJumpInsn(int op, Label l) {
            jumps.add(new Object[] {count, new Label[] {l}, op != Opcodes.GOTO && op != Opcodes.JSR, op});
            insn(op);
        }
        @Override public void visitLdcInsn(Object v) { insn(); }
        @Override public void visitIincInsn(int v, int inc) { insn(); }
        @Override public void visitTableSwitchInsn(int lo, int hi, Label d, Label... ls) {
            int[] keys = new int[ls.length];
            for (int i = 0; i < ls.length; i++) keys[i] = lo + i;
            switches.add(new Object[] {count, keys, ls, d});
            switchInsn(d, ls);
        }
        @Override public void visitLookupSwitchInsn(Label d, int[] k, Label[] ls) {
            switches.add(new Object[] {count, k, ls, d});
            switchInsn(d, ls);
        }
        @Override public void visitMultiANewArrayInsn(String d, int n) { insn(); }

        private void switchInsn(Label d, Label[] ls) {
            Label[] all = Arrays.copyOf(ls, ls.length + 1);
            all[ls.length] = d;
            jumps.add(new Object[] {count, all, null, -1});
            insn();
        }

        @Override
        public void visitEnd() {
            int n = count;
            if (n == 0) return;
            // The line of each instruction.
            int[] lineOf = new int[n];
            Arrays.fill(lineOf, -1);
            List<int[]> starts = new ArrayList<>();
            for (Object[] l : lines) {
                Integer at = labelAt.get((Label) l[0]);
                if (at != null) starts.add(new int[] {at, (Integer) l[1]});
            }
            starts.sort((a, b) -> Integer.compare(a[0], b[0]));
            for (int k = 0; k < starts.size(); k++) {
                int from = starts.get(k)[0], to = k + 1 < starts.size() ? starts.get(k + 1)[0] : n;
                for (int i = from; i < to && i < n; i++) lineOf[i] = starts.get(k)[1];
            }
            // Successors.
            List<List<Integer>> succ = new ArrayList<>();
            for (int i = 0; i < n; i++) succ.add(new ArrayList<>());
            boolean[] noFall = new boolean[n];
            for (int e : ends) if (e < n) noFall[e] = true;
            for (Object[] j : jumps) {
                int at = (Integer) j[0];
                for (Label l : (Label[]) j[1]) {
                    Integer t = labelAt.get(l);
                    if (t != null && t < n) succ.get(at).add(t);
                }
                if (!Boolean.TRUE.equals(j[2])) noFall[at] = true;
            }
            for (int i = 0; i + 1 < n; i++) if (!noFall[i]) succ.get(i).add(i + 1);
            for (Label[] h : handlers) {
                Integer s = labelAt.get(h[0]), e = labelAt.get(h[1]), t = labelAt.get(h[2]);
                if (s == null || e == null || t == null || t >= n) continue;
                for (int i = s; i < e && i < n; i++) succ.get(i).add(t);
            }
            flow = succ;
            if (depth < 0) return;
            // The target: the line, or (in a method calling toward it) the calls toward it.
            boolean[] target = new boolean[n];
            boolean any = false;
            for (int i = 0; i < n; i++) {
                target[i] = depth == 0 ? lineOf[i] == targetLine : callsAt.contains(i);
                any |= target[i];
            }
            if (!any) return;
            // A jump is critical when one way reaches the target without coming back through the
            // jump and the other does not (in a loop, both ways come back to it); its level is how
            // many instructions the good way takes to the target.
            for (Object[] j : jumps) {
                if (!Boolean.TRUE.equals(j[2])) continue;
                int at = (Integer) j[0];
                Integer taken = labelAt.get(((Label[]) j[1])[0]);
                if (taken == null || at + 1 >= n || target[at]) continue;
                int viaTaken = toTarget(taken, at, succ, target), viaFall = toTarget(at + 1, at, succ, target);
                if ((viaTaken >= 0) != (viaFall >= 0)) {
                    int level = Math.max(viaTaken, viaFall) + 1 + depth * CALL_LEVEL;
                    critical.put(at, new int[] {level, viaTaken >= 0 ? 1 : 0});
                }
            }
            // A switch is critical when some of its ways reach the target and some do not (the
            // character after a backslash: only `u` goes on to the hex digits).
            for (Object[] sw : switches) {
                int at = (Integer) sw[0];
                if (target[at]) continue;
                int[] keys = (int[]) sw[1];
                Label[] labels = (Label[]) sw[2];
                Integer dflt = labelAt.get((Label) sw[3]);
                int viaDefault = dflt == null ? -1 : toTarget(dflt, at, succ, target);
                List<Integer> good = new ArrayList<>(), bad = new ArrayList<>();
                int best = viaDefault;
                for (int k = 0; k < keys.length; k++) {
                    Integer to = labelAt.get(labels[k]);
                    int via = to == null ? -1 : toTarget(to, at, succ, target);
                    if (via < 0) {
                        bad.add(keys[k]);
                        continue;
                    }
                    good.add(keys[k]);
                    if (best < 0 || via < best) best = via;
                }
                if (best < 0 || (bad.isEmpty() && viaDefault >= 0)) continue;
                int[] plan = new int[3 + good.size() + bad.size()];
                plan[0] = best + 1 + depth * CALL_LEVEL;
                plan[1] = viaDefault >= 0 ? 1 : 0;
                plan[2] = good.size();
                for (int k = 0; k < good.size(); k++) plan[3 + k] = good.get(k);
                for (int k = 0; k < bad.size(); k++) plan[3 + good.size() + k] = bad.get(k);
                criticalSwitches.put(at, plan);
            }
            // (In the method holding the line only: a site's calls cost every run some time, and
            // the callers' divergences are far from the line anyway.)
            if (depth == 0) sites(n, succ, target);
        }

        /** {@link #asCallee}: the jumps that decide whether this method returns, returns true, returns false. */
        private void calleeWays(int n, List<List<Integer>> succ) {
            boolean[][] ways = new boolean[3][n];
            for (int i = 0; i < n; i++) {
                int op = ops.get(i);
                if (op >= Opcodes.IRETURN && op <= Opcodes.RETURN) ways[RETURNS][i] = true;
                if (op != Opcodes.ICONST_0 && op != Opcodes.ICONST_1) continue;
                // `return a < b` pushes a constant on each way and jumps to one `ireturn`.
                int j = i + 1;
                for (int hops = 0; j < n && ops.get(j) == Opcodes.GOTO && hops < 4; hops++) {
                    j = succ.get(j).isEmpty() ? n : succ.get(j).get(0);
                }
                if (j < n && ops.get(j) == Opcodes.IRETURN) ways[op == Opcodes.ICONST_1 ? RETURNS_TRUE : RETURNS_FALSE][i] = true;
            }
            for (Object[] j : jumps) {
                if (!Boolean.TRUE.equals(j[2])) continue;
                int at = (Integer) j[0];
                Integer taken = labelAt.get(((Label[]) j[1])[0]);
                if (taken == null || at + 1 >= n) continue;
                int[] decides = new int[3];
                boolean any = false;
                for (int w = 0; w < 3; w++) {
                    // Deciding: one way ends so and the other never can, not even by coming back
                    // to the jump (a loop's condition is no decision: the loop ends by itself).
                    boolean viaTaken = toTarget(taken, at, succ, ways[w]) >= 0, viaFall = toTarget(at + 1, at, succ, ways[w]) >= 0;
                    if (viaTaken == viaFall) continue;
                    if (toTarget(viaTaken ? at + 1 : taken, -1, succ, ways[w]) >= 0) continue;
                    decides[w] = viaTaken ? 2 : 1;
                    any = true;
                }
                if (any) asCallee.put(at, decides);
            }
        }

        /**
         * {@link #sites}: the calls of the class's own methods on the way to the target. One
         * whose boolean result a critical jump tests must return the value that goes the good
         * way (the jump's level); any other must return at all, not throw (the level of the
         * instruction after it).
         */
        private void sites(int n, List<List<Integer>> succ, boolean[] target) {
            for (Map.Entry<Integer, String> call : selfCalls.entrySet()) {
                int at = call.getKey();
                if (target[at] || at + 1 >= n) continue;
                int[] flag = critical.get(at + 1);
                int next = ops.get(at + 1);
                if (flag != null && (next == Opcodes.IFEQ || next == Opcodes.IFNE) && call.getValue().endsWith(")Z")) {
                    boolean wantTrue = (next == Opcodes.IFNE) == (flag[1] == 1);
                    sites.put(at, new int[] {flag[0], wantTrue ? RETURNS_TRUE : RETURNS_FALSE});
                } else {
                    int via = toTarget(at + 1, at, succ, target);
                    if (via < 0) continue;
                    sites.put(at, new int[] {via + 2 + depth * CALL_LEVEL, RETURNS});
                }
                siteCallee.put(at, call.getValue());
            }
        }
    }

    /**
     * A divergence in a method one call further from the target line counts as this many
     * instructions more: any jump inside a method closer to the line is nearer than every jump
     * of its callers.
     */
    static final int CALL_LEVEL = 1_000_000;

    /** What a call of the class's own method on the way to the target must do: return, */
    static final int RETURNS = 0;
    /** return true, */
    static final int RETURNS_TRUE = 1;
    /** or return false. */
    static final int RETURNS_FALSE = 2;

    /**
     * Keeps the sites ({@link Plan#sites}) whose callee, a method of {@code plans} (all of the
     * class's), has a jump that decides what the site needs of it: only those get calls.
     */
    static void keepSites(Map<String, Plan> plans) {
        Set<String> called = new java.util.HashSet<>();
        for (Plan p : plans.values()) {
            p.sites.entrySet().removeIf(e -> {
                Plan callee = plans.get(p.siteCallee.get(e.getKey()));
                return callee == null || !callee.decides(e.getValue()[1]);
            });
            for (Integer at : p.sites.keySet()) called.add(p.siteCallee.get(at));
        }
        // Only a kept site's callee gets distance calls as a callee (they cost every run time).
        for (Map.Entry<String, Plan> e : plans.entrySet()) {
            if (!called.contains(e.getKey())) e.getValue().asCallee.clear();
        }
    }

    /** How many calls away from the target line a method may be and still get distance calls. */
    static final int MAX_CALL_DEPTH = 3;

    /**
     * For each method of a class (name + descriptor) that holds the target line or calls toward
     * it through methods of the class, at most {@link #MAX_CALL_DEPTH} calls: its depth (0: it
     * holds the line) and the methods one call closer, whose calls are its targets ({@link Plan}).
     * A private method's line is so reached through the public method calling it.
     */
    static Map<String, Object[]> callPlans(org.objectweb.asm.ClassReader reader, int targetLine) {
        String self = reader.getClassName();
        Map<String, Set<String>> calls = new HashMap<>();
        Set<String> holding = new java.util.HashSet<>();
        reader.accept(new org.objectweb.asm.ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] exc) {
                String key = name + desc;
                Set<String> out = new java.util.HashSet<>();
                calls.put(key, out);
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override public void visitLineNumber(int line, Label start) { if (line == targetLine) holding.add(key); }
                    @Override
                    public void visitMethodInsn(int op, String owner, String n, String d, boolean itf) {
                        if (owner.equals(self)) out.add(n + d);
                    }
                };
            }
        }, org.objectweb.asm.ClassReader.SKIP_FRAMES);
        Map<String, Object[]> plans = new HashMap<>();
        Set<String> level = new java.util.HashSet<>(holding);
        for (String m : holding) plans.put(m, new Object[] {0, Set.<String>of()});
        for (int depth = 1; depth <= MAX_CALL_DEPTH && !level.isEmpty(); depth++) {
            Set<String> next = new java.util.HashSet<>();
            for (Map.Entry<String, Set<String>> e : calls.entrySet()) {
                if (plans.containsKey(e.getKey())) continue;
                Set<String> toward = new java.util.HashSet<>(e.getValue());
                toward.retainAll(level);
                if (toward.isEmpty()) continue;
                plans.put(e.getKey(), new Object[] {depth, toward});
                next.add(e.getKey());
            }
            level = next;
        }
        return plans;
    }

    /** Instructions from {@code from} to the first target instruction, never passing {@code avoid}; -1: none. */
    private static int toTarget(int from, int avoid, List<List<Integer>> succ, boolean[] target) {
        int n = target.length;
        int[] dist = new int[n];
        Arrays.fill(dist, -1);
        ArrayDeque<Integer> work = new ArrayDeque<>();
        dist[from] = 0;
        work.add(from);
        while (!work.isEmpty()) {
            int i = work.poll();
            if (target[i]) return dist[i];
            for (int s : succ.get(i)) {
                if (s != avoid && dist[s] < 0) {
                    dist[s] = dist[i] + 1;
                    work.add(s);
                }
            }
        }
        return -1;
    }

    /**
     * Puts the distance calls before the critical jumps a {@link Plan} found (the same
     * instruction count), and replaces the long and floating comparisons in the method.
     */
    static final class Adder extends MethodVisitor {
        private final Map<Integer, int[]> critical;
        private final Map<Integer, int[]> criticalSwitches;
        private final Map<Integer, int[]> sites;
        private final Map<Integer, int[]> asCallee;
        private int count;
        private boolean afterCmp;

        Adder(MethodVisitor mv, Plan plan) {
            super(Opcodes.ASM9, mv);
            this.critical = plan.critical;
            this.criticalSwitches = plan.criticalSwitches;
            this.sites = plan.sites;
            this.asCallee = plan.asCallee;
        }

        /** Before a critical switch: the distance call on a copy of the value switched on. */
        private void beforeSwitch() {
            int[] plan = criticalSwitches.get(count);
            if (plan == null) return;
            int id = registerSwitch(plan);
            super.visitInsn(Opcodes.DUP);
            super.visitLdcInsn(id);
            super.visitMethodInsn(Opcodes.INVOKESTATIC, "jreach/runner/Branches", "switchOn", "(II)V", false);
        }

        private void insn() { count++; afterCmp = false; }

        @Override
        public void visitInsn(int op) {
            String cmp = null, desc = null;
            switch (op) {
                case Opcodes.LCMP: cmp = "lcmp"; desc = "(JJ)I"; break;
                case Opcodes.DCMPL: cmp = "dcmpl"; desc = "(DD)I"; break;
                case Opcodes.DCMPG: cmp = "dcmpg"; desc = "(DD)I"; break;
                case Opcodes.FCMPL: cmp = "fcmpl"; desc = "(FF)I"; break;
                case Opcodes.FCMPG: cmp = "fcmpg"; desc = "(FF)I"; break;
                default: break;
            }
            if (cmp != null) {
                super.visitMethodInsn(Opcodes.INVOKESTATIC, "jreach/runner/Branches", cmp, desc, false);
                count++;
                afterCmp = true;
                return;
            }
            super.visitInsn(op);
            insn();
        }

        @Override
        public void visitJumpInsn(int op, Label l) {
            int[] c = critical.get(count);
            if (c != null) distanceCall(op, register(c[0], c[1] == 1));
            int[] ways = asCallee.get(count);
            if (ways != null) distanceCall(op, registerCallee(ways));
            super.visitJumpInsn(op, l);
            insn();
        }

        /** Before a jump: the call that records its distances under {@code id}. */
        private void distanceCall(int op, int id) {
            if (op >= Opcodes.IFEQ && op <= Opcodes.IFLE) {
                super.visitInsn(Opcodes.DUP);
                probe(op, id, afterCmp ? "zeroAfterCmp" : "zero", "(III)V");
            } else if (op >= Opcodes.IF_ICMPEQ && op <= Opcodes.IF_ICMPLE) {
                super.visitInsn(Opcodes.DUP2);
                probe(op, id, "icmp", "(IIII)V");
            } else if (op == Opcodes.IF_ACMPEQ || op == Opcodes.IF_ACMPNE) {
                super.visitInsn(Opcodes.DUP2);
                probe(op, id, "refs", "(Ljava/lang/Object;Ljava/lang/Object;II)V");
            } else if (op == Opcodes.IFNULL || op == Opcodes.IFNONNULL) {
                super.visitInsn(Opcodes.DUP);
                probe(op, id, "nullness", "(Ljava/lang/Object;II)V");
            }
        }

        private void probe(int op, int id, String name, String desc) {
            super.visitLdcInsn(op);
            super.visitLdcInsn(id);
            super.visitMethodInsn(Opcodes.INVOKESTATIC, "jreach/runner/Branches", name, desc, false);
        }

        @Override public void visitIntInsn(int op, int operand) {
            if (op == Opcodes.BIPUSH || op == Opcodes.SIPUSH) smallConstant(operand);
            super.visitIntInsn(op, operand);
            insn();
        }
        @Override public void visitVarInsn(int op, int v) { super.visitVarInsn(op, v); insn(); }
        @Override public void visitTypeInsn(int op, String t) { super.visitTypeInsn(op, t); insn(); }
        @Override public void visitFieldInsn(int op, String o, String n, String d) { super.visitFieldInsn(op, o, n, d); insn(); }
        @Override public void visitMethodInsn(int op, String o, String n, String d, boolean i) {
            int[] site = sites.get(count);
            int siteId = site == null ? -1 : registerSite(site[0], site[1]);
            if (site != null) {
                super.visitLdcInsn(siteId);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, "jreach/runner/Branches", "enterSite", "(I)V", false);
            }
            super.visitMethodInsn(op, o, n, d, i);
            if (site != null) {
                super.visitLdcInsn(siteId);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, "jreach/runner/Branches", "leaveSite", "(I)V", false);
            }
            insn();
        }
        @Override public void visitInvokeDynamicInsn(String n, String d, org.objectweb.asm.Handle h, Object... a) { super.visitInvokeDynamicInsn(n, d, h, a); insn(); }
        @Override public void visitLdcInsn(Object v) {
            constant(v);
            super.visitLdcInsn(v);
            insn();
        }
        @Override public void visitIincInsn(int v, int inc) { super.visitIincInsn(v, inc); insn(); }
        @Override public void visitTableSwitchInsn(int lo, int hi, Label d, Label... ls) { beforeSwitch(); super.visitTableSwitchInsn(lo, hi, d, ls); insn(); }
        @Override public void visitLookupSwitchInsn(Label d, int[] k, Label[] ls) { beforeSwitch(); super.visitLookupSwitchInsn(d, k, ls); insn(); }
        @Override public void visitMultiANewArrayInsn(String d, int n) { super.visitMultiANewArrayInsn(d, n); insn(); }
    }

    /** Keeps {@code v} as a seed if it is a string the protocol can carry or an integer. */
    static void constant(Object v) {
        boolean keep = v instanceof Integer || v instanceof Long || (v instanceof String && Inputs.whole((String) v));
        if (!keep) return;
        synchronized (Branches.class) {
            if (CONSTANTS.size() < 200) CONSTANTS.add(v);
        }
    }

    /** Keeps {@code v}, the operand of a {@code bipush} or {@code sipush}, as a character if it is one text holds. */
    static void smallConstant(int v) {
        boolean text = (v >= 32 && v < 127) || v == '\t' || v == '\n' || v == '\r';
        if (!text) return;
        synchronized (Branches.class) {
            if (CHARS.size() < 96) CHARS.add((char) v);
        }
    }

    /** Adds the string, number and character constants {@code classFile}'s code loads. */
    static void scanConstants(byte[] classFile) {
        new org.objectweb.asm.ClassReader(classFile).accept(new org.objectweb.asm.ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] exc) {
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitLdcInsn(Object v) {
                        constant(v);
                    }

                    @Override
                    public void visitIntInsn(int op, int operand) {
                        if (op == Opcodes.BIPUSH || op == Opcodes.SIPUSH) smallConstant(operand);
                    }
                };
            }
        }, org.objectweb.asm.ClassReader.SKIP_DEBUG | org.objectweb.asm.ClassReader.SKIP_FRAMES);
    }

    /** Forgets every plan and constant (a new search). */
    static synchronized void clear() {
        JUMPS.clear();
        SITES.clear();
        CALLEE_JUMPS.clear();
        seenSite = new double[0];
        passedSite = new boolean[0];
        currentSite = -1;
        SWITCHES.clear();
        seen = new double[0];
        CONSTANTS.clear();
        CHARS.clear();
    }
}
