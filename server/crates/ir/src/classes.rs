//! The classes of one file as jreach models them (`Classes`): for each class declared in the
//! file (and the JDK types it models: boxes, `List`, `Map`, `Optional`, string builders), its
//! fields, whether a test can build it, its superclass chain, and the methods a lambda or an
//! anonymous class implements; by simple and by dotted name. Types as written resolve to IR types
//! here (`Classes::ty_of`).

use std::collections::HashMap;
use std::rc::Rc;

use jreach_syntax::tree::{has_modifier, named_children};
use jreach_syntax::{text_of, MethodInfo, Node, SourceFile};

use crate::func::*;
use crate::types::{ArrTy, Ty};

/// The file's classes whose objects jreach models, by name.
#[derive(Clone, Debug, Default)]
pub(crate) struct Classes {
    pub(crate) descs: Vec<ClassDesc>,
    /// By simple name and by dotted chain.
    pub(crate) by_name: HashMap<String, u16>,
    /// Per class: whether `new C(...)` runs its own constructors, which jreach inlines (a
    /// concrete top-level or static class without instance initializer blocks whose superclass
    /// chain jreach sees, see `supers`); a test creates objects so too unless it is `hidden`.
    pub(crate) constructible: Vec<bool>,
    /// Per class: the byte range of its body.
    pub(crate) bodies: Vec<Option<std::ops::Range<usize>>>,
    /// Per class: whether it comes from another package, so that a test may use only its
    /// public members.
    pub(crate) foreign: Vec<bool>,
    /// Per class: whether `new C()` runs the implicit constructor (a constructible class that
    /// declares none: the superclass's constructor, then the field initializers).
    pub(crate) implicit_ctor: Vec<bool>,
    /// Per class: its superclass when jreach sees the whole chain above it (classes of the
    /// file, the last extending nothing, no instance initializer blocks, no field declared
    /// twice along it). The class's `fields` then start with the superclass's.
    pub(crate) supers: Vec<Option<u16>>,
    /// Per class: whether some class may extend it (it is not final, and a class of the file
    /// extends it or it has a constructor a subclass could call).
    pub(crate) subclassable: Vec<bool>,
    /// Per class: whether it, or a class enclosing it, is private, so that a test cannot name
    /// it: its objects come only from the code under test.
    pub(crate) hidden: Vec<bool>,
    /// Per class: whether a test could make one by reflection if nothing else works: a concrete
    /// class (not abstract, enum or interface) it can name (top-level or static, not private;
    /// public if from another package) without a `final` field of primitive or String type
    /// that has an initializer (javac may inline such a field's value where it is read, so
    /// setting it would not change what the code sees).
    pub(crate) reflectable: Vec<bool>,
    /// Synthesis only: the type variables of the file taken as a type a test can write, with
    /// that type's name (`T` → `Integer`), and `CharSequence` → `String`; see
    /// [`Classes::instantiate_type_vars`].
    pub(crate) type_vars: std::collections::BTreeMap<String, String>,
}

impl Classes {
    /// The enclosing chain (`["Outer", "Inner"]`) of the class the file declares under `name`
    /// (simple or dotted), if any; `None` for the JDK's classes jreach models and unknown names.
    pub(crate) fn declared_chain(&self, name: &str) -> Option<Vec<String>> {
        let c = *self.by_name.get(name)?;
        self.bodies[c as usize].as_ref()?;
        Some(self.descs[c as usize].name.split('.').map(str::to_string).collect())
    }

    /// The classes of `file`; those from `foreign_from` on come from other packages, and those
    /// from `own_end` on were appended to the file for synthesis (its own shadow their names).
    pub(crate) fn of(file: &SourceFile, foreign_from: Option<usize>, own_end: Option<usize>) -> Classes {
        let src = file.text.as_str();
        // Each declaration with the names of the types around it and its own, found on the way
        // down (`enclosing_classes` from each would cost the depth squared per class: 3,000 nested
        // classes took minutes).
        // Also whether it or a type around it is private (see `hidden`).
        let mut found: Vec<(Node<'_>, Rc<Vec<String>>, bool)> = Vec::new();
        let mut stack = vec![(file.tree.root_node(), Rc::new(Vec::new()), false)];
        while let Some((n, mut chain, mut hidden)) = stack.pop() {
            if matches!(
                n.kind(),
                "class_declaration" | "enum_declaration" | "interface_declaration" | "record_declaration"
            ) {
                let mut own = (*chain).clone();
                own.push(n.child_by_field_name("name").map(|n| text_of(n, src).to_string()).unwrap_or_default());
                chain = Rc::new(own);
                hidden |= has_modifier(n, src, "private");
                if n.kind() != "record_declaration" {
                    found.push((n, chain.clone(), hidden));
                }
            }
            stack.extend(named_children(n).into_iter().map(|c| (c, chain.clone(), hidden)));
        }
        found.sort_by_key(|(n, _, _)| n.start_byte());
        let decl_hidden: Vec<bool> = found.iter().map(|(_, _, h)| *h).collect();
        let (decls, decl_chains): (Vec<Node<'_>>, Vec<Rc<Vec<String>>>) =
            found.into_iter().map(|(n, chain, _)| (n, chain)).unzip();
        let mut out = Classes::default();
        let mut chains = Vec::new();
        // Names the file itself declares: code in it means its own types by them, whatever the
        // appended files declare (a member type shadows the package's).
        let mut own_names = std::collections::HashSet::new();
        for (d, chain) in decls.iter().zip(&decl_chains) {
            let chain: Vec<String> = (**chain).clone();
            let id = out.descs.len() as u16;
            let simple = chain.last().cloned().unwrap_or_default();
            let own = own_end.is_none_or(|end| d.start_byte() < end);
            let dotted = chain.join(".");
            if own {
                own_names.insert(simple.clone());
                own_names.insert(dotted.clone());
            }
            // A simple name declared twice is ambiguous: only the dotted chain finds it then.
            if !own && own_names.contains(&simple) {
                // Shadowed by the file's own.
            } else if out.by_name.contains_key(&simple) {
                out.by_name.insert(simple, u16::MAX);
            } else {
                out.by_name.insert(simple, id);
            }
            if own || !own_names.contains(&dotted) {
                out.by_name.insert(dotted, id);
            }
            let constants: Vec<String> = match d.kind() {
                "enum_declaration" => d
                    .child_by_field_name("body")
                    .map(named_children)
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|c| c.kind() == "enum_constant")
                    .filter_map(|c| c.child_by_field_name("name").map(|n| text_of(n, src).to_string()))
                    .collect(),
                _ => vec![],
            };
            out.descs.push(ClassDesc {
                name: chain.join("."),
                fields: vec![],
                buildable: false,
                reflective: false,
                constants,
                boxes: None,
                lambda: None,
                stub: vec![],
                subclassed: false,
            });
            out.constructible.push(false);
            out.bodies.push(d.child_by_field_name("body").map(|b| b.byte_range()));
            out.foreign.push(foreign_from.is_some_and(|f| d.start_byte() >= f));
            out.implicit_ctor.push(false);
            out.supers.push(None);
            chains.push(chain);
        }
        out.by_name.retain(|_, v| *v != u16::MAX);
        // The JDK's boxes the file uses as types, unless it declares classes of those names.
        let mut boxes = Vec::new();
        let mut stack = vec![file.tree.root_node()];
        while let Some(n) = stack.pop() {
            // Synthesis takes type variables as `Integer` where their bounds allow
            // (`instantiate_type_vars`): the box must be there.
            if n.kind() == "type_parameter" && !boxes.contains(&"Integer") && !out.by_name.contains_key("Integer") {
                boxes.push("Integer");
            }
            if n.kind() == "type_identifier" {
                let name = text_of(n, src);
                if boxed_primitive(name).is_some() && !boxes.contains(&name) && !out.by_name.contains_key(name) {
                    boxes.push(name);
                }
            }
            stack.extend(named_children(n));
        }
        // `StringBuilder` and `StringBuffer` the file names, unless it declares classes of those
        // names: objects whose one field is their contents.
        for (simple, qualified) in TEXT_BUILDER_CLASSES {
            if out.by_name.contains_key(simple) || !mentions_type(file, simple) {
                continue;
            }
            out.by_name.insert(simple.into(), out.descs.len() as u16);
            out.by_name.insert(qualified.into(), out.descs.len() as u16);
            out.descs.push(ClassDesc {
                name: qualified.into(),
                fields: vec![FieldDesc { name: "value".into(), ty: Ty::Str }],
                buildable: false,
                reflective: false,
                constants: vec![],
                boxes: None,
                lambda: None,
                stub: vec![],
                subclassed: false,
            });
            out.constructible.push(false);
            out.bodies.push(None);
            out.foreign.push(false);
            out.implicit_ctor.push(false);
            out.supers.push(None);
            chains.push(vec![qualified.into()]);
        }
        // `java.util.List`, `Map` and `Optional`, unless the file declares classes of those names.
        for (simple, qualified) in [("List", LIST_CLASS), ("Map", MAP_CLASS), ("Optional", OPTIONAL_CLASS)] {
            if out.by_name.contains_key(simple) {
                continue;
            }
            out.by_name.insert(simple.into(), out.descs.len() as u16);
            out.by_name.insert(qualified.into(), out.descs.len() as u16);
            out.descs.push(ClassDesc {
                name: qualified.into(),
                fields: vec![],
                buildable: false,
                reflective: false,
                constants: vec![],
                boxes: None,
                lambda: None,
                stub: vec![],
                subclassed: false,
            });
            out.constructible.push(false);
            out.bodies.push(None);
            out.foreign.push(false);
            out.implicit_ctor.push(false);
            out.supers.push(None);
            chains.push(vec![qualified.into()]);
        }
        boxes.sort();
        for name in boxes {
            let prim = boxed_primitive(name).expect("filtered above");
            out.by_name.insert(name.to_string(), out.descs.len() as u16);
            out.by_name.insert(format!("java.lang.{name}"), out.descs.len() as u16);
            out.descs.push(ClassDesc {
                name: name.to_string(),
                fields: vec![FieldDesc { name: "value".into(), ty: prim }],
                buildable: false,
                reflective: false,
                constants: vec![],
                boxes: Some(prim),
                lambda: None,
                stub: vec![],
                subclassed: false,
            });
            out.constructible.push(false);
            out.bodies.push(None);
            out.foreign.push(false);
            out.implicit_ctor.push(false);
            out.supers.push(None);
            chains.push(vec![name.to_string()]);
        }
        let mut has_block = vec![false; decls.len()];
        out.reflectable = vec![false; out.descs.len()];
        out.hidden = vec![false; out.descs.len()];
        for (k, d) in decls.iter().enumerate() {
            if d.kind() == "interface_declaration" {
                out.descs[k].lambda = single_abstract_method(*d, src, &out);
                if out.descs[k].lambda.is_none() && !has_modifier(*d, src, "private") {
                    out.descs[k].stub = stub_methods(*d, src, &out).unwrap_or_default();
                }
                continue;
            }
            if d.kind() == "enum_declaration" || out.descs[k].boxes.is_some() {
                continue;
            }
            let Some(body) = d.child_by_field_name("body") else { continue };
            let mut fields = Vec::new();
            // `buildable` so far: jreach follows `new C(...)` in code (a class without an outer
            // instance); a test may also write it unless the class is hidden from tests.
            let mut buildable = chains[k].len() == 1 || has_modifier(*d, src, "static");
            // An abstract class: a test creates an anonymous subclass implementing its abstract
            // methods, when it can write them all.
            let is_abstract = has_modifier(*d, src, "abstract");
            if is_abstract {
                let stub = stub_methods(*d, src, &out);
                let subclassed = stub.is_some() && only_own_abstract_methods(*d, src, &decls);
                out.descs[k].stub = stub.unwrap_or_default();
                out.descs[k].subclassed = subclassed;
                buildable &= subclassed;
            }
            if out.foreign[k] {
                buildable &= has_modifier(*d, src, "public");
            }
            let constructible = buildable;
            out.hidden[k] = decl_hidden[k];
            buildable &= !out.hidden[k];
            let mut reflectable = buildable && !is_abstract && d.kind() == "class_declaration";
            let mut no_ctor = true;
            for member in named_children(body) {
                match member.kind() {
                    "field_declaration" if !has_modifier(member, src, "static") => {
                        let ty_text = member.child_by_field_name("type").map(|t| text_of(t, src)).unwrap_or("");
                        let visible = if out.foreign[k] {
                            has_modifier(member, src, "public")
                        } else {
                            !has_modifier(member, src, "private")
                        };
                        let assignable = visible && !has_modifier(member, src, "final");
                        let mut c = member.walk();
                        for decl in member.children_by_field_name("declarator", &mut c) {
                            let Some(name) = decl.child_by_field_name("name") else { continue };
                            let dims =
                                decl.child_by_field_name("dimensions").map(|x| text_of(x, src).matches('[').count());
                            let ty = match dims {
                                Some(n) if n > 0 => out.arr_of(ty_text, n).map(Ty::Arr).unwrap_or(Ty::Ref),
                                // `void x;` is no field (broken code): nothing to hold.
                                _ if ty_text == "void" => continue,
                                _ => out.ty_of(ty_text),
                            };
                            buildable &= assignable && decl.child_by_field_name("value").is_none();
                            let constant = matches!(ty, Ty::Str) || ty.is_numeric() || ty == Ty::Bool;
                            reflectable &= !(constant
                                && has_modifier(member, src, "final")
                                && decl.child_by_field_name("value").is_some());
                            fields.push(FieldDesc { name: text_of(name, src).to_string(), ty });
                        }
                    }
                    "constructor_declaration" => {
                        no_ctor = false;
                        let no_args =
                            member.child_by_field_name("parameters").is_some_and(|p| named_children(p).is_empty());
                        let empty = member.child_by_field_name("body").is_some_and(|b| named_children(b).is_empty());
                        let visible = if out.foreign[k] {
                            has_modifier(member, src, "public")
                        } else {
                            !has_modifier(member, src, "private")
                        };
                        buildable &= no_args && empty && visible;
                    }
                    // An instance initializer runs with the field initializers, in order, at the
                    // start of each constructor (`run_field_initializers`).
                    "block" => {
                        buildable = false;
                        has_block[k] = true;
                    }
                    "static_initializer" => buildable = false,
                    _ => {}
                }
            }
            out.descs[k].fields = fields;
            // `new C()` with fields set directly does not make an anonymous subclass.
            let extends = d.child_by_field_name("superclass").is_some();
            out.descs[k].buildable = buildable && !is_abstract && !extends;
            out.constructible[k] = constructible;
            out.implicit_ctor[k] = no_ctor;
            out.reflectable[k] = reflectable;
        }
        // Superclasses of the file: their fields come first, their constructors run first.
        let mut linked = vec![None; decls.len()];
        for k in 0..decls.len() {
            link_superclass(&mut out, &decls, src, &has_block, &mut linked, k);
        }
        for k in 0..decls.len() {
            out.implicit_ctor[k] &= out.constructible[k];
        }
        out.subclassable = vec![false; out.descs.len()];
        for (k, d) in decls.iter().enumerate() {
            if d.kind() != "class_declaration" || has_modifier(*d, src, "final") {
                continue;
            }
            let members = d.child_by_field_name("body").map(named_children).unwrap_or_default();
            let ctors: Vec<&Node<'_>> = members.iter().filter(|m| m.kind() == "constructor_declaration").collect();
            out.subclassable[k] = ctors.is_empty() || ctors.iter().any(|c| !has_modifier(**c, src, "private"));
        }
        for d in &decls {
            let sup = d.child_by_field_name("superclass").and_then(|s| named_children(s).into_iter().next());
            let name = sup.map(|t| text_of(t, src)).unwrap_or("");
            let name = name.split('<').next().unwrap_or(name);
            if let Some(s) = out.by_name.get(name).filter(|s| (**s as usize) < decls.len()) {
                out.subclassable[*s as usize] = !has_modifier(decls[*s as usize], src, "final");
            }
        }
        out
    }

    /// The IR type of a Java type as written, with the file's classes as objects.
    pub(crate) fn ty_of(&self, name: &str) -> Ty {
        if let Some(a) = self.arr_of(name, 0) {
            return Ty::Arr(a);
        }
        let ty = Ty::of_java(name);
        if ty != Ty::Ref {
            return ty;
        }
        let name = name.trim();
        let name = name.split('<').next().unwrap_or(name).trim();
        let name = name.strip_prefix("java.lang.").filter(|n| *n == "CharSequence").unwrap_or(name);
        if let Some(t) = self.type_vars.get(name).map(|t| Ty::of_java(t)).filter(|t| *t != Ty::Ref) {
            return t;
        }
        match self.by_name.get(name) {
            Some(id) => Ty::Obj(*id),
            None => Ty::Ref,
        }
    }

    /// Takes each type variable the file declares before `own_end` (`<T>`, `<T extends
    /// Comparable<T>>`, on a class or a method; not those of the sources appended after it) as
    /// one type a test can write and jreach models: `Integer` when the variable
    /// is unbounded or bounded by `Comparable`, `Number` or `Object` (Integer is all of those),
    /// `String` when it is bounded by `CharSequence`, else its bound when that is a class of the
    /// file. A name declared twice with different
    /// outcomes, or also the name of a class, is left unknown. `CharSequence` is taken as
    /// `String` the same way. For synthesis only: a test may pick any type argument and any
    /// `CharSequence`, but a proof must hold for all of them.
    pub(crate) fn instantiate_type_vars(&mut self, file: &SourceFile, own_end: Option<usize>) {
        let src = file.text.as_str();
        let mut found: std::collections::BTreeMap<String, Option<String>> = Default::default();
        let mut stack = vec![file.tree.root_node()];
        while let Some(n) = stack.pop() {
            stack.extend(named_children(n));
            // (Only the file's own: the sources appended for synthesis declare their own `T`s,
            // which the file's code never means.)
            if n.kind() != "type_parameter" || own_end.is_some_and(|end| n.start_byte() >= end) {
                continue;
            }
            let Some((name, choice)) = self.type_var_choice(n, src) else { continue };
            let entry = found.entry(name).or_insert_with(|| choice.clone());
            if *entry != choice {
                *entry = None;
            }
        }
        for (var, choice) in found {
            let Some(choice) = choice else { continue };
            if !self.by_name.contains_key(&var) && self.can_take(&choice) {
                self.take_type_var(var, choice);
            }
        }
        // A `CharSequence` a test passes is a `String`, the one implementation jreach models (its
        // `length`, `charAt`, `toString` are the string's). Only where the file names the type.
        let names_it = file.text.contains("CharSequence");
        if names_it && !self.by_name.contains_key("CharSequence") {
            self.type_vars.insert("CharSequence".into(), "String".into());
        }
    }

    /// The type parameter `n` (`T extends Comparable<T>`): its name, and the type
    /// [`Classes::instantiate_type_vars`] takes it as (`None`: none).
    fn type_var_choice(&self, n: Node<'_>, src: &str) -> Option<(String, Option<String>)> {
        let kids = named_children(n);
        let name = kids.iter().find(|c| c.kind() == "type_identifier" || c.kind() == "identifier")?;
        let name = text_of(*name, src).to_string();
        let bound = kids.iter().find(|c| c.kind() == "type_bound").and_then(|b| named_children(*b).first().copied());
        let choice = match bound.map(|b| text_of(b, src).split('<').next().unwrap_or("").trim().to_string()) {
            None => Some("Integer".to_string()),
            Some(b) if matches!(b.as_str(), "Comparable" | "Number" | "Object" | "java.lang.Comparable") => {
                Some("Integer".to_string())
            }
            Some(b) if matches!(b.as_str(), "CharSequence" | "java.lang.CharSequence") => Some("String".to_string()),
            Some(b) if self.by_name.get(&b).is_some_and(|id| self.descs[*id as usize].boxes.is_none()) => Some(b),
            Some(_) => None,
        };
        Some((name, choice))
    }

    /// This table (after [`Classes::instantiate_type_vars`]) as code at `node` sees the type
    /// variables: those it declares and those of the methods and classes around it, each taken
    /// as its own declaration says, where the file declares the name elsewhere with another
    /// bound (`<T> T[] nullToEmpty(T[])` beside `<T extends CharSequence> T notBlank(T)`). `None`
    /// when that changes nothing.
    pub(crate) fn scoped_at(&self, file: &SourceFile, node: Node<'_>) -> Option<Classes> {
        let src = file.text.as_str();
        let mut decls = Vec::new();
        let mut up = Some(node);
        while let Some(n) = up {
            if let Some(params) = n.child_by_field_name("type_parameters") {
                decls.push(params);
            }
            up = n.parent();
        }
        // Outermost first: an inner declaration of a name hides the outer one.
        let mut in_scope: std::collections::BTreeMap<String, Option<String>> = Default::default();
        for params in decls.into_iter().rev() {
            for p in named_children(params).into_iter().filter(|p| p.kind() == "type_parameter") {
                if let Some((name, choice)) = self.type_var_choice(p, src) {
                    in_scope.insert(name, choice);
                }
            }
        }
        let mut scoped: Option<Classes> = None;
        for (var, choice) in in_scope {
            let Some(choice) = choice else { continue };
            // (A name that is a class of the table stays the class.)
            let a_class = self.by_name.contains_key(&var) && !self.type_vars.contains_key(&var);
            if a_class || self.type_vars.get(&var) == Some(&choice) || !self.can_take(&choice) {
                continue;
            }
            scoped.get_or_insert_with(|| self.clone()).take_type_var(var, choice);
        }
        scoped
    }

    /// Whether a type variable may be taken as `choice`: a string, or a class of the table.
    fn can_take(&self, choice: &str) -> bool {
        choice == "String" || self.by_name.contains_key(choice)
    }

    /// Takes the type variable `var` as `choice` ([`Classes::can_take`]): a class's name then
    /// finds that class; a string is no class of the table, which `ty_of` reads from
    /// `type_vars`.
    fn take_type_var(&mut self, var: String, choice: String) {
        match self.by_name.get(&choice).copied().filter(|_| choice != "String") {
            Some(id) => self.by_name.insert(var.clone(), id),
            None => self.by_name.remove(&var),
        };
        self.type_vars.insert(var, choice);
    }

    /// A Java type as written with the instantiated type variables replaced (`List<T>` →
    /// `List<Integer>`): how a test writes it.
    pub(crate) fn java_of(&self, java_ty: &str) -> String {
        // A `CharSequence` stays one: a test declares it so, and a string passed as one calls
        // the method of that parameter (`append(CharSequence)`, not an overload `append(String)`).
        let bare = java_ty.trim().trim_start_matches("final ").trim();
        if self.type_vars.is_empty() || matches!(bare, "CharSequence" | "java.lang.CharSequence") {
            return java_ty.to_string();
        }
        let mut out = String::with_capacity(java_ty.len());
        let mut word = String::new();
        let flush = |word: &mut String, out: &mut String| {
            match self.type_vars.get(word.as_str()) {
                Some(t) => out.push_str(t),
                None => out.push_str(word),
            }
            word.clear();
        };
        for c in java_ty.chars() {
            if c.is_alphanumeric() || c == '_' || c == '$' || (c == '.' && !word.is_empty()) {
                word.push(c);
            } else {
                flush(&mut word, &mut out);
                out.push(c);
            }
        }
        flush(&mut word, &mut out);
        out
    }

    /// Whether a test in the package of the file under test may call `m`, a method or
    /// constructor of class `c`: any non-private one of the file's package, only public ones of
    /// classes from other packages.
    pub(crate) fn test_may_call(&self, c: u16, m: &MethodInfo) -> bool {
        if self.foreign.get(c as usize).copied().unwrap_or(false) {
            m.is_public
        } else {
            !m.hidden_from_tests()
        }
    }

    /// The array type of a Java type as written, with `extra` more dimensions from a declarator:
    /// arrays of the file's classes are arrays of objects.
    pub(crate) fn arr_of(&self, name: &str, extra: usize) -> Option<ArrTy> {
        ArrTy::of_java_with(name, extra, |base| {
            let base = base.split('<').next().unwrap_or(base).trim();
            match Ty::of_java(base) {
                Ty::Ref => self.by_name.get(base).map(|id| Ty::Obj(*id)).unwrap_or(Ty::Ref),
                t => t,
            }
        })
    }
}

/// Links class `k` (a declaration among `decls`) to its superclass when jreach sees the whole
/// chain above it (see [`Classes::supers`]), putting the superclass's fields first. Returns
/// whether the chain is complete: the class extends nothing, or is linked. A class extending
/// something jreach cannot see is not constructible. `linked` memoizes: `Some(complete)`.
fn link_superclass(
    out: &mut Classes,
    decls: &[Node<'_>],
    src: &str,
    has_block: &[bool],
    linked: &mut [Option<bool>],
    k: usize,
) -> bool {
    if let Some(done) = linked[k] {
        return done;
    }
    // A cycle (which javac rejects) ends here as an incomplete chain.
    linked[k] = Some(false);
    let d = decls[k];
    let Some(sup) = d.child_by_field_name("superclass") else {
        linked[k] = Some(d.kind() == "class_declaration");
        return linked[k].unwrap_or(false);
    };
    let name = named_children(sup).into_iter().next().map(|t| text_of(t, src)).unwrap_or("");
    let s = out.by_name.get(name).map(|s| *s as usize).filter(|s| {
        *s < decls.len()
            && *s != k
            && decls[*s].kind() == "class_declaration"
            && decls[*s].child_by_field_name("type_parameters").is_none()
            && !has_block[*s]
    });
    let complete = match s {
        Some(s) if link_superclass(out, decls, src, has_block, linked, s) => {
            let inherited = out.descs[s].fields.clone();
            let own = &out.descs[k].fields;
            if own.iter().any(|f| inherited.iter().any(|g| g.name == f.name)) {
                // A field hiding an inherited one: names no longer say which field is meant.
                false
            } else {
                let own = std::mem::take(&mut out.descs[k].fields);
                out.descs[k].fields = inherited.into_iter().chain(own).collect();
                out.supers[k] = Some(s as u16);
                true
            }
        }
        _ => false,
    };
    // An abstract subclass's anonymous subclasses would have to implement inherited abstract
    // methods too, which `stub` does not list.
    if !complete || has_modifier(d, src, "abstract") {
        out.constructible[k] = false;
    }
    linked[k] = Some(complete);
    complete
}

/// The single abstract method of a non-generic interface, if it has exactly one.
fn single_abstract_method(d: Node<'_>, src: &str, classes: &Classes) -> Option<LambdaDesc> {
    if d.child_by_field_name("type_parameters").is_some() || d.child_by_field_name("extends_interfaces").is_some() {
        return None;
    }
    let body = d.child_by_field_name("body")?;
    let abstract_methods: Vec<Node<'_>> = named_children(body)
        .into_iter()
        .filter(|m| {
            m.kind() == "method_declaration"
                && m.child_by_field_name("body").is_none()
                && !has_modifier(*m, src, "static")
                && !has_modifier(*m, src, "default")
                && !has_modifier(*m, src, "private")
        })
        .collect();
    let [m] = abstract_methods.as_slice() else { return None };
    if m.child_by_field_name("type_parameters").is_some() {
        return None;
    }
    let ret_java = text_of(m.child_by_field_name("type")?, src).to_string();
    let ret = if ret_java == "void" { Ty::Void } else { classes.ty_of(&ret_java) };
    if ret == Ty::Ref {
        return None;
    }
    let params = m.child_by_field_name("parameters").map(named_children).unwrap_or_default();
    let arity = params.len();
    let first_param = params
        .first()
        .and_then(|p| p.child_by_field_name("type"))
        .map(|t| classes.ty_of(text_of(t, src)))
        .filter(|t| t.is_integral());
    Some(LambdaDesc {
        method: text_of(m.child_by_field_name("name")?, src).to_string(),
        arity,
        ret,
        ret_java,
        first_param,
    })
}

/// The abstract methods of a non-generic interface without super-interfaces (when there are
/// several) or of an abstract class, when a test can write every parameter type and return
/// value: an anonymous class implements them (for an abstract class, possibly none). `None`
/// when a test cannot write them (or an interface has fewer than two: a lambda implements one).
fn stub_methods(d: Node<'_>, src: &str, classes: &Classes) -> Option<Vec<StubMethod>> {
    if d.child_by_field_name("type_parameters").is_some() || d.child_by_field_name("extends_interfaces").is_some() {
        return None;
    }
    let interface = d.kind() == "interface_declaration";
    let body = d.child_by_field_name("body")?;
    // A type as a test in the package writes it: primitives, strings, boxes, the file's classes.
    let writable = |text: &str| -> Option<String> {
        let t = text.trim();
        if t.contains('<') {
            return None;
        }
        let java_lang = |t: &str| matches!(t.trim_end_matches("[]").trim(), "Object" | "CharSequence" | "Number");
        match classes.ty_of(t) {
            Ty::Ref => java_lang(t).then(|| t.to_string()),
            Ty::Arr(a) if a.leaf == crate::types::Leaf::Ref => java_lang(t).then(|| t.to_string()),
            Ty::Arr(a) => Some(a.java_name_with(|c| classes.descs[c as usize].name.clone())),
            Ty::Obj(c) => Some(classes.descs[c as usize].name.clone()),
            _ => Some(t.to_string()),
        }
    };
    let mut out = Vec::new();
    for m in named_children(body) {
        if m.kind() != "method_declaration"
            || m.child_by_field_name("body").is_some()
            || has_modifier(m, src, "static")
            || has_modifier(m, src, "default")
            || has_modifier(m, src, "private")
            || (!interface && !has_modifier(m, src, "abstract"))
        {
            continue;
        }
        if !interface && !has_modifier(m, src, "public") && !has_modifier(m, src, "protected") {
            // A package-private abstract method: `public` in the anonymous class still overrides
            // it, but keep to the common case.
            return None;
        }
        if m.child_by_field_name("type_parameters").is_some() || m.child_by_field_name("dimensions").is_some() {
            return None;
        }
        let (Some(name), Some(ret_node)) = (m.child_by_field_name("name"), m.child_by_field_name("type")) else {
            return None;
        };
        let ret_text = text_of(ret_node, src);
        let ret = if ret_text == "void" { Ty::Void } else { classes.ty_of(ret_text) };
        // Returned values are literals: primitives, strings, enum constants, boxes.
        let literal = match ret {
            Ty::Void | Ty::Str => true,
            Ty::Obj(c) => classes.descs[c as usize].is_enum() || classes.descs[c as usize].boxes.is_some(),
            t => t.is_numeric() || t == Ty::Bool,
        };
        let Some(ret_java) = writable(ret_text).filter(|_| literal) else { return None };
        let mut params = Vec::new();
        for p in m.child_by_field_name("parameters").map(named_children).unwrap_or_default() {
            if p.kind() != "formal_parameter" || p.child_by_field_name("dimensions").is_some() {
                return None;
            }
            let (Some(ty), Some(pname)) = (p.child_by_field_name("type"), p.child_by_field_name("name")) else {
                return None;
            };
            let Some(ty) = writable(text_of(ty, src)) else { return None };
            params.push((ty, text_of(pname, src).to_string()));
        }
        out.push(StubMethod { name: text_of(name, src).to_string(), params, ret, ret_java });
    }
    // An interface with one method gets a lambda instead.
    if interface && out.len() < 2 {
        return None;
    }
    Some(out)
}

/// Interfaces without methods, which an anonymous subclass of a class implementing them need
/// not implement anything of.
const MARKER_INTERFACES: &[&str] = &["Serializable", "java.io.Serializable", "Cloneable", "java.lang.Cloneable"];

/// Whether the class declaration `d` implements no interface but markers ([`MARKER_INTERFACES`]),
/// and extends nothing or a class declared in `decls` that is not abstract: what an anonymous
/// subclass then has to implement are `d`'s own abstract methods.
fn only_own_abstract_methods(d: Node<'_>, src: &str, decls: &[Node<'_>]) -> bool {
    let markers_only = d.child_by_field_name("interfaces").is_none_or(|list| {
        let mut types = Vec::new();
        let mut stack = vec![list];
        while let Some(n) = stack.pop() {
            if n.kind() == "type_list" {
                types.extend(named_children(n));
            } else {
                stack.extend(named_children(n));
            }
        }
        types.iter().all(|t| MARKER_INTERFACES.contains(&text_of(*t, src).trim()))
    });
    let concrete_super = d.child_by_field_name("superclass").is_none_or(|sup| {
        let Some(ty) = named_children(sup).into_iter().next() else { return false };
        let name = text_of(ty, src).trim();
        let simple = name.rsplit('.').next().unwrap_or(name);
        decls.iter().any(|other| {
            other.kind() == "class_declaration"
                && other.child_by_field_name("name").is_some_and(|n| text_of(n, src) == simple)
                && !has_modifier(*other, src, "abstract")
        })
    });
    markers_only && concrete_super
}

/// Whether `file` names the type `simple` (as a type, or qualified with `java.lang.`).
fn mentions_type(file: &SourceFile, simple: &str) -> bool {
    let src = file.text.as_str();
    if !src.contains(simple) {
        return false;
    }
    let mut stack = vec![file.tree.root_node()];
    while let Some(n) = stack.pop() {
        if n.kind() == "type_identifier" && text_of(n, src) == simple {
            return true;
        }
        stack.extend(named_children(n));
    }
    false
}
