import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;

import org.jacoco.core.analysis.Analyzer;
import org.jacoco.core.analysis.CoverageBuilder;
import org.jacoco.core.analysis.IBundleCoverage;
import org.jacoco.core.tools.ExecFileLoader;
import org.jacoco.report.DirectorySourceFileLocator;
import org.jacoco.report.IReportVisitor;
import org.jacoco.report.xml.XMLFormatter;

/**
 * Writes JaCoCo's XML report of a run, the report {@code mvn jacoco:report} writes.
 *
 * <pre>
 * java -cp org.jacoco.core.jar:org.jacoco.report.jar:asm.jar:asm-commons.jar:asm-tree.jar:DIR \
 *     JacocoXml EXEC CLASSES SOURCES OUT.xml
 * </pre>
 *
 * EXEC is the agent's execution data (absent: nothing ran), CLASSES the folder of the classes
 * under test, SOURCES their source root. Exit status: 0 on success, 2 on bad usage, 1 when a
 * file cannot be read or written.
 */
public final class JacocoXml {
    public static void main(String[] args) {
        if (args.length != 4) {
            System.err.println("usage: JacocoXml EXEC CLASSES SOURCES OUT.xml");
            System.exit(2);
        }
        try {
            ExecFileLoader loader = new ExecFileLoader();
            File exec = new File(args[0]);
            if (exec.isFile()) {
                loader.load(exec);
            }
            CoverageBuilder builder = new CoverageBuilder();
            new Analyzer(loader.getExecutionDataStore(), builder).analyzeAll(new File(args[1]));
            IBundleCoverage bundle = builder.getBundle("project");
            try (OutputStream out = new FileOutputStream(args[3])) {
                IReportVisitor visitor = new XMLFormatter().createVisitor(out);
                visitor.visitInfo(loader.getSessionInfoStore().getInfos(),
                        loader.getExecutionDataStore().getContents());
                visitor.visitBundle(bundle, new DirectorySourceFileLocator(new File(args[2]), "UTF-8", 4));
                visitor.visitEnd();
            }
        } catch (IOException e) {
            System.err.println("JacocoXml: " + e.getMessage());
            System.exit(1);
        }
    }
}
