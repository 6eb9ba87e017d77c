package jreach.runner;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Puts a probe at the start of every line of a class: a call {@code Probe.hit(id, line)} before
 * the first instruction of each line-number entry. Unlike JaCoCo's probes (at the end of a block),
 * a line counts as run when it starts, so a line whose call throws is seen too. A second kind,
 * {@code Probe.done(id, line)} for each line with code since the last such place, goes where
 * JaCoCo's probes go: before each jump, return and throw, in each case of a switch (for the code
 * before the switch, at the case's first such place: see {@code beforeSwitch}), and before a label the code
 * falls through to when control also reaches it from elsewhere or it starts a line with a call
 * (JaCoCo's rule). A line that only started (a call on it threw, or an exception came before the
 * next such place) is "hit" but not "done", and JaCoCo does not count it as covered. (A
 * conditional jump counts as such a place here; JaCoCo credits it only once a probe after it
 * runs, so a line ending in a condition whose next code throws at once is counted here and not
 * there: rare, and the one way the two differ.)
 *
 * <p>The probe goes before the first instruction after the entry, not at the entry's label: a
 * stack map frame for that label comes after the label, and code between them would break it. A
 * {@code NEW} keeps its place (frames may refer to it by its offset) and the probe follows it.
 */
final class Lines {
    private Lines() {}

    static byte[] instrument(byte[] classFile) {
        return instrument(classFile, null, -1);
    }

    /**
     * With a target ({@code targetSource}, "pkg/Foo.java", and its 1-based line; null for none):
     * the methods of the target's file also get {@link Branches}' distance calls toward the line.
     */
    static byte[] instrument(byte[] classFile, String targetSource, int targetLine) {
        return instrument(classFile, targetSource, targetLine, null);
    }

    /**
     * With {@code observeSource} ("pkg/Foo.java", null for none): the methods of that file also
     * report what their calls return ({@link Calls}).
     */
    static byte[] instrument(byte[] classFile, String targetSource, int targetLine, String observeSource) {
        ClassReader reader = new ClassReader(classFile);
        String internalName = reader.getClassName();
        int slash = internalName.lastIndexOf('/');
        String dir = slash < 0 ? "" : internalName.substring(0, slash + 1);
        Map<String, Branches.Plan> plans = new HashMap<>();
        // Per method, the labels where control may arrive from elsewhere or where a line with a
        // call starts: where JaCoCo puts a probe on code that falls through (see ProbeAdder).
        // Labels are named by their order among the method's labels: both passes read the same
        // code, and a label's offset is not known while it is read.
        Map<String, Set<Integer>> probed = new HashMap<>();
        reader.accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] exc) {
                Set<Integer> at = new HashSet<>();
                probed.put(name + desc, at);
                Map<Label, Integer> order = new HashMap<>();
                List<Label> marked = new ArrayList<>();
                return new MethodVisitor(Opcodes.ASM9) {
                    private Label lineStart;

                    @Override public void visitLabel(Label l) { order.put(l, order.size()); }
                    @Override public void visitLineNumber(int line, Label start) { lineStart = start; }
                    @Override public void visitJumpInsn(int op, Label l) { marked.add(l); }
                    @Override
                    public void visitTableSwitchInsn(int lo, int hi, Label d, Label... ls) {
                        marked.add(d);
                        marked.addAll(Arrays.asList(ls));
                    }
                    @Override
                    public void visitLookupSwitchInsn(Label d, int[] k, Label[] ls) {
                        marked.add(d);
                        marked.addAll(Arrays.asList(ls));
                    }
                    @Override
                    public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
                        marked.add(start);
                        marked.add(handler);
                    }
                    @Override
                    public void visitMethodInsn(int op, String o, String n, String d, boolean i) {
                        if (lineStart != null) marked.add(lineStart);
                    }
                    @Override
                    public void visitInvokeDynamicInsn(String n, String d, Handle h, Object... a) {
                        if (lineStart != null) marked.add(lineStart);
                    }
                    @Override
                    public void visitEnd() {
                        for (Label l : marked) {
                            Integer k = order.get(l);
                            if (k != null) at.add(k);
                        }
                    }
                };
            }
        }, 0);
        if (targetSource != null) {
            boolean[] ours = {false};
            // The methods holding the line, and those calling toward it (a private method's
            // callers): each gets distance calls toward its target.
            Map<String, Object[]> toward = Branches.callPlans(reader, targetLine);
            reader.accept(new ClassVisitor(Opcodes.ASM9) {
                @Override
                public void visitSource(String source, String debug) {
                    ours[0] = source != null && targetSource.equals(dir + source);
                }

                @Override
                @SuppressWarnings("unchecked")
                public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] exc) {
                    if (!ours[0]) return null;
                    // Every method of the class: those calling toward the line, and any as a callee.
                    Object[] at = toward.get(name + desc);
                    Branches.Plan plan = at == null
                            ? new Branches.Plan(internalName, targetLine, Set.of(), -1)
                            : new Branches.Plan(internalName, targetLine, (Set<String>) at[1], (Integer) at[0]);
                    plans.put(name + desc, plan);
                    return plan;
                }
            }, 0);
            Branches.keepSites(plans);
        }
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        int[] id = {-1};
        boolean[] observed = {false};
        ClassVisitor cv = new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public void visitSource(String source, String debug) {
                super.visitSource(source, debug);
                if (source != null) id[0] = Probe.register(dir + source);
                observed[0] = source != null && (dir + source).equals(observeSource);
            }

            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] exc) {
                MethodVisitor mv = super.visitMethod(access, name, desc, sig, exc);
                if (id[0] < 0 || (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) return mv;
                // The calls' results are read inside the probes, which then never see that code.
                if (observed[0]) mv = new Calls.Adder(mv);
                MethodVisitor adder = new ProbeAdder(mv, id[0], probed.getOrDefault(name + desc, Set.of()));
                Branches.Plan plan = plans.get(name + desc);
                return plan == null ? adder : new Branches.Adder(adder, plan);
            }
        };
        reader.accept(cv, 0);
        return id[0] < 0 ? classFile : writer.toByteArray();
    }

    private static final class ProbeAdder extends MethodVisitor {
        private final int id;
        private int pending = -1;
        /** The line the code being visited belongs to (-1 before the first line entry). */
        private int line = -1;
        /** Whether the last instruction cannot fall through (a goto, return, throw or switch). */
        private boolean ended = true;
        /** Labels visited so far. */
        private int labels;
        /** The labels (by order, see instrument) where JaCoCo probes code that falls through to them. */
        private final Set<Integer> probedLabels;
        /** The lines with code since the last probe point, in order. */
        private final java.util.LinkedHashSet<Integer> sequence = new java.util.LinkedHashSet<>();
        /**
         * Per target of a switch: the lines with code before the switch, not yet counted. JaCoCo
         * puts no probe before a switch, only on its edges to labels control also reaches from
         * elsewhere; code before it counts once a probe after it runs on the case taken. Here it
         * counts at the first probe point in each case (never on the edge: a case that throws at
         * once leaves it uncounted here, where JaCoCo may count it; the safe way to differ).
         */
        private final Map<Label, java.util.LinkedHashSet<Integer>> beforeSwitch = new HashMap<>();

        ProbeAdder(MethodVisitor mv, int id, Set<Integer> probedLabels) {
            super(Opcodes.ASM9, mv);
            this.id = id;
            this.probedLabels = probedLabels;
        }

        @Override
        public void visitLineNumber(int line, Label start) {
            super.visitLineNumber(line, start);
            pending = line;
            this.line = line;
        }

        /**
         * Before a label the code falls through to, where JaCoCo puts a probe (a label control
         * also reaches from elsewhere, or the start of a line with a call): the code before it
         * ran to here. Elsewhere JaCoCo counts fall-through code only once a later probe runs, so
         * neither does this (an exception before then leaves it uncounted). After a goto,
         * return or throw nothing may be added (it would be dead code without a stack map frame),
         * and a new sequence starts.
         */
        @Override
        public void visitLabel(Label label) {
            int nth = labels++;
            if (ended) {
                sequence.clear();
            } else if (probedLabels.contains(nth)) {
                done();
            }
            java.util.LinkedHashSet<Integer> carried = beforeSwitch.get(label);
            if (carried != null) sequence.addAll(carried);
            super.visitLabel(label);
        }

        /** Before a switch: what ran so far counts in the case taken (see {@link #beforeSwitch}). */
        private void switching(Label dflt, Label[] targets) {
            flush();
            if (line >= 0) sequence.add(line);
            for (Label l : targets) beforeSwitch.computeIfAbsent(l, k -> new java.util.LinkedHashSet<>()).addAll(sequence);
            beforeSwitch.computeIfAbsent(dflt, k -> new java.util.LinkedHashSet<>()).addAll(sequence);
            sequence.clear();
            ended = true;
        }

        /**
         * A probe point: every line with code since the last one (in this straight sequence) ran
         * that code to here, as JaCoCo credits the instructions before an executed probe.
         */
        private void done() {
            for (int l : sequence) {
                super.visitLdcInsn(id);
                super.visitLdcInsn(l);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, "jreach/runner/Probe", "done", "(II)V", false);
            }
            sequence.clear();
        }

        /** Before an instruction that leaves the straight code: a jump, switch, return or throw. */
        private void leaving(boolean fallsThrough) {
            flush();
            if (line >= 0) sequence.add(line);
            done();
            ended = !fallsThrough;
        }

        private void flush() {
            if (pending < 0) return;
            int line = pending;
            pending = -1;
            super.visitLdcInsn(id);
            super.visitLdcInsn(line);
            super.visitMethodInsn(Opcodes.INVOKESTATIC, "jreach/runner/Probe", "hit", "(II)V", false);
        }

        /** Before an instruction that falls through to the next. */
        private void plain() {
            flush();
            if (line >= 0) sequence.add(line);
            ended = false;
        }

        @Override
        public void visitInsn(int op) {
            boolean exits = (op >= Opcodes.IRETURN && op <= Opcodes.RETURN) || op == Opcodes.ATHROW;
            if (exits) leaving(false); else plain();
            super.visitInsn(op);
        }
        @Override public void visitIntInsn(int op, int operand) { plain(); super.visitIntInsn(op, operand); }
        @Override
        public void visitVarInsn(int op, int v) {
            if (op == Opcodes.RET) leaving(false); else plain();
            super.visitVarInsn(op, v);
        }
        @Override
        public void visitTypeInsn(int op, String t) {
            if (op != Opcodes.NEW) {
                plain();
                super.visitTypeInsn(op, t);
                return;
            }
            // A frame may name this NEW by its label (an object not yet initialized): the NEW
            // stays at the label, and the probe follows it.
            super.visitTypeInsn(op, t);
            plain();
        }
        @Override public void visitFieldInsn(int op, String o, String n, String d) { plain(); super.visitFieldInsn(op, o, n, d); }
        @Override public void visitMethodInsn(int op, String o, String n, String d, boolean i) { plain(); super.visitMethodInsn(op, o, n, d, i); }
        @Override public void visitInvokeDynamicInsn(String n, String d, Handle h, Object... a) { plain(); super.visitInvokeDynamicInsn(n, d, h, a); }
        @Override
        public void visitJumpInsn(int op, Label l) {
            leaving(op != Opcodes.GOTO && op != Opcodes.JSR);
            super.visitJumpInsn(op, l);
        }
        @Override public void visitLdcInsn(Object v) { plain(); super.visitLdcInsn(v); }
        @Override public void visitIincInsn(int v, int inc) { plain(); super.visitIincInsn(v, inc); }
        @Override public void visitTableSwitchInsn(int lo, int hi, Label d, Label... l) { switching(d, l); super.visitTableSwitchInsn(lo, hi, d, l); }
        @Override public void visitLookupSwitchInsn(Label d, int[] k, Label[] l) { switching(d, l); super.visitLookupSwitchInsn(d, k, l); }
        @Override public void visitMultiANewArrayInsn(String d, int n) { plain(); super.visitMultiANewArrayInsn(d, n); }
    }
}
