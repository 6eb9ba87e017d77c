package jreach.runner;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * What the calls of the observed file returned, for concolic rounds (LCT's loop): after each call
 * instruction with a result in the methods of that file's classes, {@link Adder} passes a copy of
 * the result to {@link #returned} with the call's line and method name. A run's records are read
 * and cleared by {@link #take}, in the order the calls returned. Only numbers, booleans,
 * characters, strings and null are kept as values; of any other object only its class is named
 * (its {@code toString} is user code and is never called).
 *
 * <p>Like {@link Probe}, user code sees this very class.
 */
public final class Calls {
    private Calls() {}

    /** At most this many records per run (a call in a long loop). */
    private static final int MAX = 5_000;

    private static final List<Map<String, Object>> SEEN = new ArrayList<>();

    /** Called by instrumented code: the call to {@code name} on line {@code line} returned {@code v}. */
    public static void returned(Object v, int line, String name) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("line", (long) line);
        r.put("name", name);
        if (v == null) {
            r.put("kind", "null");
        } else if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
            r.put("kind", "int");
            r.put("value", ((Number) v).longValue());
        } else if (v instanceof Character) {
            r.put("kind", "int");
            r.put("value", (long) (Character) v);
        } else if (v instanceof Boolean) {
            r.put("kind", "bool");
            r.put("value", v);
        } else if (v instanceof Float || v instanceof Double) {
            // As text: JSON has no NaN or infinities, and the text keeps every digit.
            r.put("kind", "float");
            r.put("value", String.valueOf(((Number) v).doubleValue()));
        } else if (v instanceof String) {
            r.put("kind", "string");
            r.put("value", v);
        } else {
            r.put("kind", "object");
            r.put("value", v.getClass().getName());
        }
        synchronized (SEEN) {
            if (SEEN.size() < MAX) SEEN.add(r);
        }
    }

    /** The records since the last call, in order; clears them. */
    static List<Map<String, Object>> take() {
        synchronized (SEEN) {
            List<Map<String, Object>> out = new ArrayList<>(SEEN);
            SEEN.clear();
            return out;
        }
    }

    /**
     * Puts a call to {@link #returned} after every call instruction whose result is not
     * {@code void} (the result duplicated and boxed), with the instruction's line. The stack is
     * as before afterwards, so no stack map frame changes.
     */
    static final class Adder extends MethodVisitor {
        private int line = -1;

        Adder(MethodVisitor mv) {
            super(Opcodes.ASM9, mv);
        }

        @Override
        public void visitLineNumber(int line, org.objectweb.asm.Label start) {
            super.visitLineNumber(line, start);
            this.line = line;
        }

        @Override
        public void visitMethodInsn(int op, String owner, String name, String desc, boolean itf) {
            super.visitMethodInsn(op, owner, name, desc, itf);
            if (owner.startsWith("jreach/runner/") || name.equals("<init>") || line < 0) return;
            Type r = Type.getReturnType(desc);
            switch (r.getSort()) {
                case Type.VOID:
                    return;
                case Type.LONG:
                case Type.DOUBLE:
                    super.visitInsn(Opcodes.DUP2);
                    break;
                default:
                    super.visitInsn(Opcodes.DUP);
            }
            box(r);
            super.visitLdcInsn(line);
            super.visitLdcInsn(name);
            super.visitMethodInsn(
                    Opcodes.INVOKESTATIC, "jreach/runner/Calls", "returned", "(Ljava/lang/Object;ILjava/lang/String;)V", false);
        }

        private void box(Type t) {
            String box;
            switch (t.getSort()) {
                case Type.BOOLEAN: box = "java/lang/Boolean"; break;
                case Type.CHAR: box = "java/lang/Character"; break;
                case Type.BYTE: box = "java/lang/Byte"; break;
                case Type.SHORT: box = "java/lang/Short"; break;
                case Type.INT: box = "java/lang/Integer"; break;
                case Type.FLOAT: box = "java/lang/Float"; break;
                case Type.LONG: box = "java/lang/Long"; break;
                case Type.DOUBLE: box = "java/lang/Double"; break;
                default: return;
            }
            super.visitMethodInsn(Opcodes.INVOKESTATIC, box, "valueOf", "(" + t.getDescriptor() + ")L" + box + ";", false);
        }
    }
}
