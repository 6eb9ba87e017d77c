//! Static fields of the file's classes as variables. On entry a static field holds any value
//! (proofs), the value a test sets (synthesis, for the ones a test in the package can assign:
//! `Config.limit = 5;`), or an unknown the test cannot choose (synthesis, the others). Reads
//! and writes, by simple name or through the class (`Config.limit`), go to the variable; loops
//! that may assign one, and calls jreach cannot see, make them unknown again.
//!
//! Final fields are left out (their constant values are read as such elsewhere), and so are
//! `volatile` ones and those of classes from other packages.

use std::collections::HashSet;

use jreach_syntax::{text_of, MethodInfo, Node, SourceFile};

use super::{enclosing_classes, has_modifier, named_children, Classes, Local, Lowerer};
use crate::func::*;
use crate::types::Ty;

/// A static field jreach tracks as a variable.
#[derive(Clone, Debug)]
pub(super) struct StaticField {
    /// The declaring class as Java code in its package names it (`Config`, `Outer.Inner`).
    pub(super) class: String,
    pub(super) name: String,
    pub(super) ty: Ty,
    /// Synthesis: the index of the input a test assigns it from.
    pub(super) input: Option<usize>,
}

/// A static field of the file's classes that jreach tracks, as declared (the same for every
/// method of the file: [`static_decls`] runs once per file and view of the classes).
#[derive(Clone, Debug)]
pub(super) struct StaticDecl {
    pub(super) class: String,
    pub(super) name: String,
    pub(super) ty: Ty,
    /// The type as written.
    pub(super) java_ty: String,
    /// Whether a test in the package can assign it (not private, its classes visible, a value a
    /// test writes as a literal).
    pub(super) settable: bool,
}

/// The static fields of `file`'s classes that jreach tracks, in source order.
pub(super) fn static_decls(file: &SourceFile, classes: &Classes) -> Vec<StaticDecl> {
    let src = file.text.as_str();
    let mut out = Vec::new();
    let mut stack = vec![file.tree.root_node()];
    let mut decls = Vec::new();
    while let Some(n) = stack.pop() {
        if n.kind() == "field_declaration" {
            decls.push(n);
            continue;
        }
        stack.extend(named_children(n));
    }
    decls.sort_by_key(|n| n.start_byte());
    for d in decls {
        if !has_modifier(d, src, "static") || has_modifier(d, src, "final") || has_modifier(d, src, "volatile") {
            continue;
        }
        let chain = enclosing_classes(d, src);
        let class = chain.join(".");
        let Some(&c) = classes.by_name.get(&class) else { continue };
        if classes.foreign.get(c as usize).copied().unwrap_or(true) {
            continue;
        }
        let ty_text = d.child_by_field_name("type").map(|t| text_of(t, src)).unwrap_or("");
        let mut walk = d.walk();
        for decl in d.children_by_field_name("declarator", &mut walk) {
            let Some(name) = decl.child_by_field_name("name").map(|n| text_of(n, src).to_string()) else { continue };
            let ty = match decl.child_by_field_name("dimensions") {
                Some(dims) => classes.arr_of(ty_text, text_of(dims, src).matches('[').count()).map(Ty::Arr),
                None => Some(classes.ty_of(ty_text)),
            };
            let Some(ty) = ty.filter(|t| *t != Ty::Ref) else { continue };
            let settable = !has_modifier(d, src, "private") && class_visible(d, src) && plain_input(classes, ty);
            let java_ty = ty_text.trim().to_string();
            out.push(StaticDecl { class: class.clone(), name, ty, java_ty, settable });
        }
    }
    out
}

/// The static fields jreach tracks (`decls`, from [`static_decls`]), and for synthesis the
/// inputs of those a test can assign and that `method` may use (they are appended to `params`).
pub(super) fn plan_statics(
    file: &SourceFile,
    methods: &[MethodInfo],
    method: &MethodInfo,
    synthesis: bool,
    decls: &[StaticDecl],
    params: &mut Vec<ParamInfo>,
) -> Vec<StaticField> {
    let used = if synthesis { names_used(file, methods, method) } else { HashSet::new() };
    decls
        .iter()
        .map(|d| {
            let input = (synthesis && d.settable && used.contains(&d.name)).then(|| {
                params.push(ParamInfo {
                    name: format!("{}.{}", d.class, d.name),
                    ty: d.ty,
                    java_ty: d.java_ty.clone(),
                });
                params.len() - 1
            });
            StaticField { class: d.class.clone(), name: d.name.clone(), ty: d.ty, input }
        })
        .collect()
}

/// Whether a test in the package can name the classes enclosing declaration `d`: none of them
/// private, the nested ones static.
fn class_visible(d: Node<'_>, src: &str) -> bool {
    let mut n = d.parent();
    let mut nested = false;
    while let Some(p) = n {
        if matches!(p.kind(), "class_declaration" | "enum_declaration" | "interface_declaration") {
            if has_modifier(p, src, "private") || (nested && !has_modifier(p, src, "static")) {
                return false;
            }
            nested = true;
        }
        n = p.parent();
    }
    true
}

/// Whether a test writes a value of type `ty` as a literal: primitives, strings, enum constants
/// and boxed values.
fn plain_input(classes: &Classes, ty: Ty) -> bool {
    match ty {
        Ty::Obj(c) => {
            let d = &classes.descs[c as usize];
            d.is_enum() || d.boxes.is_some()
        }
        Ty::Str => true,
        t => t.is_numeric() || t == Ty::Bool,
    }
}

/// The identifiers in `method` and in the methods and constructors of the file it may call
/// (by name, transitively): the static fields it may use are among them.
fn names_used(file: &SourceFile, all: &[MethodInfo], method: &MethodInfo) -> HashSet<String> {
    let src = file.text.as_str();
    let mut names = HashSet::new();
    let mut seen = HashSet::new();
    let mut todo = vec![method.range.clone()];
    while let Some(r) = todo.pop() {
        if !seen.insert(r.start) {
            continue;
        }
        let Some(m) = all.iter().find(|m| m.range == r) else { continue };
        let mut called = HashSet::new();
        let mut stack = vec![m.body_node(file)];
        while let Some(n) = stack.pop() {
            match n.kind() {
                "identifier" => {
                    names.insert(text_of(n, src).to_string());
                }
                "method_invocation" => {
                    if let Some(name) = n.child_by_field_name("name") {
                        called.insert(text_of(name, src).to_string());
                    }
                }
                "object_creation_expression" => {
                    if let Some(t) = n.child_by_field_name("type") {
                        let t = text_of(t, src);
                        called.insert(t.rsplit('.').next().unwrap_or(t).split('<').next().unwrap_or(t).to_string());
                    }
                }
                _ => {}
            }
            stack.extend(named_children(n));
        }
        // The receiver's constructors run before the method.
        if !m.is_static {
            called.insert(m.classes.last().cloned().unwrap_or_default());
        }
        for c in all {
            if called.contains(&c.name) {
                todo.push(c.range.clone());
            }
        }
    }
    names
}

impl<'t> Lowerer<'t> {
    /// The variables of the static fields, with their values on entry.
    pub(super) fn init_statics(&mut self, statics: Vec<StaticField>, inputs: &[ValueId]) {
        let mut recorded = Vec::new();
        for s in statics {
            let var = self.b.new_var(&format!("{}.{}", s.class, s.name), s.ty);
            let v = match s.input {
                Some(i) => {
                    recorded.push(StaticInput { class: s.class.clone(), field: s.name.clone(), param: i });
                    inputs[i]
                }
                None if self.synthesis() => self.opaque(
                    format!("the value of static field {}.{} when the test runs", s.class, s.name),
                    s.ty,
                    None,
                ),
                None => {
                    self.nondet(NondetKind::Opaque { what: format!("static field {}.{}", s.class, s.name) }, s.ty, None)
                }
            };
            self.assign(var, v);
            let ty = s.ty;
            self.statics.push((s, Local { var, ty, scalar_builder: false }));
        }
        self.b.setup_mut().static_inputs = recorded;
    }

    /// The static field a simple name denotes from the current class, if jreach tracks it.
    pub(super) fn static_field(&self, name: &str) -> Option<Local> {
        let fi = self.field_info(name)?;
        let class = fi.classes.join(".");
        self.statics.iter().find(|(s, _)| s.name == name && s.class == class).map(|(_, l)| *l)
    }

    /// The static field `class.name` (the class as the code names it), if jreach tracks it.
    pub(super) fn static_field_of(&self, class: &str, name: &str) -> Option<Local> {
        let c = *self.classes.by_name.get(class)?;
        let class = &self.classes.descs[c as usize].name;
        self.statics.iter().find(|(s, _)| s.name == name && s.class == *class).map(|(_, l)| *l)
    }

    /// The tracked static field a `field_access` such as `Config.limit` denotes.
    pub(super) fn static_access(&self, e: Node<'_>) -> Option<Local> {
        let (o, f) = (e.child_by_field_name("object")?, e.child_by_field_name("field")?);
        if !matches!(o.kind(), "identifier" | "field_access") || self.names_value(self.text(o)) {
            return None;
        }
        self.static_field_of(self.text(o), self.text(f))
    }
}
