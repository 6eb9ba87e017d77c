//! The methods of a file and the statement a line points at.

use std::fmt;
use std::ops::Range;

use tree_sitter::{Node, QueryCursor, StreamingIterator};

use crate::{source::methods_query, text_of, SourceFile};

/// A formal parameter as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    pub name: String,
    /// The type as written, e.g. `int`, `long[]`, `String`.
    pub ty: String,
}

/// A method or constructor declaration with a body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MethodInfo {
    pub name: String,
    /// Enclosing classes, outermost first (`["Concolic", "SimpleList"]`).
    pub classes: Vec<String>,
    pub package: Option<String>,
    pub params: Vec<Param>,
    /// Return type as written; `void` for constructors.
    pub return_ty: String,
    pub is_static: bool,
    pub is_constructor: bool,
    /// Declared `private` (or taken as such: see `held_by`): no subclass overrides it, and a
    /// test cannot call it.
    pub is_private: bool,
    pub is_public: bool,
    /// Whether its class, or a class enclosing that, is private: a test cannot name the class,
    /// so it reaches the method only through code that calls it ([`MethodInfo::hidden_from_tests`]).
    /// Unlike a private method, another class of the file may still override it.
    pub class_is_private: bool,
    /// Whether the enclosing class is abstract or an interface (no `new C()` possible).
    pub class_is_abstract: bool,
    /// Byte range of the whole declaration.
    pub range: Range<usize>,
    /// Byte range of the body block.
    pub body: Range<usize>,
    /// The declaration contains syntax errors.
    pub has_error: bool,
    /// For a method of a class body without a name of its own, the one object it runs on when a
    /// test can name that object: the enum constant whose body it is (`State.OPEN`), the
    /// static field holding the anonymous class (`TypeAdapters.INTEGER`), or the static method
    /// returning it (`TypeAdapters.atomicLongAdapter(adapter)`). Such a method reads no
    /// state of its own object (the body and, for an enum, the enum declare no instance fields),
    /// so it is taken as static; one the body declares without `@Override` is taken as private
    /// (no code outside the body can call it).
    pub held_by: Option<HeldBy>,
}

/// The member of a class that holds the object a method runs on ([`MethodInfo::held_by`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeldBy {
    /// The enum constant's or the static field's name; its class is the method's `classes`.
    pub member: String,
    /// For a field declared with another type than the one its anonymous class extends
    /// (`TypeAdapter<Calendar> CALENDAR = new IntegerFieldsTypeAdapter<Calendar>(...) {...}`):
    /// that type, raw (`TypeAdapters.IntegerFieldsTypeAdapter`), which a test casts the field
    /// to, since the method may be declared only there.
    pub cast_to: Option<String>,
    /// When `member` is a static method that returns the object (`return new TypeAdapter<T>()
    /// {...};`): its parameters, whose arguments a test writes (`TypeAdapters.adapter(1)`).
    /// What the object captures of them is not part of the method's lowering, so only a run
    /// shows what a call with given arguments does.
    pub returned_by: Option<Vec<Param>>,
}

impl MethodInfo {
    /// The declaration node in `file`'s tree.
    pub fn node<'t>(&self, file: &'t SourceFile) -> Node<'t> {
        find_node(file, &self.range, |k| matches!(k, "method_declaration" | "constructor_declaration"))
            .expect("a MethodInfo's range names a declaration of its file")
    }

    /// Whether it is a method of an anonymous class or of a class declared in a method body that
    /// no member a test can name holds ([`MethodInfo::held_by`]): a test cannot call it, only
    /// the code that creates its object can.
    pub fn in_unnamed_class(&self, file: &SourceFile) -> bool {
        if self.held_by.is_some() {
            return false;
        }
        let Some(class) = self.node(file).parent().and_then(|body| body.parent()) else { return false };
        matches!(class.kind(), "object_creation_expression" | "local_class_declaration")
            || class.parent().is_some_and(|p| p.kind() == "block")
    }

    /// The body node (`block` or `constructor_body`).
    pub fn body_node<'t>(&self, file: &'t SourceFile) -> Node<'t> {
        find_node(file, &self.body, |k| matches!(k, "block" | "constructor_body"))
            .expect("a MethodInfo's body range names a block of its file")
    }

    /// `Outer.Inner` as Java code names the class.
    pub fn class_name(&self) -> String {
        self.classes.join(".")
    }

    /// The top-level class (the one a test class is named after).
    pub fn top_class(&self) -> &str {
        self.classes.first().map(String::as_str).unwrap_or("")
    }

    /// Whether a test cannot call it: it is private, or its class is
    /// ([`MethodInfo::class_is_private`]).
    pub fn hidden_from_tests(&self) -> bool {
        self.is_private || self.class_is_private
    }

    /// Why a test cannot call it, for messages: "`f(int)` is private", "`f(int)` is in the
    /// private class `Outer.Rule`"; `None` when it can.
    pub fn why_hidden(&self) -> Option<String> {
        if self.is_private {
            Some(format!("{} is private", self.signature()))
        } else if self.class_is_private {
            Some(format!("{} is in the private class {}", self.signature(), self.classes.join(".")))
        } else {
            None
        }
    }

    /// `name(type, type)`: how messages name the method.
    pub fn signature(&self) -> String {
        let tys: Vec<&str> = self.params.iter().map(|p| p.ty.as_str()).collect();
        format!("{}({})", self.name, tys.join(", "))
    }

    /// Every method and constructor of `file`, in source order.
    pub fn all(file: &SourceFile) -> Vec<MethodInfo> {
        let query = methods_query();
        let method_ix = query.capture_index_for_name("method").expect("@method capture");
        let mut cursor = QueryCursor::new();
        let mut matches = cursor.matches(query, file.tree.root_node(), file.text.as_bytes());
        let mut out = Vec::new();
        while let Some(m) = matches.next() {
            for cap in m.captures() {
                if cap.index == method_ix {
                    if let Some(info) = MethodInfo::from_node(cap.node, file) {
                        out.push(info);
                    }
                }
            }
        }
        out.sort_by_key(|m| m.range.start);
        out.dedup_by_key(|m| m.range.start);
        out
    }

    /// Builds the info of a `method_declaration` or `constructor_declaration` node.
    pub fn from_node(node: Node<'_>, file: &SourceFile) -> Option<MethodInfo> {
        let src = &file.text;
        let is_constructor = node.kind() == "constructor_declaration";
        let name = text_of(node.child_by_field_name("name")?, src).to_string();
        let body = node.child_by_field_name("body")?;
        let mut is_static = false;
        let mut is_private = false;
        let mut is_public = false;
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            if child.kind() == "modifiers" {
                let mods = text_of(child, src);
                is_static = mods.split_whitespace().any(|w| w == "static");
                is_private = mods.split_whitespace().any(|w| w == "private");
                is_public = mods.split_whitespace().any(|w| w == "public");
            }
        }
        let params = params_of(node, src);
        let return_ty = if is_constructor {
            "void".to_string()
        } else {
            let ty = node.child_by_field_name("type").map(|t| text_of(t, src).to_string()).unwrap_or_default();
            let dims = node.child_by_field_name("dimensions").map(|d| text_of(d, src).to_string()).unwrap_or_default();
            format!("{ty}{dims}")
        };
        let mut classes = Vec::new();
        let mut class_is_abstract = false;
        let mut class_is_private = false;
        let mut up = node.parent();
        let mut first = true;
        while let Some(n) = up {
            if matches!(
                n.kind(),
                "class_declaration" | "enum_declaration" | "record_declaration" | "interface_declaration"
            ) {
                if let Some(cn) = n.child_by_field_name("name") {
                    classes.push(text_of(cn, src).to_string());
                }
                class_is_private |= n
                    .children(&mut n.walk())
                    .any(|ch| ch.kind() == "modifiers" && text_of(ch, src).split_whitespace().any(|w| w == "private"));
                if first {
                    let mut c = n.walk();
                    let abstract_mod = n.children(&mut c).any(|ch| {
                        ch.kind() == "modifiers" && text_of(ch, src).split_whitespace().any(|w| w == "abstract")
                    });
                    class_is_abstract = abstract_mod || n.kind() == "interface_declaration";
                    first = false;
                }
            }
            up = n.parent();
        }
        classes.reverse();
        let held_by = held_by(node, file);
        if held_by.is_some() {
            is_static = true;
            class_is_abstract = false;
            let overrides = node
                .children(&mut node.walk())
                .any(|ch| ch.kind() == "modifiers" && text_of(ch, src).contains("@Override"));
            is_private = is_private || !overrides;
        }
        Some(MethodInfo {
            name,
            classes,
            package: file.package(),
            params,
            return_ty,
            is_static,
            is_constructor,
            is_private,
            is_public,
            class_is_private,
            class_is_abstract,
            range: node.byte_range(),
            body: body.byte_range(),
            has_error: node.has_error(),
            held_by,
        })
    }
}

/// [`MethodInfo::held_by`] of the declaration `method`: the enum constant or static field
/// holding the class body it is declared in, when that object has no state of its own.
fn held_by(method: Node<'_>, file: &SourceFile) -> Option<HeldBy> {
    let src = &file.text;
    let body = method.parent().filter(|b| b.kind() == "class_body")?;
    let declares_fields = |body: Node<'_>, only_instance: bool| {
        named_children(body).into_iter().any(|d| {
            d.kind() == "field_declaration"
                && !(only_instance
                    && named_children(d)
                        .into_iter()
                        .any(|m| m.kind() == "modifiers" && text_of(m, src).split_whitespace().any(|w| w == "static")))
        })
    };
    if declares_fields(body, false) {
        return None;
    }
    let holder = body.parent()?;
    match holder.kind() {
        "enum_constant" => {
            // The enum's own instance fields are the constant's state.
            let enum_body = holder.parent().filter(|b| b.kind() == "enum_body")?;
            let decls = named_children(enum_body).into_iter().find(|d| d.kind() == "enum_body_declarations");
            if decls.is_some_and(|d| declares_fields(d, true)) {
                return None;
            }
            Some(HeldBy {
                member: text_of(holder.child_by_field_name("name")?, src).to_string(),
                cast_to: None,
                returned_by: None,
            })
        }
        "object_creation_expression" => {
            // The member's value is the object, or what calls on it return
            // (`new TypeAdapter<T>() {...}.nullSafe()`), which the test calls the method on.
            let mut value = holder;
            while let Some(call) = value
                .parent()
                .filter(|p| p.kind() == "method_invocation" && p.child_by_field_name("object") == Some(value))
            {
                value = call;
            }
            let wrapped = value != holder;
            if value.parent().is_some_and(|r| r.kind() == "return_statement") {
                return returned_by(value.parent()?, file);
            }
            let declarator = value.parent().filter(|d| d.kind() == "variable_declarator")?;
            if declarator.child_by_field_name("value") != Some(value) {
                return None;
            }
            let field = declarator.parent().filter(|f| f.kind() == "field_declaration")?;
            let mods = named_children(field).into_iter().find(|m| m.kind() == "modifiers").map(|m| text_of(m, src));
            let words: Vec<&str> = mods.map(|m| m.split_whitespace().collect()).unwrap_or_default();
            // A field of a named class (an interface's are static without saying so); a test
            // cannot read a private one.
            let class = field.parent().and_then(|b| b.parent())?;
            let in_class = matches!(
                class.kind(),
                "class_declaration" | "enum_declaration" | "interface_declaration" | "record_declaration"
            );
            let is_static = words.contains(&"static") || class.kind() == "interface_declaration";
            if !(in_class && is_static) || words.contains(&"private") {
                return None;
            }
            let declared = field.child_by_field_name("type").map(|t| text_of(t, src));
            let created = holder.child_by_field_name("type").map(|t| text_of(t, src));
            let cast_to = match (declared, created) {
                // (A wrapper is called through the member's own type.)
                _ if wrapped => None,
                // Raw: the type arguments may name classes the test does not import.
                (Some(d), Some(c)) if d != c => Some(qualified_nested(file, c.split('<').next().unwrap_or(c).trim())),
                _ => None,
            };
            Some(HeldBy {
                member: text_of(declarator.child_by_field_name("name")?, src).to_string(),
                cast_to,
                returned_by: None,
            })
        }
        _ => None,
    }
}

/// [`HeldBy`] for an object that `ret` returns: its method, when that is a static method of a
/// named class that a test can call (not private), and `ret` is its own code (not a lambda's or
/// another class body's).
fn returned_by(ret: Node<'_>, file: &SourceFile) -> Option<HeldBy> {
    let mut up = ret.parent();
    let method = loop {
        let n = up?;
        match n.kind() {
            "method_declaration" => break n,
            "lambda_expression" | "class_body" | "constructor_declaration" => return None,
            _ => up = n.parent(),
        }
    };
    let class = method.parent().and_then(|b| b.parent())?;
    if !matches!(
        class.kind(),
        "class_declaration" | "enum_declaration" | "interface_declaration" | "record_declaration"
    ) || class.parent().is_some_and(|p| p.kind() == "block")
    {
        return None;
    }
    let m = MethodInfo::from_node(method, file)?;
    if !m.is_static || m.is_private || m.class_is_private || m.has_error {
        return None;
    }
    Some(HeldBy { member: m.name, cast_to: None, returned_by: Some(m.params) })
}

/// The parameters of a method, constructor or record declaration (a record's components), as
/// written; a varargs parameter as an array (`String...` → `String[]`).
pub fn params_of(node: Node<'_>, src: &str) -> Vec<Param> {
    let mut params = Vec::new();
    let Some(plist) = node.child_by_field_name("parameters") else { return params };
    let mut c = plist.walk();
    for p in plist.named_children(&mut c) {
        match p.kind() {
            "formal_parameter" => {
                let ty = p.child_by_field_name("type").map(|t| text_of(t, src).to_string()).unwrap_or_default();
                let pname = p.child_by_field_name("name").map(|t| text_of(t, src).to_string()).unwrap_or_default();
                let dims = p.child_by_field_name("dimensions").map(|d| text_of(d, src).to_string()).unwrap_or_default();
                params.push(Param { name: pname, ty: format!("{ty}{dims}") });
            }
            "spread_parameter" => {
                let text = text_of(p, src);
                let (ty, pname) = text.rsplit_once(' ').unwrap_or((text, ""));
                params.push(Param { name: pname.to_string(), ty: ty.trim().replace("...", "[]") });
            }
            _ => {}
        }
    }
    params
}

/// `ty` (as written inside the file's classes) as a test class of the same package names it: a
/// class nested in the file's classes by its dotted chain (`IntegerFieldsTypeAdapter<Calendar>`
/// → `TypeAdapters.IntegerFieldsTypeAdapter<Calendar>`); other types as written.
pub fn qualified_nested(file: &SourceFile, ty: &str) -> String {
    let (base, rest) = ty.split_at(ty.find('<').unwrap_or(ty.len()));
    if base.contains('.') {
        return ty.to_string();
    }
    let mut stack = vec![(file.tree.root_node(), Vec::<String>::new())];
    while let Some((n, chain)) = stack.pop() {
        let mut chain = chain;
        if matches!(n.kind(), "class_declaration" | "interface_declaration" | "enum_declaration" | "record_declaration")
        {
            let Some(name) = n.child_by_field_name("name").map(|c| text_of(c, &file.text)) else { continue };
            chain.push(name.to_string());
            if name == base.trim() && chain.len() > 1 {
                return format!("{}{rest}", chain.join("."));
            }
        }
        for c in named_children(n) {
            stack.push((c, chain.clone()));
        }
    }
    // A class the file imports (`import a.b.TypeAdapters.IntegerFieldsTypeAdapter;`) by the name
    // it imports, which a test of another file does not import.
    let imported = named_children(file.tree.root_node()).into_iter().find_map(|d| {
        let text = text_of(d, &file.text);
        let name = text.strip_prefix("import")?.trim().strip_suffix(';')?.trim();
        (d.kind() == "import_declaration"
            && !name.starts_with("static ")
            && name.rsplit('.').next() == Some(base.trim()))
        .then(|| name.to_string())
    });
    match imported {
        Some(name) => format!("{name}{rest}"),
        None => ty.to_string(),
    }
}

fn named_children(n: Node<'_>) -> Vec<Node<'_>> {
    let mut c = n.walk();
    n.named_children(&mut c).collect()
}

fn find_node<'t>(file: &'t SourceFile, range: &Range<usize>, kind_ok: impl Fn(&str) -> bool) -> Option<Node<'t>> {
    let mut n = file.tree.root_node().descendant_for_byte_range(range.start, range.end)?;
    loop {
        if n.byte_range() == *range && kind_ok(n.kind()) {
            return Some(n);
        }
        n = n.parent()?;
    }
}

/// The statement a line points at.
#[derive(Clone, Debug)]
pub struct Target {
    /// The method whose run reaches the statement: the one it is written in, or for a statement
    /// of a lambda or of a local or anonymous class (see `enclosure`), the method that creates it.
    pub method: MethodInfo,
    /// Byte range of the innermost statement starting on the line.
    pub stmt: Range<usize>,
    /// 0-based line where the statement's code is ([`code_line`]): the line asked for, or a
    /// later one when annotations or modifiers of a local variable come first on their own
    /// lines. Tests, the runner and coverage tools speak of this line.
    pub line: usize,
    /// Set when the statement is in a lambda, or in a method of a local or anonymous class that
    /// no member holds (`MethodInfo::held_by`), inside `method`: it runs only when that code is
    /// called, which a lowering of `method` does not follow (it has no blocks for the
    /// statement), so only a run on the JVM can reach it.
    pub enclosure: Option<Enclosure>,
}

/// What a statement is written in inside its [`Target::method`] (the outermost such thing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Enclosure {
    Lambda,
    LocalOrAnonymousClass,
}

impl Enclosure {
    /// "a lambda", "a local or anonymous class": for messages.
    pub fn describe(self) -> &'static str {
        match self {
            Enclosure::Lambda => "a lambda",
            Enclosure::LocalOrAnonymousClass => "a local or anonymous class",
        }
    }
}

impl Target {
    /// The statement's text on [`Target::line`] (from where the statement starts, if that is
    /// later), trimmed: what a test's comment quotes of it.
    pub fn first_line<'f>(&self, file: &'f SourceFile) -> &'f str {
        let from = file.lines.line_range(self.line).map_or(self.stmt.start, |r| r.start.max(self.stmt.start));
        let from = from.min(self.stmt.end);
        file.text[from..self.stmt.end].lines().next().unwrap_or("").trim()
    }
}

/// Why a line does not name a statement jreach can target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TargetError {
    LineOutOfRange { line: usize, lines: usize },
    NoStatement { line: usize },
    InFieldInitializer { line: usize },
    InLambda { line: usize },
    InInitializer { line: usize },
    InLocalOrAnonymousClass { line: usize },
    NotInMethod { line: usize },
}

impl TargetError {
    /// A statement jreach cannot take as a target yet (in a lambda, a local or anonymous class,
    /// an initializer): an honest "unknown", not a mistake of the user's.
    pub fn not_yet(&self) -> bool {
        matches!(
            self,
            TargetError::InLambda { .. }
                | TargetError::InLocalOrAnonymousClass { .. }
                | TargetError::InInitializer { .. }
                | TargetError::InFieldInitializer { .. }
        )
    }
}

impl fmt::Display for TargetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TargetError::LineOutOfRange { line, lines } => {
                write!(f, "line {} is past the end of the file ({} lines)", line + 1, lines)
            }
            TargetError::NoStatement { line } => write!(f, "line {} holds no statement", line + 1),
            TargetError::InFieldInitializer { line } => {
                write!(f, "line {} is in a field initializer, not in a method body", line + 1)
            }
            TargetError::InLambda { line } => {
                write!(f, "line {} is inside a lambda, which jreach cannot target yet", line + 1)
            }
            TargetError::InInitializer { line } => {
                write!(f, "line {} is in an initializer block, not in a method", line + 1)
            }
            TargetError::InLocalOrAnonymousClass { line } => {
                write!(f, "line {} is in a local or anonymous class, which jreach cannot target yet", line + 1)
            }
            TargetError::NotInMethod { line } => write!(f, "line {} is not inside a method or constructor", line + 1),
        }
    }
}

impl std::error::Error for TargetError {}

/// Node kinds that count as statements for targeting.
pub fn is_statement_kind(kind: &str) -> bool {
    matches!(
        kind,
        "expression_statement"
            | "local_variable_declaration"
            | "if_statement"
            | "while_statement"
            | "for_statement"
            | "enhanced_for_statement"
            | "do_statement"
            | "return_statement"
            | "throw_statement"
            | "break_statement"
            | "continue_statement"
            | "yield_statement"
            | "switch_expression"
            | "try_statement"
            | "try_with_resources_statement"
            | "labeled_statement"
            | "assert_statement"
            | "synchronized_statement"
            | "explicit_constructor_invocation"
            | "local_class_declaration"
    )
}

/// The innermost statement starting on 0-based `line` (where it is written: in a method, an
/// initializer or a class body). The error says why there is none: past the end, only a field's
/// initializer, nothing.
pub fn statement_at(file: &SourceFile, line: usize) -> Result<Node<'_>, TargetError> {
    let Some(range) = file.lines.line_range(line) else {
        return Err(TargetError::LineOutOfRange { line, lines: file.lines.line_count() });
    };
    // Collect statements starting on the line; keep the deepest.
    let mut best: Option<(usize, Node<'_>)> = None;
    let mut stack = vec![(file.tree.root_node(), 0usize)];
    let mut touches_field = false;
    while let Some((node, depth)) = stack.pop() {
        if node.end_byte() < range.start || node.start_byte() > range.end {
            continue;
        }
        if node.kind() == "field_declaration" {
            touches_field = true;
        }
        let start_line = file.lines.line_of(node.start_byte());
        if start_line == line && is_statement_kind(node.kind()) && node.start_byte() >= range.start {
            let better = match best {
                Some((d, _)) => depth > d,
                None => true,
            };
            if better {
                best = Some((depth, node));
            }
        }
        let mut c = node.walk();
        for child in node.named_children(&mut c) {
            stack.push((child, depth + 1));
        }
    }
    let Some((_, stmt)) = best else {
        if touches_field {
            return Err(TargetError::InFieldInitializer { line });
        }
        return Err(TargetError::NoStatement { line });
    };
    Ok(stmt)
}

/// The 0-based line javac gives the first instruction of statement `stmt`: where it starts, but
/// for a local variable declaration, the line of its first variable's name
/// (`@SuppressWarnings("unchecked")` on a line of its own has no code, so no run and no coverage
/// tool ever marks it).
pub fn code_line(file: &SourceFile, stmt: Node<'_>) -> usize {
    let at = match stmt.kind() {
        "local_variable_declaration" => stmt
            .child_by_field_name("declarator")
            .and_then(|d| d.child_by_field_name("name"))
            .map_or(stmt.start_byte(), |n| n.start_byte()),
        _ => stmt.start_byte(),
    };
    file.lines.line_of(at)
}

/// The innermost statement starting on 0-based `line`, and its method.
pub fn find_target(file: &SourceFile, line: usize) -> Result<Target, TargetError> {
    let stmt = statement_at(file, line)?;
    // A statement of a lambda or of a class declared in a method belongs to the method that
    // creates it (the outermost such code decides what the statement is `in`); outside any
    // method, the error names what it is in.
    let mut enclosure: Option<Enclosure> = None;
    let enclosed_error = |enclosure: Option<Enclosure>, otherwise: TargetError| match enclosure {
        Some(Enclosure::Lambda) => TargetError::InLambda { line },
        Some(Enclosure::LocalOrAnonymousClass) => TargetError::InLocalOrAnonymousClass { line },
        None => otherwise,
    };
    let mut up = stmt.parent();
    while let Some(n) = up {
        match n.kind() {
            "lambda_expression" => enclosure = Some(Enclosure::Lambda),
            "method_declaration" | "constructor_declaration" => {
                if let Some(cls) = n.parent().and_then(|b| b.parent()) {
                    let held = || held_by(n, file).is_some();
                    if (matches!(cls.kind(), "object_creation_expression" | "local_class_declaration") && !held())
                        || cls.parent().is_some_and(|p| p.kind() == "block")
                    {
                        // On to the code that declares the class (past its body).
                        enclosure = Some(Enclosure::LocalOrAnonymousClass);
                        up = cls.parent();
                        continue;
                    }
                }
                let method = MethodInfo::from_node(n, file).ok_or(TargetError::NotInMethod { line })?;
                let line = code_line(file, stmt);
                return Ok(Target { method, stmt: stmt.byte_range(), line, enclosure });
            }
            "static_initializer" => return Err(enclosed_error(enclosure, TargetError::InInitializer { line })),
            "field_declaration" => return Err(enclosed_error(enclosure, TargetError::InFieldInitializer { line })),
            "class_body" => return Err(enclosed_error(enclosure, TargetError::InInitializer { line })),
            _ => {}
        }
        up = n.parent();
    }
    Err(enclosed_error(enclosure, TargetError::NotInMethod { line }))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = r#"package p;
class A {
    int f = 3;
    static int g(int a, long[] b) {
        int x = a;
        if (x > 0) { x = 1; }
        Runnable r = () -> {
            System.out.println();
        };
        return x;
    }
    A() { }
    static class B { private void h() { return; } }
}
"#;

    #[test]
    fn methods_are_found() {
        let f = SourceFile::parse(SRC);
        let ms = MethodInfo::all(&f);
        let names: Vec<String> = ms.iter().map(|m| format!("{} {}", m.class_name(), m.signature())).collect();
        assert_eq!(names, ["A g(int, long[])", "A A()", "A.B h()"]);
        assert!(ms[0].is_static && !ms[0].is_constructor);
        assert!(ms[1].is_constructor);
        assert!(ms[2].is_private);
        assert_eq!(ms[0].package.as_deref(), Some("p"));
        assert_eq!(ms[0].node(&f).kind(), "method_declaration");
    }

    #[test]
    fn innermost_statement_on_a_line() {
        let f = SourceFile::parse(SRC);
        let t = find_target(&f, 5).unwrap();
        assert_eq!(&SRC[t.stmt.clone()], "x = 1;");
        assert_eq!(t.method.name, "g");
        let t = find_target(&f, 4).unwrap();
        assert_eq!(&SRC[t.stmt.clone()], "int x = a;");
    }

    #[test]
    fn a_local_declaration_s_code_is_on_the_line_of_its_name() {
        let src = "class A {\n  Object f(Object o) {\n    @SuppressWarnings(\"unchecked\")\n    java.util.List<String> xs =\n        (java.util.List<String>) o;\n    final\n    int n = 1;\n    return xs;\n  }\n}\n";
        let f = SourceFile::parse(src);
        let t = find_target(&f, 2).unwrap();
        assert!(src[t.stmt.clone()].starts_with("@SuppressWarnings"));
        assert_eq!(t.line, 3, "the line of `xs`");
        assert_eq!(t.first_line(&f), "java.util.List<String> xs =");
        assert_eq!(find_target(&f, 5).unwrap().line, 6, "the line of `n`");
        assert_eq!(find_target(&f, 7).unwrap().line, 7);
    }

    #[test]
    fn methods_of_held_class_bodies_run_on_the_member_holding_them() {
        let src = r#"class A {
    public static final Runnable R = new Runnable() {
        @Override
        public void run() {
            int x = 1;
        }
        int helper() { return 2; }
    };
    static final Runnable HIDDEN_STATE = new Runnable() {
        int count;
        @Override
        public void run() { count++; }
    };
    private static final Runnable SECRET = new Runnable() {
        @Override
        public void run() { }
    };
    final Runnable perInstance = new Runnable() {
        @Override
        public void run() { }
    };
    enum E {
        ONE {
            @Override
            int w() { return 1; }
        };
        abstract int w();
    }
    enum Stateful {
        TWO {
            @Override
            int w() { return n; }
        };
        int n = 2;
        abstract int w();
    }
}
"#;
        let f = SourceFile::parse(src);
        let held: Vec<(String, Option<String>, bool, bool)> = MethodInfo::all(&f)
            .into_iter()
            .map(|m| (m.name.clone(), m.held_by.map(|h| h.member), m.is_static, m.is_private))
            .collect();
        let some = |s: &str| Some(s.to_string());
        assert_eq!(
            held,
            [
                ("run".into(), some("R"), true, false),
                // Declared only by the body: no code outside it can call it.
                ("helper".into(), some("R"), true, true),
                // State of its own, a private field, an instance's field: not held.
                ("run".into(), None, false, false),
                ("run".into(), None, false, false),
                ("run".into(), None, false, false),
                ("w".into(), some("ONE"), true, false),
                // The enum's instance field is the constant's state.
                ("w".into(), None, false, false),
            ]
        );
        let t = find_target(&f, 4).unwrap();
        assert_eq!(t.method.held_by, Some(HeldBy { member: "R".into(), cast_to: None, returned_by: None }));
        assert_eq!(find_target(&f, 11).unwrap_err(), TargetError::InLocalOrAnonymousClass { line: 11 });
    }

    #[test]
    fn objects_returned_by_static_methods_and_wrapped_in_fields_are_held() {
        let src = r#"class A {
    public static final Codec HEX = new Codec() {
        @Override
        public String encode(int v) { return "x"; }
    }.guarded().named("hex");
    public static Codec prefixed(String prefix, int width) {
        if (width < 0) {
            return null;
        }
        return new Codec() {
            @Override
            public String encode(int v) { return prefix; }
        };
    }
    private static Codec hidden() {
        return new Codec() {
            @Override
            public String encode(int v) { return "h"; }
        };
    }
    Codec mine() {
        return new Codec() {
            @Override
            public String encode(int v) { return "m"; }
        };
    }
    static java.util.function.Supplier<Codec> later() {
        return () -> new Codec() {
            @Override
            public String encode(int v) { return "l"; }
        };
    }
}
"#;
        let f = SourceFile::parse(src);
        let held: Vec<Option<HeldBy>> =
            MethodInfo::all(&f).into_iter().filter(|m| m.name == "encode").map(|m| m.held_by).collect();
        let params = vec![
            Param { name: "prefix".into(), ty: "String".into() },
            Param { name: "width".into(), ty: "int".into() },
        ];
        assert_eq!(
            held,
            [
                // Behind calls on it: the field's own type is called.
                Some(HeldBy { member: "HEX".into(), cast_to: None, returned_by: None }),
                Some(HeldBy { member: "prefixed".into(), cast_to: None, returned_by: Some(params) }),
                // A private method, an instance method, a lambda's result: no test calls them so.
                None,
                None,
                None,
            ]
        );
    }

    #[test]
    fn a_field_of_a_wider_type_is_cast_to_the_anonymous_class_s_supertype() {
        let src = r#"class A {
    public static final Object LOW = new Base<Integer>(3) {
        @Override
        int level(int x) { return x; }
    };
    static final Base<Integer> SAME = new Base<Integer>(4) {
        @Override
        int level(int x) { return -x; }
    };
    abstract static class Base<T> {
        Base(int n) { }
        abstract int level(int x);
    }
}
"#;
        let f = SourceFile::parse(src);
        let held: Vec<Option<HeldBy>> = MethodInfo::all(&f).into_iter().map(|m| m.held_by).collect();
        // `Base` is nested in `A`: a test class names it `A.Base`, raw (its type arguments may
        // name classes the test does not import).
        assert_eq!(held[0], Some(HeldBy { member: "LOW".into(), cast_to: Some("A.Base".into()), returned_by: None }));
        assert_eq!(held[1], Some(HeldBy { member: "SAME".into(), cast_to: None, returned_by: None }));
        // A class the file imports from another file is named as imported.
        let imported = r#"package p;
import q.Adapters.IntegerFields;
class A {
    public static final Object LOW = new IntegerFields<Long>("a") {
        @Override
        int level(int x) { return x; }
    };
}
"#;
        let f = SourceFile::parse(imported);
        let held = MethodInfo::all(&f).into_iter().next().and_then(|m| m.held_by);
        assert_eq!(held.and_then(|h| h.cast_to).as_deref(), Some("q.Adapters.IntegerFields"));
    }

    #[test]
    fn statements_of_lambdas_and_classes_in_a_method_belong_to_the_method() {
        let src = r#"class A {
    static void sort(java.util.List<String> xs) {
        xs.sort((a, b) -> {
            return a.length() - b.length();
        });
        Runnable r = new Runnable() {
            @Override
            public void run() {
                Runnable inner = () -> {
                    System.out.println();
                };
            }
        };
        class Local {
            void go() {
                int y = 1;
            }
        }
    }
    static final java.util.Comparator<String> BY_LENGTH = (a, b) -> {
        return a.length() - b.length();
    };
}
"#;
        let f = SourceFile::parse(src);
        let at = |line: usize| find_target(&f, line).map(|t| (t.method.name, t.enclosure));
        assert_eq!(at(2), Ok(("sort".into(), None)));
        assert_eq!(at(3), Ok(("sort".into(), Some(Enclosure::Lambda))));
        // The outermost: a lambda in an anonymous class is reached by what creates the class.
        assert_eq!(at(9), Ok(("sort".into(), Some(Enclosure::LocalOrAnonymousClass))));
        assert_eq!(at(15), Ok(("sort".into(), Some(Enclosure::LocalOrAnonymousClass))));
        // Outside any method, the error says what the statement is in.
        assert_eq!(at(20), Err(TargetError::InLambda { line: 20 }));
    }

    #[test]
    fn lines_that_are_not_targets() {
        let f = SourceFile::parse(SRC);
        assert_eq!(find_target(&f, 2).unwrap_err(), TargetError::InFieldInitializer { line: 2 });
        assert_eq!(find_target(&f, 1).unwrap_err(), TargetError::NoStatement { line: 1 });
        assert!(matches!(find_target(&f, 99).unwrap_err(), TargetError::LineOutOfRange { .. }));
    }
}
