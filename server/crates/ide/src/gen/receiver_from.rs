//! Where a test gets an object of a class it can neither create nor name: a private nested
//! class, an inner class, a class without an accessible constructor. The code of the file hands
//! such objects out itself: a method a test can call returns one (`return new
//! WildcardTypeImpl(...)` in `GsonTypes.subtypeOf`, `return new ListIterator(...)` in
//! `Bag.iterator()`), or a static field a test can read holds one (`TypeAdapters.FLOAT = new
//! FloatAdapter(false)`). A test declares it as the type that member declares (`WildcardType`,
//! `Iterator`, `TypeAdapter`) and calls the method under test on it, which it can when the method
//! overrides one of that type; a class a test can name but not create (its constructors private)
//! is declared as itself (`FormattingStyle.COMPACT.withIndent(s)`). Only a search on the JVM uses
//! such a receiver: what the object holds is not in the model, and every test it finds is
//! verified on the JVM as usual.

use jreach_ir::lower::FileContext;
use jreach_syntax::tree::{has_modifier, named_children};
use jreach_syntax::{text_of, MethodInfo, Node, SourceFile};
use jreach_synth::{JavaValue, ReceiverFrom, ReceiverHolder};

use super::receiver::{is_static_nested, receiver_constructor};
use super::start::searched_args;

/// At most this many places a test gets the receiver from are searched (each takes a share of
/// the search's time).
const SOURCES_MAX: usize = 2;

/// For instance method `m` of a class a test can neither create nor name, overriding a method
/// (`@Override`): the members of the file's classes that a test can use and that hold or return
/// a new object of exactly that class, with the arguments a search starts from, fields first,
/// then methods by fewest parameters; and the qualified names of the types a test may need to
/// import. Empty for any other method, and when no such member exists.
pub(crate) fn receiver_sources(ctx: &FileContext<'_>, m: &MethodInfo) -> (Vec<ReceiverFrom>, Vec<String>) {
    let file = ctx.file();
    let mut imports = Vec::new();
    if m.is_static || m.is_constructor || m.is_private || m.has_error || m.held_by.is_some() {
        return (vec![], imports);
    }
    let inner = m.classes.len() > 1 && !is_static_nested(file, m);
    // A class a test can name is declared as itself (`FormattingStyle.COMPACT.withIndent(s)`,
    // its constructor private); any other only as a type it overrides a method of.
    let named = !m.class_is_private && !inner;
    if !named && !overrides(file, m) {
        return (vec![], imports);
    }
    let made = !m.class_is_private && !inner && !m.class_is_abstract && receiver_constructor(ctx, m).is_ok();
    if made || m.in_unnamed_class(file) {
        return (vec![], imports);
    }
    let Some(class) = m.classes.last() else { return (vec![], imports) };
    // (The class under test is a candidate value of a `Class` or `Type`: one a test can name.)
    let own = m.top_class().to_string();
    let mut found: Vec<(usize, ReceiverFrom)> = Vec::new();
    for creation in creations_of(file, class) {
        if let Some(from) = held_in_field(file, creation) {
            found.push((0, from));
            continue;
        }
        let Some(method) = returned_by(creation) else { continue };
        let Some(f) = MethodInfo::from_node(method, file) else { continue };
        if f.hidden_from_tests() || f.has_error || f.is_constructor || f.classes == m.classes || f.held_by.is_some() {
            continue;
        }
        if f.in_unnamed_class(file) || found.iter().any(|(_, k)| k.member == f.name) {
            continue;
        }
        let Some(declared_as) = declared_type(file, method, &f.return_ty) else { continue };
        let Some(args) = searched_args(ctx, &f.params, &own, &mut imports) else { continue };
        let on = match f.is_static {
            true => ReceiverHolder::Class(f.class_name()),
            false => match holder_object(ctx, &f, &own, &mut imports) {
                Some(v) => ReceiverHolder::Object(v),
                None => continue,
            },
        };
        let from = ReceiverFrom { declared_as, on, member: f.name.clone(), args: Some(args) };
        found.push((1 + f.params.len(), from));
    }
    found.sort_by_key(|(rank, _)| *rank);
    found.truncate(SOURCES_MAX);
    // A type the file imports is declared by its simple name and imported.
    for (_, from) in &mut found {
        from.declared_as = imported_by_simple_name(&from.declared_as, &mut imports);
    }
    (found.into_iter().map(|(_, f)| f).collect(), imports)
}

/// For a default method `m` of an interface of the file with one abstract method (and no
/// interface it extends, whose abstract methods the file does not show): a lambda a test writes
/// as the receiver, declared as the raw interface (`TriConsumer obj = (ignored1, ignored2,
/// ignored3) -> { };`), returning what a search moves (a number, a string, else `null`).
pub(crate) fn lambda_receiver(whole: &FileContext<'_>, m: &MethodInfo) -> Option<ReceiverFrom> {
    let file = whole.file();
    if m.is_static || m.is_constructor || m.is_private || m.has_error || m.class_is_private {
        return None;
    }
    let node = m.node(file);
    let interface = node.parent().and_then(|body| body.parent()).filter(|d| d.kind() == "interface_declaration")?;
    if named_children(interface).iter().any(|c| c.kind() == "extends_interfaces") {
        return None;
    }
    let simple = text_of(interface.child_by_field_name("name")?, &file.text);
    if m.classes.last().map(String::as_str) != Some(simple) || !has_modifier(node, &file.text, "default") {
        return None;
    }
    let declared_as = m.classes.join(".");
    let lambda = lambda_of(whole, simple, &declared_as)?;
    Some(ReceiverFrom { declared_as, on: ReceiverHolder::Value(lambda), member: String::new(), args: None })
}

/// A lambda of the functional interface `ty` (as written; one of the JDK's or an interface of
/// the source with one abstract method), named `interface` as a test names it, that returns
/// what a search moves (a number, a string, else `null`) or nothing.
pub(crate) fn lambda_of(whole: &FileContext<'_>, ty: &str, interface: &str) -> Option<JavaValue> {
    let raw = ty.split('<').next().unwrap_or(ty).trim();
    let simple = raw.rsplit('.').next().unwrap_or(raw);
    let method = super::result_call::functional_method(whole, simple)?;
    let ret = method.return_ty.trim();
    let returns = match ret {
        "void" => None,
        _ => Some(Box::new((ret.to_string(), super::start::search_value(ret).unwrap_or(JavaValue::Null)))),
    };
    Some(JavaValue::Lambda { interface: interface.to_string(), arity: method.params.len(), returns, special: vec![] })
}

/// `qualified` (a class as [`jreach_syntax::qualified_nested`] names it) as a test writes it: a
/// class of a package by its simple name, its qualified name added to `imports`; any other
/// (a class of the test's package, a nested one by its chain) as it is.
pub(crate) fn imported_by_simple_name(qualified: &str, imports: &mut Vec<String>) -> String {
    match qualified.rsplit_once('.').filter(|(p, _)| p.starts_with(char::is_lowercase)) {
        Some((_, simple)) => {
            if !imports.iter().any(|i| i == qualified) {
                imports.push(qualified.to_string());
            }
            simple.to_string()
        }
        None => qualified.to_string(),
    }
}

/// Whether `m` overrides a method: a test can then call it through the type it overrides a
/// method of. It says so (`@Override`), or, unsaid, it is public and a method of `Object`
/// (`toString()`) or of a JDK interface its class implements (`next()` of an `Iterator`).
pub(crate) fn overrides(file: &SourceFile, m: &MethodInfo) -> bool {
    let node = m.node(file);
    let src = file.text.as_str();
    let modifiers = named_children(node).into_iter().find(|c| c.kind() == "modifiers");
    let modifiers = modifiers.map_or("", |c| text_of(c, src));
    if modifiers.contains("@Override") {
        return true;
    }
    if !modifiers.split_whitespace().any(|w| w == "public") || m.is_static {
        return false;
    }
    let arity = m.params.len();
    if matches!((m.name.as_str(), arity), ("toString" | "hashCode", 0) | ("equals", 1)) {
        return true;
    }
    let Some(class) = node.parent().and_then(|body| body.parent()) else { return false };
    jreach_syntax::tree::supertypes(class, src).iter().any(|ty| {
        let raw = jreach_syntax::erase(ty);
        let simple = raw.rsplit('.').next().unwrap_or(&raw);
        JDK_INTERFACE_METHODS.iter().any(|(i, name, k)| *i == simple && *name == m.name && *k == arity)
    })
}

/// Methods of JDK interfaces classes implement most (interface, method, number of parameters).
const JDK_INTERFACE_METHODS: &[(&str, &str, usize)] = &[
    ("Iterator", "hasNext", 0),
    ("Iterator", "next", 0),
    ("Iterator", "remove", 0),
    ("ListIterator", "hasNext", 0),
    ("ListIterator", "next", 0),
    ("ListIterator", "hasPrevious", 0),
    ("ListIterator", "previous", 0),
    ("Iterable", "iterator", 0),
    ("Enumeration", "hasMoreElements", 0),
    ("Enumeration", "nextElement", 0),
    ("Comparable", "compareTo", 1),
    ("Comparator", "compare", 2),
    ("Runnable", "run", 0),
    ("Callable", "call", 0),
    ("AutoCloseable", "close", 0),
    ("Closeable", "close", 0),
    ("Supplier", "get", 0),
    ("Function", "apply", 1),
    ("BiFunction", "apply", 2),
    ("Consumer", "accept", 1),
    ("BiConsumer", "accept", 2),
    ("Predicate", "test", 1),
    ("CharSequence", "length", 0),
    ("CharSequence", "charAt", 1),
    ("CharSequence", "subSequence", 2),
    ("InvocationHandler", "invoke", 3),
];

/// The `new C(...)` expressions of the file that create exactly class `class` (no anonymous
/// subclass of it).
pub(crate) fn creations_of<'t>(file: &'t SourceFile, class: &str) -> Vec<Node<'t>> {
    let mut out = Vec::new();
    let mut stack = vec![file.tree.root_node()];
    while let Some(n) = stack.pop() {
        if n.kind() == "object_creation_expression" && n.child_by_field_name("body").is_none() {
            let ty = n.child_by_field_name("type").map(|t| text_of(t, &file.text)).unwrap_or("");
            let base = ty.split('<').next().unwrap_or(ty).trim();
            if base.rsplit('.').next() == Some(class) {
                out.push(n);
            }
        }
        stack.extend(named_children(n).into_iter().rev());
    }
    out
}

/// The static field a test can read whose initializer is `creation` itself, as the field's
/// class, name and raw declared type.
fn held_in_field(file: &SourceFile, creation: Node<'_>) -> Option<ReceiverFrom> {
    let src = file.text.as_str();
    let declarator = creation.parent().filter(|d| d.kind() == "variable_declarator")?;
    let field = declarator.parent().filter(|f| f.kind() == "field_declaration")?;
    let class = field.parent().and_then(|b| b.parent())?;
    if !matches!(class.kind(), "class_declaration" | "enum_declaration" | "interface_declaration") {
        return None;
    }
    let holder = readable_static_field(file, field)?;
    let declared = text_of(field.child_by_field_name("type")?, src);
    let declared_as = raw_in_test(file, declared)?;
    Some(ReceiverFrom {
        declared_as,
        on: ReceiverHolder::Class(holder.join(".")),
        member: text_of(declarator.child_by_field_name("name")?, src).to_string(),
        args: None,
    })
}

/// For a field declaration a test can read (static, or an interface's; not private; in classes
/// declared outside any method, none of them private): the names of its classes from the
/// top-level one down, through which a test names it. `None` for any other field.
pub(crate) fn readable_static_field(file: &SourceFile, field: Node<'_>) -> Option<Vec<String>> {
    let src = file.text.as_str();
    let class = field.parent().and_then(|b| b.parent())?;
    let is_static = has_modifier(field, src, "static") || class.kind() == "interface_declaration";
    if !is_static || has_modifier(field, src, "private") || class_chain_hidden(file, class) {
        return None;
    }
    class_chain(file, class)
}

/// The names of the classes from the top-level one down to `class`.
fn class_chain(file: &SourceFile, class: Node<'_>) -> Option<Vec<String>> {
    let mut chain = Vec::new();
    let mut n = Some(class);
    while let Some(c) = n {
        if matches!(c.kind(), "class_declaration" | "enum_declaration" | "interface_declaration" | "record_declaration")
        {
            chain.push(text_of(c.child_by_field_name("name")?, &file.text).to_string());
        }
        if matches!(c.kind(), "block" | "object_creation_expression") {
            return None;
        }
        n = c.parent();
    }
    chain.reverse();
    Some(chain)
}

/// Whether `class` or a class around it is private.
fn class_chain_hidden(file: &SourceFile, class: Node<'_>) -> bool {
    let mut n = Some(class);
    while let Some(c) = n {
        if c.kind().ends_with("_declaration") && has_modifier(c, &file.text, "private") {
            return true;
        }
        n = c.parent();
    }
    false
}

/// The method whose `return` statement gives back `creation` (as it is, or as a branch of a
/// conditional or in parentheses), when that return is the method's own code (not a lambda's
/// nor another class body's).
pub(crate) fn returned_by(creation: Node<'_>) -> Option<Node<'_>> {
    let mut n = creation.parent()?;
    while matches!(n.kind(), "parenthesized_expression" | "ternary_expression") {
        n = n.parent()?;
    }
    if n.kind() != "return_statement" {
        return None;
    }
    let mut up = n.parent();
    while let Some(p) = up {
        match p.kind() {
            "method_declaration" => return Some(p),
            "lambda_expression" | "class_body" | "constructor_declaration" => return None,
            _ => up = p.parent(),
        }
    }
    None
}

/// The type variables declared by `node` and the declarations around it (methods and classes).
pub(crate) fn type_variables(file: &SourceFile, node: Node<'_>) -> Vec<String> {
    let mut vars = Vec::new();
    let mut n = Some(node);
    while let Some(c) = n {
        if let Some(params) = c.child_by_field_name("type_parameters") {
            for p in named_children(params) {
                let name = named_children(p).into_iter().find(|k| k.kind() == "type_identifier");
                vars.extend(name.map(|k| text_of(k, &file.text).to_string()));
            }
        }
        n = c.parent();
    }
    vars
}

/// `ty` (a method's return type as written), raw, when a test can declare a variable of it: not
/// one of the type variables of `method` or of the classes around it.
fn declared_type(file: &SourceFile, method: Node<'_>, ty: &str) -> Option<String> {
    let base = ty.split('<').next().unwrap_or(ty).trim();
    if type_variables(file, method).iter().any(|v| v == base) || base == "void" {
        return None;
    }
    raw_in_test(file, ty)
}

/// `ty` (a parameter's type, type variables instantiated where jreach could) as a test of the
/// file's package declares a variable of it: a class nested in the file by its chain of classes
/// (`Functions.FailablePredicate<Integer, RuntimeException>`), raw when a type argument is still
/// one of the type variables around `node` (`FailablePredicate<Integer, T>`).
pub(crate) fn declarable_in_test(file: &SourceFile, node: Node<'_>, ty: &str) -> String {
    let ty = ty.trim().trim_start_matches("final ").trim();
    let Some(raw) = raw_in_test(file, ty) else { return ty.to_string() };
    let Some((_, args)) = ty.split_once('<') else { return raw };
    let vars = type_variables(file, node);
    let words = args.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == '?'));
    match words.filter(|w| !w.is_empty()).any(|w| vars.iter().any(|v| v == w)) {
        true => raw,
        false => format!("{raw}<{args}"),
    }
}

/// `ty` raw (without type arguments), named as a test of the file's package names it: a class
/// nested in the file by its chain of classes; `None` for a primitive or an array.
fn raw_in_test(file: &SourceFile, ty: &str) -> Option<String> {
    let base = ty.split('<').next().unwrap_or(ty).trim();
    if base.is_empty() || base.ends_with(']') || base.chars().next().is_some_and(char::is_lowercase) {
        return None;
    }
    Some(jreach_syntax::qualified_nested(file, base))
}

/// The object a test calls instance method `f` on: its class made with `new C()` or with the
/// accessible constructor whose arguments a search writes.
fn holder_object(ctx: &FileContext<'_>, f: &MethodInfo, own: &str, imports: &mut Vec<String>) -> Option<JavaValue> {
    let inner = f.classes.len() > 1 && !is_static_nested(ctx.file(), f);
    if inner || f.class_is_abstract {
        return None;
    }
    Some(match receiver_constructor(ctx, f).ok()? {
        None => JavaValue::new_with(f.class_name(), vec![]),
        Some(ctor) => {
            let args = searched_args(ctx, &ctor.params, own, imports)?;
            super::overloads::constructed(ctx, f.class_name(), &ctor, args, imports)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_of_private_classes_come_from_the_members_handing_them_out() {
        let src = r#"package p;
import java.util.Iterator;
public class Shapes {
    public static final Shape UNIT = new Square(1);
    private static final Shape HIDDEN = new Square(2);
    public static Shape square(int side) {
        return side > 0 ? new Square(side) : null;
    }
    public Iterator<Integer> sides() {
        return new Sides();
    }
    public interface Shape {
        int area();
    }
    private static class Square implements Shape {
        final int side;
        Square(int side) { this.side = side; }
        @Override
        public int area() {
            return side * side;
        }
        public int perimeter() {
            return 4 * side;
        }
    }
    private class Sides implements Iterator<Integer> {
        @Override
        public boolean hasNext() {
            return true;
        }
        public Integer next() {
            return 4;
        }
    }
}
"#;
        let file = SourceFile::parse(src);
        let ctx = FileContext::new(&file, None, None);
        let method = |name: &str| ctx.methods().iter().find(|m| m.name == name).unwrap().clone();
        let written = |name: &str| {
            let (sources, imports) = receiver_sources(&ctx, &method(name));
            let lines: Vec<String> =
                sources.iter().map(|f| format!("{} obj = {};", f.declared_as, f.expression())).collect();
            (lines, imports)
        };
        // The public field first (the private one a test cannot read), then the method.
        let (area, _) = written("area");
        assert_eq!(area, ["Shapes.Shape obj = Shapes.UNIT;", "Shapes.Shape obj = Shapes.square(1);"]);
        // Not an override: no type a test names declares it.
        assert!(written("perimeter").0.is_empty());
        // An inner class's object from an instance method, declared as the imported interface
        // (`next()` overrides `Iterator`'s, unsaid).
        let (next, imports) = written("next");
        assert_eq!(next, ["Iterator obj = new Shapes().sides();"]);
        assert_eq!(imports, ["java.util.Iterator"]);
    }

    #[test]
    fn a_class_a_test_names_but_cannot_create_is_declared_as_itself() {
        let src = r#"package p;
public final class Style {
    public static final Style COMPACT = new Style("");
    private static final Style HIDDEN = new Style("  ");
    private final String indent;
    private Style(String indent) {
        if (!indent.matches("[ ]*")) throw new IllegalArgumentException(indent);
        this.indent = indent;
    }
    public Style withIndent(String indent) {
        return new Style(indent);
    }
}
"#;
        let file = SourceFile::parse(src);
        let ctx = FileContext::new(&file, None, None);
        let m = ctx.methods().iter().find(|m| m.name == "withIndent").unwrap().clone();
        let (sources, _) = receiver_sources(&ctx, &m);
        let lines: Vec<String> =
            sources.iter().map(|f| format!("{} obj = {};", f.declared_as, f.expression())).collect();
        // The public field (not the private one, nor `withIndent` itself, which needs one).
        assert_eq!(lines, ["Style obj = Style.COMPACT;"]);
    }

    #[test]
    fn a_default_method_of_a_functional_interface_runs_on_a_lambda() {
        let src = r#"package p;
public interface Op<E extends Throwable> {
    int apply(int t) throws E;
    default Op<E> twice() {
        return t -> apply(apply(t));
    }
    static <E extends Throwable> Op<E> identity() {
        return t -> t;
    }
    interface Sink<T> {
        void accept(T t, String s);
        default void log() {
            int x = 1;
        }
    }
    interface Two extends Sink<String> {
        default void more() {
            int y = 2;
        }
    }
}
"#;
        let file = SourceFile::parse(src);
        let ctx = FileContext::new(&file, None, None);
        let method = |name: &str| ctx.methods().iter().find(|m| m.name == name).unwrap().clone();
        let written = |name: &str| {
            lambda_receiver(&ctx, &method(name)).map(|f| format!("{} obj = {};", f.declared_as, f.expression()))
        };
        assert_eq!(written("twice").as_deref(), Some("Op obj = ignored -> 1;"));
        assert_eq!(written("log").as_deref(), Some("Op.Sink obj = (ignored1, ignored2) -> { };"));
        // Not a default method; an interface whose inherited abstract methods the file does not show.
        assert_eq!(written("identity"), None);
        assert_eq!(written("more"), None);
        // A parameter of such a type may be a lambda too.
        let lambda = lambda_of(&ctx, "Sink<? super T>", "Op.Sink").map(|v| jreach_synth::literal(&v));
        assert_eq!(lambda.as_deref(), Some("(ignored1, ignored2) -> { }"));
    }

    #[test]
    fn a_lambda_is_declared_as_a_test_names_its_interface_and_never_for_a_generic_method() {
        let src = r#"package p;
public class Functions {
    public interface Pred<I, T extends Throwable> {
        boolean test(I i) throws T;
    }
    public interface Factory {
        <T> T create(Class<T> type);
    }
    public static <O, T extends Throwable> boolean test(Pred<O, T> p, O o, Factory f) {
        return true;
    }
}
"#;
        let file = SourceFile::parse(src);
        let ctx = FileContext::new(&file, None, None);
        let test = ctx.methods().iter().find(|m| m.name == "test" && m.is_static).unwrap().clone();
        let node = test.node(&file);
        // Nested in the file: by its chain; a type variable left among its arguments: raw.
        assert_eq!(declarable_in_test(&file, node, "Pred<Integer, T>"), "Functions.Pred");
        assert_eq!(
            declarable_in_test(&file, node, "Pred<Integer, RuntimeException>"),
            "Functions.Pred<Integer, RuntimeException>"
        );
        assert_eq!(
            declarable_in_test(&file, node, "java.util.function.Supplier<String>"),
            "java.util.function.Supplier<String>"
        );
        // `create` is generic: no lambda implements it.
        assert!(lambda_of(&ctx, "Pred<Integer, T>", "Functions.Pred").is_some());
        assert!(lambda_of(&ctx, "Factory", "Functions.Factory").is_none());
    }
}
