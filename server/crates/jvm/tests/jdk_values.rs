//! Every value of a JDK type jreach writes into a test (`jreach_synth::jdk_choices`) compiles
//! with the real javac, with the imports its choices name, and runs without an exception: a
//! candidate that does not compile would make every test that picks it fail to build. Needs a
//! JDK (`scripts/setup.sh`).

use jreach_jvm::Jdk;

/// Generic JDK types jreach writes values of, besides `jreach_ir::opaque_jdk::OPAQUE_JDK_TYPES`.
const GENERIC: &[&str] = &[
    "Class<?>",
    "List<Integer>",
    "Set<String>",
    "Deque<Integer>",
    "Comparator<String>",
    "Entry<?, ?>",
    "Map.Entry<String, Integer>",
    "Constructor<?>",
    "Class<Integer[]>",
    "Member",
    "Annotation",
    "Iterator<?>",
    "Iterator<Integer>",
    "ListIterator<String>",
    "Supplier<? extends Integer>",
    "Callable<Integer>",
    "Collection<?>",
    "List<Object>",
    "ArrayList<Double>",
    "Set<Character>",
    "Deque<Long>",
    "List<Boolean>",
    "List<Runnable>",
    "Map<Thread, Runnable>",
    "SortedSet<Runnable>",
];

#[test]
fn every_jdk_value_jreach_writes_compiles() {
    let jdk = Jdk::find().unwrap_or_else(|e| panic!("this test compiles Java: {e}"));
    let mut imports = std::collections::BTreeSet::new();
    let mut lines = Vec::new();
    let types = jreach_ir::opaque_jdk::OPAQUE_JDK_TYPES.iter().chain(GENERIC);
    for (i, ty) in types.enumerate() {
        let c = jreach_synth::jdk_choices(ty, "C").unwrap_or_else(|| panic!("no values of {ty}"));
        imports.extend(c.imports.iter().cloned());
        for (j, v) in c.options.iter().enumerate() {
            lines.push(format!("        {ty} v{i}_{j} = {};", jreach_synth::literal_as(ty, v)));
        }
    }
    let mut src: String = imports.iter().map(|i| format!("import {i};\n")).collect();
    src.push_str("import java.util.*;\n\nclass C {\n    void all() throws Exception {\n");
    src.push_str(&lines.join("\n"));
    src.push_str(
        "\n    }\n\n    public static void main(String[] args) throws Exception {\n        new C().all();\n    }\n}\n",
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("C.java");
    std::fs::write(&file, &src).unwrap();
    let out = std::process::Command::new(&jdk.javac).arg("-d").arg(dir.path()).arg(&file).output().unwrap();
    assert!(out.status.success(), "javac:\n{}\n{src}", String::from_utf8_lossy(&out.stderr));
    // And each is made without an exception (a member looked up by a name the JDK lacks would
    // throw), on this JDK.
    let out = std::process::Command::new(&jdk.java).arg("-cp").arg(dir.path()).arg("C").output().unwrap();
    assert!(out.status.success(), "java:\n{}\n{src}", String::from_utf8_lossy(&out.stderr));
}
