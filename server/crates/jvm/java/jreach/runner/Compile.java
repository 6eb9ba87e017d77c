package jreach.runner;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.FilterOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.HashSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.ForwardingJavaFileObject;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;

/**
 * Compiles a run's sources in memory with {@code javax.tools}: the files given as text (the
 * target's file as the editor holds it, the candidate test), against the project's source roots.
 * Classes javac needs from the source roots are compiled too, into the project's cache directory,
 * and reused while they are newer than their source ({@code -Xprefer:newer}, javac's default), so
 * only what changed is compiled again. An import of an annotation whose package is missing (a
 * compile-time-only dependency such as Error Prone's) gets an empty stub, since annotations do not
 * change what code does; any other error is reported with javac's first message.
 */
final class Compile {
    /** The classes compiled from the texts: binary name to class file. */
    final Map<String, byte[]> classes = new HashMap<>();
    /** javac's first error, or null when it compiled. */
    String error;

    private static final Pattern IMPORT = Pattern.compile("^\\s*import\\s+([\\w.]+)\\.(\\w+)\\s*;");

    static Compile run(Map<String, String> texts, List<File> roots, List<File> classpath, File cache) throws IOException {
        Compile c = new Compile();
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            c.error = "this Java runtime has no compiler (javax.tools); a JDK is needed";
            return c;
        }
        cache.mkdirs();
        Map<String, Stub> stubs = new LinkedHashMap<>();
        for (int attempt = 0; attempt < 8; attempt++) {
            c.classes.clear();
            DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
            StandardJavaFileManager std = javac.getStandardFileManager(diags, Locale.ROOT, StandardCharsets.UTF_8);
            List<File> cp = new ArrayList<>();
            cp.add(cache);
            cp.addAll(classpath);
            std.setLocation(StandardLocation.SOURCE_PATH, roots);
            std.setLocation(StandardLocation.CLASS_PATH, cp);
            std.setLocation(StandardLocation.CLASS_OUTPUT, List.of(cache));
            List<JavaFileObject> units = new ArrayList<>();
            Set<JavaFileObject> inMemory = new HashSet<>();
            for (Map.Entry<String, String> e : texts.entrySet()) units.add(new Text(e.getKey(), e.getValue()));
            for (Stub st : stubs.values()) units.add(new Text(st.path(), st.source()));
            inMemory.addAll(units);
            JavaFileManager fm = new ForwardingJavaFileManager<StandardJavaFileManager>(std) {
                @Override
                public JavaFileObject getJavaFileForOutput(Location loc, String name, JavaFileObject.Kind kind, FileObject sibling)
                        throws IOException {
                    if (sibling != null && inMemory.contains(sibling)) return new Bytes(name, c.classes);
                    return new Atomic(super.getJavaFileForOutput(loc, name, kind, sibling));
                }
            };
            List<String> options = List.of("-g", "-proc:none", "-nowarn", "-Xlint:none", "-implicit:class", "-encoding", "UTF-8");
            StringWriter out = new StringWriter();
            boolean ok = javac.getTask(out, fm, diags, options, null, units).call();
            fm.close();
            if (ok) return c;
            boolean stubbed = false;
            String first = null;
            for (Diagnostic<? extends JavaFileObject> d : diags.getDiagnostics()) {
                if (d.getKind() != Diagnostic.Kind.ERROR || d.getSource() == null) continue;
                if (first == null) first = describe(d);
                String text;
                try {
                    text = d.getSource().getCharContent(true).toString();
                } catch (IOException e) {
                    continue;
                }
                if ("compiler.err.doesnt.exist".equals(d.getCode())) {
                    Stub st = annotationStub(text, d.getLineNumber());
                    if (st != null && !stubs.containsKey(st.qualified())) {
                        stubs.put(st.qualified(), st);
                        stubbed = true;
                    }
                }
                // A stub made from one file may lack an element another file gives the annotation.
                for (Stub st : stubs.values()) stubbed |= st.addElements(text);
            }
            c.error = first == null ? out.toString().trim() : first;
            if (!stubbed) return c;
            c.error = null;
        }
        return c;
    }

    private static String describe(Diagnostic<? extends JavaFileObject> d) {
        String where = d.getSource() == null ? "" : d.getSource().getName() + ":" + d.getLineNumber() + ": ";
        return where + d.getMessage(Locale.ROOT);
    }

    /**
     * For "package p does not exist" on line {@code line} of {@code text}, {@code import p.A;},
     * where the file uses {@code A} only as an annotation: an annotation type {@code p.A} with the
     * elements the file gives it. Null when that is not the case.
     */
    private static Stub annotationStub(String text, long line) {
        String[] lines = text.split("\n", -1);
        if (line < 1 || line > lines.length) return null;
        Matcher m = IMPORT.matcher(lines[(int) line - 1]);
        if (!m.find()) return null;
        String pkg = m.group(1), name = m.group(2);
        String body = text.replace(m.group(0).trim(), "");
        Matcher use = Pattern.compile("(@\\s*)?\\b" + Pattern.quote(name) + "\\b").matcher(body);
        while (use.find()) {
            if (use.group(1) == null) return null;
        }
        Stub st = new Stub(pkg, name);
        st.addElements(text);
        return st;
    }

    /** An empty annotation type standing in for one whose package is missing. */
    private static final class Stub {
        final String pkg;
        final String name;
        final Map<String, String> elements = new LinkedHashMap<>();

        Stub(String pkg, String name) {
            this.pkg = pkg;
            this.name = name;
        }

        String qualified() {
            return pkg + "." + name;
        }

        String path() {
            return pkg.replace('.', '/') + "/" + name + ".java";
        }

        /** Adds the elements {@code text}'s uses of the annotation give it; whether any was new. */
        boolean addElements(String text) {
            boolean added = false;
            Matcher args = Pattern.compile("@\\s*(?:" + Pattern.quote(pkg) + "\\.)?" + Pattern.quote(name) + "\\s*\\(((?:\"(?:[^\"\\\\]|\\\\.)*\"|[^)\"])*)\\)").matcher(text);
            while (args.find()) {
                String inside = args.group(1).trim();
                Matcher kv = Pattern.compile("(\\w+)\\s*=\\s*\\{?\\s*(\"|[0-9-]|true|false|[\\w.]+\\.class)").matcher(inside);
                boolean named = false;
                while (kv.find()) {
                    named = true;
                    added |= elements.putIfAbsent(kv.group(1), type(kv.group(2))) == null;
                }
                if (!named && !inside.isEmpty()) {
                    Matcher v = Pattern.compile("^\\{?\\s*(\"|[0-9-]|true|false|[\\w.]+\\.class)").matcher(inside);
                    if (v.find()) added |= elements.putIfAbsent("value", type(v.group(1))) == null;
                }
            }
            return added;
        }

        String source() {
            StringBuilder src = new StringBuilder();
            src.append("package ").append(pkg).append(";\npublic @interface ").append(name).append(" {\n");
            for (Map.Entry<String, String> e : elements.entrySet()) {
                src.append("  ").append(e.getValue()).append("[] ").append(e.getKey()).append("() default {};\n");
            }
            return src.append("}\n").toString();
        }
    }

    private static String type(String start) {
        if (start.equals("\"")) return "String";
        if (start.equals("true") || start.equals("false")) return "boolean";
        if (start.endsWith(".class")) return "Class<?>";
        return "long";
    }

    /** A source held as text; its name is the path javac reports ("pkg/Foo.java"). */
    private static final class Text extends SimpleJavaFileObject {
        private final String text;

        Text(String path, String text) {
            super(URI.create("string:///" + path), Kind.SOURCE);
            this.text = text;
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return text;
        }
    }

    /**
     * A class file of the cache, written to a temporary file and renamed into place when complete,
     * so that another jreach compiling or loading the same classes never reads half a file.
     */
    private static final class Atomic extends ForwardingJavaFileObject<JavaFileObject> {
        Atomic(JavaFileObject file) {
            super(file);
        }

        @Override
        public OutputStream openOutputStream() throws IOException {
            Path target = Paths.get(toUri());
            Files.createDirectories(target.getParent());
            Path tmp = Files.createTempFile(target.getParent(), target.getFileName().toString(), ".tmp");
            OutputStream out = Files.newOutputStream(tmp);
            return new FilterOutputStream(out) {
                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    out.write(b, off, len);
                }

                @Override
                public void close() throws IOException {
                    super.close();
                    Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                }
            };
        }
    }

    /** A class file javac writes into {@code sink}. */
    private static final class Bytes extends SimpleJavaFileObject {
        private final String name;
        private final Map<String, byte[]> sink;

        Bytes(String name, Map<String, byte[]> sink) {
            super(URI.create("bytes:///" + name.replace('.', '/') + ".class"), Kind.CLASS);
            this.name = name;
            this.sink = sink;
        }

        @Override
        public OutputStream openOutputStream() {
            return new ByteArrayOutputStream() {
                @Override
                public void close() {
                    sink.put(name, toByteArray());
                }
            };
        }
    }
}
