package jreach.runner;

import java.util.HashMap;
import java.util.Map;
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
 * a line counts as run when it starts, so a line whose call throws is seen too.
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
        ClassReader reader = new ClassReader(classFile);
        String internalName = reader.getClassName();
        int slash = internalName.lastIndexOf('/');
        String dir = slash < 0 ? "" : internalName.substring(0, slash + 1);
        Map<String, Branches.Plan> plans = new HashMap<>();
        if (targetSource != null) {
            boolean[] ours = {false};
            reader.accept(new ClassVisitor(Opcodes.ASM9) {
                @Override
                public void visitSource(String source, String debug) {
                    ours[0] = source != null && targetSource.equals(dir + source);
                }

                @Override
                public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] exc) {
                    if (!ours[0]) return null;
                    Branches.Plan plan = new Branches.Plan(targetLine);
                    plans.put(name + desc, plan);
                    return plan;
                }
            }, 0);
        }
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        int[] id = {-1};
        ClassVisitor cv = new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public void visitSource(String source, String debug) {
                super.visitSource(source, debug);
                if (source != null) id[0] = Probe.register(dir + source);
            }

            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] exc) {
                MethodVisitor mv = super.visitMethod(access, name, desc, sig, exc);
                if (id[0] < 0 || (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) return mv;
                MethodVisitor probed = new ProbeAdder(mv, id[0]);
                Branches.Plan plan = plans.get(name + desc);
                return plan == null ? probed : new Branches.Adder(probed, plan.critical);
            }
        };
        reader.accept(cv, 0);
        return id[0] < 0 ? classFile : writer.toByteArray();
    }

    private static final class ProbeAdder extends MethodVisitor {
        private final int id;
        private int pending = -1;

        ProbeAdder(MethodVisitor mv, int id) {
            super(Opcodes.ASM9, mv);
            this.id = id;
        }

        @Override
        public void visitLineNumber(int line, Label start) {
            super.visitLineNumber(line, start);
            pending = line;
        }

        private void flush() {
            if (pending < 0) return;
            int line = pending;
            pending = -1;
            super.visitLdcInsn(id);
            super.visitLdcInsn(line);
            super.visitMethodInsn(Opcodes.INVOKESTATIC, "jreach/runner/Probe", "hit", "(II)V", false);
        }

        @Override public void visitInsn(int op) { flush(); super.visitInsn(op); }
        @Override public void visitIntInsn(int op, int operand) { flush(); super.visitIntInsn(op, operand); }
        @Override public void visitVarInsn(int op, int v) { flush(); super.visitVarInsn(op, v); }
        @Override
        public void visitTypeInsn(int op, String t) {
            if (op != Opcodes.NEW) {
                flush();
                super.visitTypeInsn(op, t);
                return;
            }
            // A frame may name this NEW by its label (an object not yet initialized): the NEW
            // stays at the label, and the probe follows it.
            super.visitTypeInsn(op, t);
            flush();
        }
        @Override public void visitFieldInsn(int op, String o, String n, String d) { flush(); super.visitFieldInsn(op, o, n, d); }
        @Override public void visitMethodInsn(int op, String o, String n, String d, boolean i) { flush(); super.visitMethodInsn(op, o, n, d, i); }
        @Override public void visitInvokeDynamicInsn(String n, String d, Handle h, Object... a) { flush(); super.visitInvokeDynamicInsn(n, d, h, a); }
        @Override public void visitJumpInsn(int op, Label l) { flush(); super.visitJumpInsn(op, l); }
        @Override public void visitLdcInsn(Object v) { flush(); super.visitLdcInsn(v); }
        @Override public void visitIincInsn(int v, int inc) { flush(); super.visitIincInsn(v, inc); }
        @Override public void visitTableSwitchInsn(int lo, int hi, Label d, Label... l) { flush(); super.visitTableSwitchInsn(lo, hi, d, l); }
        @Override public void visitLookupSwitchInsn(Label d, int[] k, Label[] l) { flush(); super.visitLookupSwitchInsn(d, k, l); }
        @Override public void visitMultiANewArrayInsn(String d, int n) { flush(); super.visitMultiANewArrayInsn(d, n); }
    }
}
