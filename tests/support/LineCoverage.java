import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import org.jacoco.core.analysis.Analyzer;
import org.jacoco.core.analysis.CoverageBuilder;
import org.jacoco.core.analysis.ICounter;
import org.jacoco.core.analysis.ISourceFileCoverage;
import org.jacoco.core.tools.ExecFileLoader;

/**
 * Prints the source lines that a JaCoCo run executed.
 *
 * <pre>
 * java -cp org.jacoco.core.jar:asm.jar:asm-commons.jar:asm-tree.jar:DIR LineCoverage EXEC CLASSES...
 * </pre>
 *
 * For every source file of the analysed classes it prints one line
 * {@code pkg/File.java: 3 4 7}, the numbers of the lines on which at least one instruction ran
 * (fully or partly covered lines), in ascending order. Files with no executed line are printed with
 * an empty list so that a caller can tell "not run" from "not analysed". A line executed only by a
 * class that is not in CLASSES is not reported.
 *
 * Exit status: 0 on success, 2 on bad usage, 1 when a file cannot be read. A class file JaCoCo
 * cannot analyse is skipped with a warning on stderr (its lines count as not run).
 */
public final class LineCoverage {
    private LineCoverage() {}

    public static void main(String[] args) {
        if (args.length < 2) {
            System.err.println("usage: LineCoverage EXEC_FILE CLASSES_DIR_OR_FILE...");
            System.exit(2);
        }
        try {
            Map<String, TreeSet<Integer>> covered = coveredLines(new File(args[0]), classRoots(args));
            StringBuilder out = new StringBuilder();
            for (Map.Entry<String, TreeSet<Integer>> e : covered.entrySet()) {
                out.append(e.getKey()).append(':');
                for (int line : e.getValue()) {
                    out.append(' ').append(line);
                }
                out.append('\n');
            }
            System.out.print(out);
        } catch (IOException e) {
            System.err.println("LineCoverage: " + e.getMessage());
            System.exit(1);
        }
    }

    private static List<File> classRoots(String[] args) {
        List<File> roots = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            roots.add(new File(args[i]));
        }
        return roots;
    }

    /**
     * Analyses every class file under {@code f} on its own. A class this JaCoCo cannot read (0.8.6
     * refuses the PermittedSubclasses attribute javac 17 writes for an enum whose constants have
     * bodies) is skipped with a warning: its lines then count as not run, which can only make a
     * check that wanted them run fail, never pass.
     */
    private static void analyzeEach(Analyzer analyzer, File f) throws IOException {
        if (f.isDirectory()) {
            File[] children = f.listFiles();
            if (children == null) {
                throw new IOException("cannot list " + f);
            }
            java.util.Arrays.sort(children);
            for (File c : children) {
                analyzeEach(analyzer, c);
            }
            return;
        }
        if (!f.getName().endsWith(".class")) {
            analyzer.analyzeAll(f);
            return;
        }
        try {
            analyzer.analyzeAll(f);
        } catch (IOException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            System.err.println("LineCoverage: skipped " + f + ": " + cause);
        }
    }

    /** Source file path (package folders + file name) to the executed line numbers. */
    static Map<String, TreeSet<Integer>> coveredLines(File execFile, List<File> classRoots) throws IOException {
        ExecFileLoader loader = new ExecFileLoader();
        if (execFile.isFile()) {
            loader.load(execFile);
        } else {
            // No exec file: the JVM never started the agent or wrote nothing. Report every
            // analysed file with no covered line rather than failing.
            System.err.println("LineCoverage: no execution data in " + execFile);
        }
        CoverageBuilder builder = new CoverageBuilder();
        Analyzer analyzer = new Analyzer(loader.getExecutionDataStore(), builder);
        for (File root : classRoots) {
            if (!root.exists()) {
                throw new IOException("no such class file or directory: " + root);
            }
            analyzeEach(analyzer, root);
        }
        Map<String, TreeSet<Integer>> result = new TreeMap<>();
        for (ISourceFileCoverage source : builder.getSourceFiles()) {
            String pkg = source.getPackageName();
            String name = pkg.isEmpty() ? source.getName() : pkg + "/" + source.getName();
            TreeSet<Integer> lines = result.computeIfAbsent(name, k -> new TreeSet<>());
            for (int line = source.getFirstLine(); line <= source.getLastLine(); line++) {
                int status = source.getLine(line).getStatus();
                if (status == ICounter.FULLY_COVERED || status == ICounter.PARTLY_COVERED) {
                    lines.add(line);
                }
            }
        }
        return result;
    }
}
