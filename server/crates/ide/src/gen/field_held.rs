//! A statement in a method of an anonymous class whose object a field holds, where no member a
//! test can name holds it ([`jreach_syntax::HeldBy`] covers those): a private field
//! (`private static final TypeAdapter<Duration> DURATION = new
//! IntegerFieldsTypeAdapter<Duration>(...) { ... };`), or one a static initializer block stores
//! the object in (`INSTANCE = accessChecker;`). The object runs only when code of the class reads
//! the field, so a test enters by the methods of the class that read it (or, for a private one,
//! their callers): `JAVA_TIME_FACTORY.create(gson, TypeToken.get(Duration.class))` returns
//! `DURATION`, on which the test calls the method the statement is in (see
//! [`super::result_call::then_call`], cast to the class the object is created as when the field
//! declares a supertype). The model does not follow a field's object, so only a search on the JVM
//! takes this way, and every test it finds is verified there as usual; no proof is drawn from it.

use jreach_ir::lower::FileContext;
use jreach_syntax::tree::{enclosing_classes, named_children};
use jreach_syntax::{statement_at, text_of, Enclosure, MethodInfo, Node, SourceFile, Target};

use super::callers;
use super::receiver_from::readable_static_field;

/// The field (or fields) holding the object of the anonymous class a statement is in, and the
/// methods of its class that read them.
pub(crate) struct FieldHeld {
    /// The statement, entered (for messages) through [`FieldHeld::on_field`] when there is one,
    /// else through the first of [`FieldHeld::readers`].
    pub(crate) target: Target,
    /// The fields' names, as the class declares them.
    pub(crate) fields: Vec<String>,
    /// The methods of the fields' top-level class whose bodies read one of them, those a test
    /// can call first, then static, then by fewest parameters and in source order.
    pub(crate) readers: Vec<MethodInfo>,
    /// When a test can read the field itself (static, not private, in classes a test can
    /// name), the method the statement is in, called on the field's object
    /// ([`MethodInfo::held_by`]; its object has state of its own, so the model does not take it
    /// as static, and only the search uses it).
    pub(crate) on_field: Option<MethodInfo>,
}

/// For the statement on 0-based `line`, when it is in a method of an anonymous class created in
/// a field's initializer or in a static initializer block: the fields holding its object and the
/// methods reading them. `None` for any other statement, and when no method reads the fields
/// and a test cannot read the field itself.
pub(crate) fn field_held(file: &SourceFile, line: usize) -> Option<FieldHeld> {
    let stmt = statement_at(file, line).ok()?;
    let (creation, place) = outermost_creation(stmt)?;
    let src = file.text.as_str();
    let mut on_field = None;
    let fields: Vec<String> = match place.kind() {
        "field_declaration" => {
            let declarator = named_children(place)
                .into_iter()
                .find(|d| d.kind() == "variable_declarator" && d.byte_range().contains(&creation.start_byte()))?;
            let name = text_of(declarator.child_by_field_name("name")?, src).to_string();
            on_field = method_on_field(file, stmt, creation, place, &name);
            vec![name]
        }
        // The fields of its class that the block assigns.
        _ => {
            let class_body = place.parent().filter(|b| matches!(b.kind(), "class_body" | "enum_body_declarations"))?;
            let declared = declared_fields(class_body, src);
            let mut assigned = Vec::new();
            let mut stack = vec![place];
            while let Some(n) = stack.pop() {
                if n.kind() == "assignment_expression" {
                    let left = n.child_by_field_name("left").map(|l| field_name(l, src)).unwrap_or_default();
                    if declared.contains(&left) && !assigned.contains(&left) {
                        assigned.push(left);
                    }
                }
                stack.extend(named_children(n));
            }
            assigned
        }
    };
    if fields.is_empty() {
        return None;
    }
    let ctx = FileContext::new(file, None, None);
    let top = enclosing_classes(place, src).into_iter().next()?;
    let mut readers: Vec<MethodInfo> = ctx
        .methods()
        .iter()
        .filter(|m| m.top_class() == top && !m.has_error && !place.byte_range().contains(&m.range.start))
        .filter(|m| !m.in_unnamed_class(file) && reads_any(m.body_node(file), src, &fields))
        .cloned()
        .collect();
    readers.sort_by_key(|m| (m.hidden_from_tests(), !m.is_static, m.params.len(), m.range.start));
    let first = on_field.clone().or_else(|| readers.first().cloned())?;
    let target =
        Target { method: first, stmt: stmt.byte_range(), line, enclosure: Some(Enclosure::LocalOrAnonymousClass) };
    Some(FieldHeld { target, fields, readers, on_field })
}

/// The method of the anonymous class `creation` (the value of field `name` declared by `field`)
/// that `stmt` is in, as one a test calls on the field's object, when a test can read the field
/// ([`readable_static_field`]) and the field holds the object itself.
fn method_on_field(
    file: &SourceFile,
    stmt: Node<'_>,
    creation: Node<'_>,
    field: Node<'_>,
    name: &str,
) -> Option<MethodInfo> {
    let src = file.text.as_str();
    readable_static_field(file, field)?;
    // (A field holding what a call on the object returns is not the object.)
    let declared = field_type_holding(file, creation)?;
    // The method of the class body itself (not of a class nested in it).
    let body = named_children(creation).into_iter().find(|c| c.kind() == "class_body")?;
    let mut n = stmt;
    let method = loop {
        let parent = n.parent()?;
        if n.kind() == "method_declaration" && parent.id() == body.id() {
            break n;
        }
        n = parent;
    };
    let mut m = MethodInfo::from_node(method, file)?;
    let overrides =
        named_children(method).iter().any(|c| c.kind() == "modifiers" && text_of(*c, src).contains("@Override"));
    if !overrides || m.has_error {
        return None;
    }
    let created = text_of(creation.child_by_field_name("type")?, src);
    let created = created.split('<').next().unwrap_or(created).trim();
    let cast_to = (declared != created).then(|| jreach_syntax::qualified_nested(file, created));
    m.held_by = Some(jreach_syntax::HeldBy { member: name.to_string(), cast_to, returned_by: None });
    m.is_static = true;
    m.class_is_abstract = false;
    Some(m)
}

/// The ways a test enters to reach `held`'s statement: its readers a test can call, then, for
/// those it cannot, their callers ([`callers::entry_callers`]); at most `max`.
pub(crate) fn entries(file: &SourceFile, held: &FieldHeld, max: usize) -> Vec<MethodInfo> {
    let ctx = FileContext::new(file, None, None);
    let mut out: Vec<MethodInfo> = Vec::new();
    let add = |m: MethodInfo, out: &mut Vec<MethodInfo>| {
        if !out.iter().any(|k| k.range == m.range) {
            out.push(m);
        }
    };
    if let Some(m) = &held.on_field {
        add(m.clone(), &mut out);
    }
    for reader in held.readers.iter().filter(|m| !m.hidden_from_tests()) {
        add(reader.clone(), &mut out);
    }
    for reader in held.readers.iter().filter(|m| m.hidden_from_tests()) {
        for caller in callers::entry_callers(&ctx, reader, max) {
            add(caller, &mut out);
        }
    }
    out.truncate(max);
    out
}

/// The type, raw as written, of the field whose initializer is `creation` itself (not what a call
/// on it returns: `new TypeAdapter<T>() {...}.nullSafe()`): the type a method reading the field
/// returns it as, from which a test casts it to the class it is created as.
pub(crate) fn field_type_holding(file: &SourceFile, creation: Node<'_>) -> Option<String> {
    let declarator = creation.parent().filter(|d| d.kind() == "variable_declarator")?;
    if declarator.child_by_field_name("value") != Some(creation) {
        return None;
    }
    let field = declarator.parent().filter(|f| f.kind() == "field_declaration")?;
    let ty = text_of(field.child_by_field_name("type")?, &file.text);
    Some(ty.split('<').next().unwrap_or(ty).trim().to_string())
}

/// The outermost anonymous class creation `stmt` is in, through the bodies of its methods, and the
/// field declaration or static initializer block it is written in. `None` when the way up meets
/// a method or constructor of a named class, a lambda, or any other place first.
fn outermost_creation(stmt: Node<'_>) -> Option<(Node<'_>, Node<'_>)> {
    let mut creation = None;
    let mut n = stmt.parent();
    while let Some(cur) = n {
        match cur.kind() {
            "method_declaration" | "constructor_declaration" => {
                let made = cur.parent().filter(|b| b.kind() == "class_body").and_then(|b| b.parent());
                match made.filter(|c| c.kind() == "object_creation_expression") {
                    Some(c) => {
                        creation = Some(c);
                        n = c.parent();
                        continue;
                    }
                    None => return None,
                }
            }
            "lambda_expression"
            | "class_declaration"
            | "enum_declaration"
            | "interface_declaration"
            | "record_declaration"
            | "local_class_declaration" => return None,
            "field_declaration" | "static_initializer" => return Some((creation?, cur)),
            _ => {}
        }
        n = cur.parent();
    }
    None
}

/// The names of the fields `body` declares.
fn declared_fields(body: Node<'_>, src: &str) -> Vec<String> {
    let mut out = Vec::new();
    for d in named_children(body).into_iter().filter(|d| d.kind() == "field_declaration") {
        for v in named_children(d).into_iter().filter(|v| v.kind() == "variable_declarator") {
            out.extend(v.child_by_field_name("name").map(|n| text_of(n, src).to_string()));
        }
    }
    out
}

/// The field an assignment's left side names: `NAME`, `this.NAME`, `Class.NAME`.
fn field_name(left: Node<'_>, src: &str) -> String {
    match left.kind() {
        "identifier" => text_of(left, src).to_string(),
        "field_access" => left.child_by_field_name("field").map(|f| text_of(f, src).to_string()).unwrap_or_default(),
        _ => String::new(),
    }
}

/// Whether the code under `root` names one of `fields` (by its simple name, or as `X.name`).
fn reads_any(root: Node<'_>, src: &str, fields: &[String]) -> bool {
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n.kind() == "identifier" && fields.iter().any(|f| f == text_of(n, src)) {
            // (Not a local or parameter declared with the name.)
            let declares = n.parent().is_some_and(|p| {
                matches!(p.kind(), "variable_declarator" | "formal_parameter")
                    && p.child_by_field_name("name") == Some(n)
            });
            if !declares {
                return true;
            }
        }
        stack.extend(named_children(n));
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::result_call::{handed_out, then_call};

    const SRC: &str = r#"package p;
public final class Adapters {
    public abstract static class Adapter<T> {
        public abstract String write(T value);
        public final Adapter<T> self() { return this; }
    }
    abstract static class Counted<T> extends Adapter<T> {
        abstract long count(T value);
        public String write(T value) { return "" + count(value); }
    }
    private static final Adapter<String> LENGTH =
        new Counted<String>() {
            @Override
            long count(String s) {
                return s.length();
            }
        };
    private static final Adapter<Integer> SIGN =
        new Adapter<Integer>() {
            @Override
            public String write(Integer i) {
                return i < 0 ? "-" : "+";
            }
        }.self();
    private static final Runnable CHECKER;
    static {
        Runnable made = new Runnable() {
            @Override
            public void run() {
                System.out.println("checked");
            }
        };
        CHECKER = made;
    }
    public static Adapter<?> forType(Class<?> type) {
        if (type == String.class) {
            return LENGTH;
        }
        return null;
    }
    private static Adapter<Integer> sign() {
        return SIGN;
    }
    public static String signOf(int i) {
        return sign().write(i);
    }
    public static void check() {
        CHECKER.run();
    }
    public static final Adapter<String> TRIM =
        new Counted<String>() {
            private final int extra = 1;
            @Override
            long count(String s) {
                return s.trim().length() + extra;
            }
        };
}
"#;

    fn line_of(file: &SourceFile, needle: &str) -> usize {
        file.text[..file.text.find(needle).expect("the statement")].matches('\n').count()
    }

    #[test]
    fn an_anonymous_class_a_private_field_holds_is_entered_by_the_methods_reading_the_field() {
        let file = SourceFile::parse(SRC);
        let line = line_of(&file, "return s.length();");
        // (Not a target of its own: no method holds the statement.)
        assert!(jreach_syntax::find_target(&file, line).is_err());
        let held = field_held(&file, line).expect("held by a field");
        assert_eq!(held.fields, ["LENGTH"]);
        let names: Vec<&str> = held.readers.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["forType"]);
        assert_eq!(held.target.method.name, "forType");
        // The method reading the field returns it as the field's type: the test casts it to the
        // class the object is created as, which declares the method the statement is in.
        let handed = handed_out(&file, &held.target).expect("an anonymous class's method");
        assert_eq!(handed.types, ["Counted"]);
        assert_eq!(handed.held_as.as_deref(), Some("Adapter"));
        let ctx = FileContext::new(&file, None, None);
        let (then, ret) =
            then_call(&ctx, &file, &handed, &held.target.method, "Adapters", &mut Vec::new()).expect("a call");
        assert_eq!((then.declared_as.as_str(), then.cast, then.method.as_str()), ("Adapters.Counted", true, "count"));
        assert_eq!(ret, "long");
    }

    #[test]
    fn a_private_reader_is_entered_by_its_callers_and_a_wrapped_object_is_not_cast() {
        let file = SourceFile::parse(SRC);
        let line = line_of(&file, "return i < 0");
        let held = field_held(&file, line).expect("held by a field");
        assert_eq!(held.fields, ["SIGN"]);
        assert_eq!(held.readers.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(), ["sign"]);
        let entries = entries(&file, &held, 4);
        assert_eq!(entries.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(), ["signOf"]);
        // The field holds what a call on the object returns, not the object: no cast to it.
        let handed = handed_out(&file, &held.target).expect("an anonymous class's method");
        assert_eq!(handed.held_as, None);
    }

    #[test]
    fn an_object_a_static_block_stores_in_a_field_is_entered_by_the_methods_reading_that_field() {
        let file = SourceFile::parse(SRC);
        let line = line_of(&file, "System.out.println(\"checked\");");
        let held = field_held(&file, line).expect("stored in a field");
        assert_eq!(held.fields, ["CHECKER"]);
        assert_eq!(held.readers.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(), ["check"]);
        // A statement of a named class's method is no such case.
        assert!(field_held(&file, line_of(&file, "return \"\" + count(value);")).is_none());
        assert!(field_held(&file, line_of(&file, "CHECKER.run();")).is_none());
    }

    #[test]
    fn a_field_a_test_can_read_holding_an_object_with_state_is_where_the_test_calls_the_method() {
        let file = SourceFile::parse(SRC);
        let line = line_of(&file, "return s.trim().length() + extra;");
        // (Not held as `MethodInfo::held_by` says: the object has a field of its own.)
        assert!(jreach_syntax::find_target(&file, line).is_err());
        let held = field_held(&file, line).expect("held by a public field");
        assert!(held.readers.is_empty());
        let m = held.on_field.as_ref().expect("called on the field's object");
        let h = m.held_by.as_ref().expect("held by TRIM");
        assert_eq!(
            (m.name.as_str(), h.member.as_str(), h.cast_to.as_deref()),
            ("count", "TRIM", Some("Adapters.Counted"))
        );
        let starts = crate::search_starts(&file, line, &crate::GenOptions::default());
        assert_eq!(starts.first().and_then(|s| s.held_by.as_ref()).map(|h| h.member.as_str()), Some("TRIM"));
        // A private field's object is not one a test reads.
        let private = field_held(&file, line_of(&file, "return s.length();")).expect("held by LENGTH");
        assert!(private.on_field.is_none());
    }

    #[test]
    fn gen_says_the_model_does_not_follow_a_field_s_object_and_leaves_it_to_a_search() {
        let file = SourceFile::parse(SRC);
        let line = line_of(&file, "return s.length();");
        let got = crate::gen(&file, line, &crate::GenOptions::default()).expect("no error");
        let crate::GenResult::Unknown(why) = got else { panic!("{got:?}") };
        assert!(why.why.contains("the field LENGTH holds"), "{}", why.why);
        let starts = crate::search_starts(&file, line, &crate::GenOptions::default());
        assert!(!starts.is_empty(), "a search starts through forType");
        assert!(starts.iter().all(|s| s.method == "forType"));
        let then = starts[0].then_call.as_ref().expect("then a call of count");
        assert_eq!((then.method.as_str(), then.cast), ("count", true));
    }
}
