//! Statements the JVM runs as it initializes a class: those of its static initializer blocks
//! (`static { ... }`), and those of private methods that only such blocks or the initializers of
//! static fields call (`static final Map<..> RULES = parseRules(...)`). No test calls them; a test
//! reaches them by loading the class (`Class.forName("pkg.Outer$Inner")`,
//! [`jreach_synth::TestRequest::initializes_class`]). Whether a line runs then is left to the
//! run on the JVM: the lowering does not model class initialization.

use jreach_ir::lower::FileContext;
use jreach_syntax::tree::has_modifier;
use jreach_syntax::{MethodInfo, Node, SourceFile};
use jreach_synth::{JUnit, Outcome, TestRequest};

use super::callers::{calls_now_in, private_chain};

/// The classes (outermost first) whose static initializer block holds a statement starting on
/// 0-based `line`; `None` when no such statement does.
pub(crate) fn static_block_at(file: &SourceFile, line: usize) -> Option<Vec<String>> {
    let range = file.lines.line_range(line)?;
    let text = &file.text[range.clone()];
    let first = range.start + (text.len() - text.trim_start_matches([' ', '\t']).len());
    let node = file.tree.root_node().descendant_for_byte_range(first, first)?;
    let mut up = Some(node);
    let mut statement = false;
    let mut in_block = None;
    while let Some(n) = up {
        let kind = n.kind();
        statement |=
            n.start_byte() >= range.start && (kind.ends_with("_statement") || kind == "local_variable_declaration");
        match kind {
            // A lambda or class body inside the block runs later, or never.
            "lambda_expression" | "class_body" if in_block.is_none() => return None,
            "static_initializer" if in_block.is_none() => in_block = Some(n),
            _ => {}
        }
        up = n.parent();
    }
    if !statement {
        return None;
    }
    classes_of(file, in_block?)
}

/// The classes (outermost first) a static initializer block or static field initializer calls
/// private method `m` from, directly or through other private methods of its class; `None`
/// when none does. A call in a lambda or anonymous class the initializer creates does not count:
/// it runs when something calls that code, not as the class is initialized.
pub(crate) fn initializing_class(ctx: &FileContext<'_>, m: &MethodInfo) -> Option<Vec<String>> {
    let file = ctx.file();
    let chain = private_chain(ctx, m);
    // Top down, with the classes around each node (`None` inside a body: an anonymous or local
    // class there has no name a test loads); walking up from each initializer instead would
    // cost the nesting depth squared apiece.
    let mut stack: Vec<(Node<'_>, Option<Vec<String>>)> = vec![(file.tree.root_node(), Some(vec![]))];
    while let Some((n, classes)) = stack.pop() {
        let classes = match n.kind() {
            "class_declaration" | "enum_declaration" | "interface_declaration" | "record_declaration" => {
                classes.zip(n.child_by_field_name("name")).map(|(mut c, name)| {
                    c.push(file.text[name.byte_range()].to_string());
                    c
                })
            }
            "object_creation_expression" | "block" | "constructor_body" | "lambda_expression" => None,
            _ => classes,
        };
        let initializer = match n.kind() {
            "static_initializer" => true,
            "field_declaration" => has_modifier(n, &file.text, "static"),
            _ => false,
        };
        if initializer {
            if let Some(classes) = classes.filter(|c| !c.is_empty() && c.first() == m.classes.first()) {
                if chain.iter().any(|c| calls_now_in(file, n, &classes, c)) {
                    return Some(classes);
                }
            }
            continue;
        }
        stack.extend(n.named_children(&mut n.walk()).map(|c| (c, classes.clone())));
    }
    None
}

/// The test that loads the class named by `classes` so that the JVM runs its static
/// initializers, for the statement on 0-based `line`.
pub(crate) fn request(file: &SourceFile, classes: Vec<String>, line: usize, junit: JUnit) -> TestRequest {
    let text = file.lines.line_range(line).map(|r| &file.text[r]).unwrap_or("");
    let stmt_text = text.lines().next().unwrap_or("").trim().to_string();
    let class = classes.join(".");
    TestRequest {
        package: file.package(),
        classes,
        method: "<clinit>".into(),
        is_static: true,
        is_constructor: false,
        params: vec![],
        args: vec![],
        return_ty: "void".into(),
        outcome: Outcome::Returns(None),
        target_line: line + 1,
        target_text: stmt_text,
        target_member: jreach_syntax::member_at(file, line).map(|m| m.name),
        target_action: jreach_syntax::find_target(file, line)
            .map_or(jreach_syntax::Action::Other, |t| jreach_syntax::statement_action(file, t.stmt)),
        path_condition: vec![],
        junit,
        receiver_args: vec![],
        receiver_calls: vec![],
        receiver_body: None,
        receiver_fields: None,
        receiver_class: None,
        statics: vec![],
        imports: vec![],
        // Only a run shows whether initializing the class gets there.
        unmodelled_before_target: Some(format!("the static initialization of {class}")),
        declares_checked: true,
        receiver_call_choices: vec![],
        receiver_factory: None,
        receiver_from: None,
        then_call: None,
        null_casts: Default::default(),
        named_classes: vec![],
        held_by: None,
        initializes_class: true,
        outer: None,
        also_runs: vec![],
    }
}

/// The names of the classes declaring `n` (outermost first); `None` inside an anonymous or a
/// local class (whose binary names, `Outer$1Local`, a test does not write).
fn classes_of(file: &SourceFile, n: Node<'_>) -> Option<Vec<String>> {
    let mut classes = Vec::new();
    let mut up = n.parent();
    while let Some(p) = up {
        match p.kind() {
            "class_declaration" | "enum_declaration" | "interface_declaration" | "record_declaration" => {
                let name = p.child_by_field_name("name")?;
                classes.push(file.text[name.byte_range()].to_string());
            }
            // An anonymous class, or a local class declared in a body: no name a test loads.
            "object_creation_expression" | "block" | "constructor_body" | "lambda_expression" => return None,
            _ => {}
        }
        up = p.parent();
    }
    classes.reverse();
    (!classes.is_empty()).then_some(classes)
}
