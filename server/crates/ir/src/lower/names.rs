//! Names: locals and parameters in their scopes, the fields a simple name denotes, and constant
//! variables, whose reads javac replaces by their value.

use super::*;

impl<'t> Lowerer<'t> {
    pub(super) fn lookup(&self, name: &str) -> Option<Local> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.get(name).copied())
            .or_else(|| self.this_field(name))
            .or_else(|| self.static_field(name))
    }

    /// Whether a simple name denotes a value (a local, a parameter or a field of `this`) rather
    /// than a class.
    pub(super) fn names_value(&self, name: &str) -> bool {
        self.lookup(name).is_some() || self.this_obj_field(name).is_some()
    }

    /// An instance field of the receiver, tracked as a variable (instance methods only).
    pub(super) fn this_field(&self, name: &str) -> Option<Local> {
        if !self.frames.last().is_some_and(|f| f.has_this) {
            return None;
        }
        self.this_fields.get(name).copied()
    }

    pub(super) fn declare(&mut self, name: &str, ty: Ty) -> Var {
        self.declare_local(name, ty, false)
    }

    pub(super) fn declare_local(&mut self, name: &str, ty: Ty, scalar_builder: bool) -> Var {
        let var = self.b.new_var(name, ty);
        self.scopes.last_mut().expect("a scope").insert(name.to_string(), Local { var, ty, scalar_builder });
        var
    }

    pub(super) fn assign(&mut self, var: Var, v: ValueId) {
        let c = self.cur();
        self.b.def_var(var, c, v);
    }

    pub(super) fn read(&mut self, var: Var) -> ValueId {
        let c = self.cur();
        self.b.use_var(var, c)
    }

    pub(super) fn node_at(&self, r: &std::ops::Range<usize>) -> Option<Node<'t>> {
        let mut n = self.file.tree.root_node().descendant_for_byte_range(r.start, r.end)?;
        while n.byte_range() != *r {
            n = n.parent()?;
        }
        Some(n)
    }

    /// Whether `name` is a local variable or parameter in scope.
    pub(super) fn is_local(&self, name: &str) -> bool {
        self.scopes.iter().any(|s| s.contains_key(name))
    }

    /// Whether the field a simple name denotes from the current class is a constant variable
    /// (its reads are the constant, see `collect_fields`).
    pub(super) fn is_constant_field(&self, name: &str) -> bool {
        self.field_info(name).is_some_and(|f| f.constant_init.is_some())
    }

    /// Field `name` of class `c` when it is a constant variable: its constant (evaluated as a
    /// read from the class's own code).
    pub(super) fn constant_field_of(&mut self, c: u16, name: &str, at: Node<'t>) -> Option<ValueId> {
        let class = self.classes.descs[c as usize].name.clone();
        let fi = self.fields.get(name)?.iter().find(|fi| fi.classes.join(".") == class)?.clone();
        fi.constant_init.as_ref()?;
        let saved = std::mem::replace(&mut self.frames.last_mut()?.classes, fi.classes.clone());
        let v = self.field_value(name, at);
        if let Some(f) = self.frames.last_mut() {
            f.classes = saved;
        }
        Some(v)
    }

    /// The field of the file a simple name denotes from the current method: declared by the
    /// innermost enclosing class that declares one, unless a class inside that one may inherit
    /// a field of the name ([`Self::may_inherit_field`]), which then is what the name denotes
    /// and jreach does not know: `None`, as for a name the file does not declare.
    pub(super) fn field_info(&self, name: &str) -> Option<FieldInfo> {
        let classes = self.frames.last().map(|f| f.classes.as_slice()).unwrap_or(&[]);
        self.fields
            .get(name)?
            .iter()
            .filter(|fi| classes.starts_with(&fi.classes))
            .max_by_key(|fi| fi.classes.len())
            .filter(|fi| !self.may_inherit_field(name, fi))
            .cloned()
    }

    /// Whether a class between the current method and the class declaring `fi` (an anonymous
    /// class around the method included) may inherit a field called `name`, which would shadow
    /// `fi` (JLS 6.4.1, 8.3): one of its supertypes is not declared in the file (and is not one
    /// of the JDK's types without fields), or declares or may inherit such a field.
    fn may_inherit_field(&self, name: &str, fi: &FieldInfo) -> bool {
        let Some(frame) = self.frames.last() else { return false };
        let Some(range) = &frame.method else { return false };
        let Some(method) = self.node_at(range) else { return true };
        let mut inner = frame.classes.len().saturating_sub(fi.classes.len());
        let (mut from, mut up) = (method, method.parent());
        while let Some(n) = up {
            match n.kind() {
                "class_declaration" | "enum_declaration" | "record_declaration" | "interface_declaration" => {
                    if inner == 0 {
                        return false;
                    }
                    inner -= 1;
                    if supertypes(n).into_iter().any(|t| !lacks_field(self.file, t, name, 0)) {
                        return true;
                    }
                }
                "object_creation_expression" if from.kind() == "class_body" => {
                    if n.child_by_field_name("type").is_some_and(|t| !lacks_field(self.file, t, name, 0)) {
                        return true;
                    }
                }
                _ => {}
            }
            from = n;
            up = n.parent();
        }
        false
    }

    /// Declares in the current scope what the class of `method` captured from the code around
    /// it ([`captured_variables`]) as unknown values, which shadow fields of the same name (the
    /// method's parameters and locals, declared after, shadow them): at the entry of a lowering
    /// and of every inlined call, whose scopes start empty.
    pub(super) fn declare_captured(&mut self, method: &MethodInfo) {
        for c in captured_variables(self.file, method) {
            let ty = if c.dims > 0 {
                self.classes.arr_of(&c.ty, c.dims).map(Ty::Arr).unwrap_or(Ty::Ref)
            } else {
                self.ty_of(&c.ty)
            };
            let v = self.opaque(format!("`{}`, which the object captured where it was created", c.name), ty, None);
            let var = self.declare(&c.name, ty);
            self.assign(var, v);
        }
    }

    pub(super) fn field_value(&mut self, name: &str, e: Node<'t>) -> ValueId {
        match self.field_info(name) {
            Some(FieldInfo { ty, constant_init: Some(r), .. }) if self.const_depth < 8 => {
                let Some(init) = self.node_at(&r) else { return self.opaque(format!("field {name}"), ty, Some(e)) };
                // A compile-time constant: evaluated in an empty scope.
                self.const_depth += 1;
                let saved = std::mem::replace(&mut self.scopes, vec![HashMap::new()]);
                let v = self.expr(init);
                self.scopes = saved;
                self.const_depth -= 1;
                self.convert(v, ty)
            }
            Some(FieldInfo { ty, .. }) => self.opaque(format!("field {name}"), ty, Some(e)),
            None => self.opaque(format!("`{name}`"), Ty::Ref, Some(e)),
        }
    }

    pub(super) fn ty_of(&self, name: &str) -> Ty {
        self.classes.ty_of(name)
    }

    /// The statement being lowered, else the whole file.
    pub(super) fn cur_node(&self) -> Node<'t> {
        self.current_stmt.unwrap_or_else(|| self.file.tree.root_node())
    }
}

/// Whether `e` is a constant expression (JLS 15.29) as far as the syntax tells: literals,
/// operators, parentheses, casts and names (which must denote constant variables themselves;
/// names that do not are read as the fields they are).
pub(super) fn is_constant_expression(e: Node<'_>, src: &str, constant_name: &dyn Fn(&str) -> bool) -> bool {
    match e.kind() {
        "decimal_integer_literal"
        | "hex_integer_literal"
        | "octal_integer_literal"
        | "binary_integer_literal"
        | "decimal_floating_point_literal"
        | "hex_floating_point_literal"
        | "true"
        | "false"
        | "character_literal"
        | "string_literal" => true,
        "identifier" => constant_name(text_of(e, src)),
        "parenthesized_expression" | "unary_expression" | "binary_expression" | "ternary_expression" => {
            named_children(e).into_iter().all(|k| is_constant_expression(k, src, constant_name))
        }
        "cast_expression" => {
            e.child_by_field_name("value").is_some_and(|v| is_constant_expression(v, src, constant_name))
        }
        "field_access" => e.child_by_field_name("object").is_some_and(|o| o.kind() == "identifier"),
        _ => false,
    }
}

/// The fields of `file` by name, with their types (by `classes`) and the initializers of the
/// constant ones (see `FileContext`).
pub(super) fn collect_fields(file: &SourceFile, classes: &Classes) -> HashMap<String, Vec<FieldInfo>> {
    let src = file.text.as_str();
    let mut fields: HashMap<String, Vec<FieldInfo>> = HashMap::new();
    let node_at = |r: &std::ops::Range<usize>| {
        let mut n = file.tree.root_node().descendant_for_byte_range(r.start, r.end)?;
        while n.byte_range() != *r {
            n = n.parent()?;
        }
        Some(n)
    };
    let mut stack = vec![file.tree.root_node()];
    while let Some(n) = stack.pop() {
        if n.kind() == "field_declaration" {
            let mods = named_children(n).into_iter().find(|c| c.kind() == "modifiers").map(|m| text_of(m, src));
            let words: Vec<&str> = mods.map(|m| m.split_whitespace().collect()).unwrap_or_default();
            let (is_static, is_final) = (words.contains(&"static"), words.contains(&"final"));
            let ty_text = n.child_by_field_name("type").map(|t| text_of(t, src)).unwrap_or("");
            let ty = classes.ty_of(ty_text);
            let mut c = n.walk();
            for d in n.children_by_field_name("declarator", &mut c) {
                let Some(name) = d.child_by_field_name("name") else { continue };
                let dims = d.child_by_field_name("dimensions").is_some();
                // A static final's initializer, and a final instance field's that is a constant
                // expression: javac puts the constant wherever such a field is read, even
                // before the initializer ran (JLS 4.12.4, 13.1).
                let init = d
                    .child_by_field_name("value")
                    .filter(|v| {
                        is_final
                            && !dims
                            && ty != Ty::Ref
                            && (is_static
                                || ((ty == Ty::Str || ty.is_numeric() || ty == Ty::Bool)
                                    && is_constant_expression(*v, src, &|_| true)))
                    })
                    .map(|v| v.byte_range());
                let classes = enclosing_classes(n, src);
                fields.entry(text_of(name, src).to_string()).or_default().push(FieldInfo {
                    ty,
                    constant_init: init,
                    classes,
                    is_static,
                });
            }
            continue;
        }
        stack.extend(named_children(n));
    }
    // A final instance field is a constant only if the names in its initializer are
    // constants too (two rounds settle chains of two).
    for _ in 0..2 {
        let constant = |name: &str| fields.get(name).is_some_and(|fs| fs.iter().any(|f| f.constant_init.is_some()));
        let mut drop = Vec::new();
        for (name, infos) in &fields {
            for (k, fi) in infos.iter().enumerate() {
                let Some(r) = &fi.constant_init else { continue };
                let Some(init) = node_at(r) else { continue };
                if !is_constant_expression(init, src, &constant) {
                    drop.push((name.clone(), k));
                }
            }
        }
        for (name, k) in drop {
            if let Some(fi) = fields.get_mut(&name).and_then(|fs| fs.get_mut(k)) {
                if !fi.is_static {
                    fi.constant_init = None;
                }
            }
        }
    }
    fields
}

/// A variable of the code around a class declared inside code, as declared there.
pub(super) struct Captured {
    pub name: String,
    /// The declared type as written (`var` when it is not written: a lambda's parameter).
    pub ty: String,
    /// Array dimensions written after the name (`int a[]`).
    pub dims: usize,
}

/// For a method of a class declared inside code (an anonymous or local class in a method, a
/// lambda or an initializer): the local variables and parameters of that code, which the object
/// captured and which shadow fields of the same name inside the method (JLS 6.4.1). Every
/// variable declared anywhere in the outermost such code is taken (outside the class's own
/// body): more than are in scope, which only makes a name that is a field read as an unknown
/// value. Empty for a method of a class declared as a member.
pub(super) fn captured_variables(file: &SourceFile, method: &MethodInfo) -> Vec<Captured> {
    let node = method.node(file);
    let Some(own_body) = node.parent().filter(|b| b.kind() == "class_body") else { return vec![] };
    let mut code = None;
    let mut up = own_body.parent();
    while let Some(n) = up {
        let in_class_body = n.parent().is_some_and(|p| p.kind() == "class_body");
        if matches!(
            n.kind(),
            "method_declaration" | "constructor_declaration" | "lambda_expression" | "static_initializer"
        ) || (n.kind() == "block" && in_class_body)
        {
            code = Some(n);
        }
        up = n.parent();
    }
    let Some(code) = code else { return vec![] };
    let src = &file.text;
    let text = |n: Node<'_>| text_of(n, src).to_string();
    let mut out = Vec::new();
    // (`spread`: a `T... xs` parameter, an array of one more dimension.)
    let mut push = |name: Option<Node<'_>>, ty: Option<Node<'_>>, dims: Option<Node<'_>>, spread: usize| {
        if let Some(name) = name.filter(|n| n.kind() == "identifier") {
            out.push(Captured {
                name: text(name),
                ty: ty.map(text).unwrap_or_else(|| "var".into()),
                dims: dims.map(|d| text_of(d, src).matches('[').count()).unwrap_or(0) + spread,
            });
        }
    };
    let mut stack = vec![code];
    while let Some(n) = stack.pop() {
        if n.id() == own_body.id() {
            continue;
        }
        match n.kind() {
            "variable_declarator" if n.parent().is_some_and(|p| p.kind() == "spread_parameter") => {}
            "variable_declarator" => {
                let ty = n.parent().and_then(|d| d.child_by_field_name("type"));
                push(n.child_by_field_name("name"), ty, n.child_by_field_name("dimensions"), 0);
            }
            "formal_parameter" | "catch_formal_parameter" | "resource" | "enhanced_for_statement" => push(
                n.child_by_field_name("name"),
                n.child_by_field_name("type"),
                n.child_by_field_name("dimensions"),
                0,
            ),
            "spread_parameter" => {
                let ty = named_children(n)
                    .into_iter()
                    .find(|c| c.kind() != "variable_declarator" && c.kind() != "modifiers");
                if let Some(d) = named_children(n).into_iter().find(|c| c.kind() == "variable_declarator") {
                    push(d.child_by_field_name("name"), ty, None, 1);
                }
            }
            "instanceof_expression" => push(n.child_by_field_name("name"), n.child_by_field_name("right"), None, 0),
            "lambda_expression" => {
                if let Some(p) = n.child_by_field_name("parameters") {
                    match p.kind() {
                        "identifier" => push(Some(p), None, None, 0),
                        "inferred_parameters" => {
                            named_children(p).into_iter().for_each(|i| push(Some(i), None, None, 0))
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
        stack.extend(named_children(n));
    }
    out
}

/// The types a class, interface, enum or record declaration extends or implements, as written.
fn supertypes(decl: Node<'_>) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    for c in named_children(decl) {
        match c.kind() {
            "superclass" => out.extend(named_children(c)),
            "super_interfaces" | "extends_interfaces" => {
                for list in named_children(c) {
                    if list.kind() == "type_list" {
                        out.extend(named_children(list));
                    } else {
                        out.push(list);
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// JDK types a class may extend or implement that declare no fields a subclass inherits.
const JDK_TYPES_WITHOUT_FIELDS: &[&str] = &[
    "Object",
    "Runnable",
    "Comparator",
    "Comparable",
    "Iterator",
    "Iterable",
    "Callable",
    "AutoCloseable",
    "Closeable",
    "Cloneable",
    "Serializable",
    "Function",
    "BiFunction",
    "Supplier",
    "Consumer",
    "BiConsumer",
    "Predicate",
    "BiPredicate",
    "UnaryOperator",
    "BinaryOperator",
    "IntFunction",
    "IntPredicate",
    "IntUnaryOperator",
    "IntBinaryOperator",
    "ToIntFunction",
    "ToLongFunction",
    "ToDoubleFunction",
    "IntSupplier",
    "BooleanSupplier",
    "LongSupplier",
    "DoubleSupplier",
    "IntConsumer",
];

/// Whether the type `ty` (as written in the file) is known to have no field called `name` that
/// a subtype inherits: a type of the file that declares none and whose own supertypes have
/// none, or one of [`JDK_TYPES_WITHOUT_FIELDS`] that the file does not declare or import from
/// elsewhere. A type jreach does not see may have any field.
fn lacks_field(file: &SourceFile, ty: Node<'_>, name: &str, depth: usize) -> bool {
    if depth > 8 {
        return false;
    }
    let src = &file.text;
    let written = text_of(ty, src);
    let raw = written.split('<').next().unwrap_or(written).trim();
    let simple = raw.rsplit('.').next().unwrap_or(raw).trim();
    let mut decls = Vec::new();
    let mut stack = vec![file.tree.root_node()];
    while let Some(n) = stack.pop() {
        if matches!(n.kind(), "class_declaration" | "interface_declaration" | "enum_declaration" | "record_declaration")
            && n.child_by_field_name("name").is_some_and(|x| text_of(x, src) == simple)
        {
            decls.push(n);
        }
        stack.extend(named_children(n));
    }
    if decls.is_empty() {
        let qualified_jdk = raw.starts_with("java.");
        let imported_elsewhere = named_children(file.tree.root_node()).into_iter().any(|d| {
            d.kind() == "import_declaration" && {
                let t = text_of(d, src);
                let t = t.trim_start_matches("import").trim().trim_end_matches(';').trim();
                t.rsplit('.').next() == Some(simple) && !t.starts_with("java.")
            }
        });
        return JDK_TYPES_WITHOUT_FIELDS.contains(&simple) && (qualified_jdk || (raw == simple && !imported_elsewhere));
    }
    decls.into_iter().all(|d| {
        let Some(body) = d.child_by_field_name("body") else { return false };
        let mut members = named_children(body);
        // An enum's fields and methods follow its constants.
        if let Some(more) = members.iter().find(|m| m.kind() == "enum_body_declarations").copied() {
            members.extend(named_children(more));
        }
        let declares = members.iter().any(|m| match m.kind() {
            "field_declaration" | "constant_declaration" => named_children(*m).into_iter().any(|v| {
                v.kind() == "variable_declarator"
                    && v.child_by_field_name("name").is_some_and(|x| text_of(x, src) == name)
            }),
            "enum_constant" => m.child_by_field_name("name").is_some_and(|x| text_of(x, src) == name),
            _ => false,
        });
        !declares && supertypes(d).into_iter().all(|t| lacks_field(file, t, name, depth + 1))
    })
}
