//! Class invariants for proofs: Houdini over the conditions of a class. For a class whose private
//! fields only its own constructors and methods write, each condition of its methods that reads
//! only such fields and constants (`used > capacity`, `state == CONNECTED && socket == null`) and
//! its negation are candidate invariants. The proof lowering of every constructor checks them
//! where it returns, and of every instance method assumes them when it starts and after calls
//! jreach cannot see, and checks them where it returns, throws out or makes such a call
//! (`ir::lower::class_invariants`); the candidates some input breaks anywhere are dropped and
//! the class lowered again, until the rest hold together. Then every method of the class may
//! assume them on entry, and `check` and `gen` decide its statements on that lowering.
//!
//! What makes the assumption sound ([`eligible_fields`], [`constructors_keep_this`]): every
//! write of the fields is visible (private fields, written as `f = ...` or `this.f = ...` only
//! in the class's own constructors, methods and initializers, never in a lambda or another
//! class), no constructor or initializer lets `this` escape or calls an instance method (so no
//! method runs on a half-built object), the class extends nothing (no superclass constructor
//! calls an overriding method early), and nothing in the file reflects on fields or
//! deserializes objects (which would write them unseen); the class implements no interface that
//! could make it `Serializable`. The invariants hold whenever no method of the class runs on
//! the object, so a method the class's own code calls ([`called_mid_method`]: by name, on any
//! receiver, in the code that may run while a method of the class does; anywhere in the file
//! once the class hands `this` out) may start while another has them broken, and assumes
//! nothing on entry: its callers in the class see its body inlined at their own state. Not
//! covered, as everywhere in jreach: other threads changing an object while a method runs, and
//! reflection from other files.

use std::collections::{BTreeSet, HashMap};
use std::time::{Duration, Instant};

use jreach_ir::lower::{lower_in, ClassInvariant, FieldAtom, FieldCond, FileContext, LowerOptions};
use jreach_ir::{BinOp, Blocker, Const, Function, LowerMode};
use jreach_smt::{broken_class_invariants, SolveOptions};
use jreach_syntax::{MethodInfo, Node, SourceFile};

/// The most candidates one class is tried with.
const MAX_CANDIDATES: usize = 24;

/// The most rounds of one Houdini search.
const MAX_ROUNDS: usize = 6;

/// The time limit of one query of the search.
const QUERY: Duration = Duration::from_millis(500);

/// Words whose presence in a file means fields may be written where jreach cannot see it
/// (reflection, deserialization, unsafe memory access).
const UNSEEN_WRITERS: &[&str] = &[
    "setAccessible",
    "getDeclaredField",
    "Unsafe",
    "VarHandle",
    "MethodHandles",
    "Serializable",
    "Externalizable",
    "readObject",
    "AtomicIntegerFieldUpdater",
    "AtomicLongFieldUpdater",
    "AtomicReferenceFieldUpdater",
];

/// JDK interfaces a class may implement without becoming serializable.
const PLAIN_INTERFACES: &[&str] = &[
    "Comparable",
    "Iterable",
    "Iterator",
    "Runnable",
    "Cloneable",
    "AutoCloseable",
    "Closeable",
    "CharSequence",
    "Appendable",
    "Comparator",
];

/// The class invariants proved per class of a file, and each class's fields that may carry one,
/// worked out on first use: one per file and z3 context, shared by the methods `check` asks about.
#[derive(Default)]
pub struct ClassInvariants {
    proved: std::cell::RefCell<HashMap<usize, Option<Vec<ClassInvariant>>>>,
    fields: std::cell::RefCell<HashMap<usize, BTreeSet<String>>>,
    called_mid_method: std::cell::RefCell<HashMap<usize, BTreeSet<String>>>,
}

impl ClassInvariants {
    pub fn new() -> ClassInvariants {
        ClassInvariants::default()
    }

    /// The invariants proved for the class whose body starts at `class_body` (`None`: none, or
    /// the class does not qualify, or the search ran out of `budget`).
    fn of_class(&self, ctx: &FileContext<'_>, class_body: usize, budget: Duration) -> Option<Vec<ClassInvariant>> {
        if let Some(known) = self.proved.borrow().get(&class_body) {
            return known.clone();
        }
        let found = prove(ctx, self, class_body, budget);
        self.proved.borrow_mut().insert(class_body, found.clone());
        found
    }

    /// [`eligible_fields`] of the class `body` (a walk of the whole file, made once per class).
    fn fields(&self, file: &SourceFile, body: Node<'_>) -> BTreeSet<String> {
        self.fields.borrow_mut().entry(body.start_byte()).or_insert_with(|| eligible_fields(file, body)).clone()
    }

    /// Whether `m`'s verdict may rest on invariants of its class: an instance method that tests
    /// a field that could carry one, and that no method of the class may call while it runs
    /// ([`called_mid_method`]). Such a verdict depends on every constructor and method of
    /// the class, and on every write of its fields anywhere in the file (the per-method cache
    /// keys it by the whole file).
    pub(crate) fn may_assume(&self, file: &SourceFile, m: &MethodInfo) -> bool {
        if m.is_static || m.is_constructor {
            return false;
        }
        let Some(body) = class_body_of(file, m) else { return false };
        let fields = self.fields(file, body);
        if fields.is_empty() || !tests_any(file, m.body_node(file), &fields) {
            return false;
        }
        let mut known = self.called_mid_method.borrow_mut();
        let called = known.entry(body.start_byte()).or_insert_with(|| called_mid_method(file, body));
        !called.contains(m.name.as_str())
    }
}

/// The body (`class_body`) of the class `m` is a member of, when it is a class declaration.
fn class_body_of<'t>(file: &'t SourceFile, m: &MethodInfo) -> Option<Node<'t>> {
    let body = m.node(file).parent().filter(|p| p.kind() == "class_body")?;
    body.parent().filter(|d| d.kind() == "class_declaration")?;
    Some(body)
}

/// The proof lowering of `m` (an instance method) assuming its class's proved invariants, when
/// the class has some that `m` reads in a condition: a sound over-approximation (its
/// `Blocker::ClassInvariant` removed on the proof for the whole class).
pub(crate) fn proved_lowering(
    ctx: &FileContext<'_>,
    memo: &ClassInvariants,
    m: &MethodInfo,
    inline_depth: u32,
    budget: Duration,
) -> Option<Function> {
    let file = ctx.file();
    // Cheap first: does `m` test a field that could carry an invariant at all?
    if m.has_error || !memo.may_assume(file, m) {
        return None;
    }
    let body = class_body_of(file, m)?;
    let invs = memo.of_class(ctx, body.start_byte(), budget)?;
    let read: BTreeSet<String> = invs.iter().flat_map(|i| fields_of(&i.cond)).collect();
    if !tests_any(file, m.body_node(file), &read) {
        return None;
    }
    let opts = LowerOptions { mode: LowerMode::OverApprox, inline_depth, class_invariants: invs, ..Default::default() };
    let mut f = lower_in(ctx, m, &opts);
    if f.proof_blockers.iter().any(|b| *b != Blocker::ClassInvariant) {
        return None;
    }
    // `m`'s own checks, on this lowering: a call it does not inline (a deeper helper) is a
    // point where the candidates must hold, which the class's proof may not have asked.
    let solve = SolveOptions { timeout: QUERY, prefer_small: false, cancel: None };
    if !broken_class_invariants(&f, &solve).is_empty() {
        return None;
    }
    // Every constructor and method of the class keeps `invs` (`prove`).
    f.class_invariants_proved();
    Some(f)
}

/// Houdini over the class whose body starts at `class_body`: the candidates every constructor
/// establishes and every instance method keeps, given all of them on entry.
fn prove(
    ctx: &FileContext<'_>,
    memo: &ClassInvariants,
    class_body: usize,
    budget: Duration,
) -> Option<Vec<ClassInvariant>> {
    let file = ctx.file();
    let body = file.tree.root_node().descendant_for_byte_range(class_body, class_body)?;
    let body = std::iter::successors(Some(body), |n| n.parent())
        .find(|n| n.start_byte() == class_body && n.kind() == "class_body")?;
    let decl = body.parent()?;
    if !class_qualifies(file, decl) {
        return None;
    }
    let fields = memo.fields(file, body);
    if fields.is_empty() || !constructors_keep_this(file, body) {
        return None;
    }
    let mut cands = candidates(file, body, &fields);
    let members: Vec<&MethodInfo> = ctx
        .methods()
        .iter()
        .filter(|m| !m.is_static && m.node(file).parent().is_some_and(|p| p.id() == body.id()))
        .collect();
    if members.iter().any(|m| m.has_error) {
        return None;
    }
    // A native method may write the fields where no lowering sees it.
    let mut c = body.walk();
    if body.named_children(&mut c).any(|k| k.kind() == "method_declaration" && modifiers(file, k).contains(&"native")) {
        return None;
    }
    let has_ctor = members.iter().any(|m| m.is_constructor);
    if !has_ctor {
        // The implicit constructor: the fields' initial values.
        let init = initial_values(file, body, &int_constants(file, body))?;
        cands.retain(|c| eval(&c.cond, &init) == Some(true));
    }
    let started = Instant::now();
    for _ in 0..MAX_ROUNDS {
        if cands.is_empty() {
            return None;
        }
        let mut failed: BTreeSet<u32> = BTreeSet::new();
        for m in &members {
            if m.body.is_empty() {
                continue;
            }
            if started.elapsed() >= budget {
                return None;
            }
            let opts =
                LowerOptions { mode: LowerMode::OverApprox, class_invariants: cands.clone(), ..Default::default() };
            let f = lower_in(ctx, m, &opts);
            if f.proof_blockers.iter().any(|b| *b != Blocker::ClassInvariant) {
                // What this method does is not all seen: nothing can be said to be kept.
                return None;
            }
            let left = budget.saturating_sub(started.elapsed());
            let solve = SolveOptions { timeout: left.min(QUERY), prefer_small: false, cancel: None };
            failed.extend(broken_class_invariants_skipping(&f, &failed, &solve));
        }
        if failed.is_empty() {
            return Some(cands);
        }
        let mut k = 0u32;
        cands.retain(|_| {
            k += 1;
            !failed.contains(&(k - 1))
        });
    }
    None
}

/// [`broken_class_invariants`] without asking again about the candidates already `failed`.
fn broken_class_invariants_skipping(f: &Function, failed: &BTreeSet<u32>, solve: &SolveOptions) -> Vec<u32> {
    if f.class_invariant_blocks().keys().all(|n| failed.contains(n)) {
        return vec![];
    }
    broken_class_invariants(f, solve).into_iter().filter(|n| !failed.contains(n)).collect()
}

/// Whether the class declaration `decl` can have invariants: a class (not an interface, enum or
/// record) that extends nothing, implements only interfaces that cannot make it serializable,
/// in a file that neither reflects on fields nor deserializes.
fn class_qualifies(file: &SourceFile, decl: Node<'_>) -> bool {
    if decl.kind() != "class_declaration" || decl.child_by_field_name("superclass").is_some() {
        return false;
    }
    if UNSEEN_WRITERS.iter().any(|w| file.text.contains(w)) {
        return false;
    }
    let declared = declared_type_names(file);
    if let Some(ifaces) = decl.child_by_field_name("interfaces") {
        let mut stack = vec![ifaces];
        while let Some(n) = stack.pop() {
            if n.kind() == "type_identifier" {
                let name = &file.text[n.byte_range()];
                let nested_in_generic = n.parent().is_some_and(|p| p.kind() == "type_arguments");
                if !nested_in_generic && !PLAIN_INTERFACES.contains(&name) && !declared.contains(name) {
                    return false;
                }
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
    }
    true
}

/// The names of the classes and interfaces the file declares.
fn declared_type_names(file: &SourceFile) -> BTreeSet<&str> {
    let mut out = BTreeSet::new();
    let mut stack = vec![file.tree.root_node()];
    while let Some(n) = stack.pop() {
        if matches!(n.kind(), "class_declaration" | "interface_declaration" | "enum_declaration" | "record_declaration")
        {
            if let Some(name) = n.child_by_field_name("name") {
                out.insert(&file.text[name.byte_range()]);
            }
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    out
}

/// The fields of the class `body` an invariant may speak of: private instance fields of a
/// primitive or reference type that only the class's own constructors, methods and
/// initializers write, as `f = ...` or `this.f = ...`: no `x.f = ...` anywhere in the file, and
/// no write inside a lambda or a nested class of the class.
pub(crate) fn eligible_fields(file: &SourceFile, body: Node<'_>) -> BTreeSet<String> {
    let mut fields = BTreeSet::new();
    let mut c = body.walk();
    for member in body.named_children(&mut c) {
        if member.kind() != "field_declaration" {
            continue;
        }
        let mods = modifiers(file, member);
        if !mods.iter().any(|m| *m == "private") || mods.iter().any(|m| *m == "static") {
            continue;
        }
        let mut dc = member.walk();
        for d in member.children_by_field_name("declarator", &mut dc) {
            if let Some(name) = d.child_by_field_name("name") {
                fields.insert(file.text[name.byte_range()].to_string());
            }
        }
    }
    if fields.is_empty() {
        return fields;
    }
    // Every write of a name among them, anywhere in the file.
    let mut stack = vec![file.tree.root_node()];
    while let Some(n) = stack.pop() {
        let target = match n.kind() {
            "assignment_expression" => n.child_by_field_name("left"),
            "update_expression" => n.named_child(0),
            _ => None,
        };
        if let Some(t) = target {
            let t = unparen(t);
            let (name, own_form) = match t.kind() {
                "identifier" => (Some(&file.text[t.byte_range()]), true),
                "field_access" => (
                    t.child_by_field_name("field").map(|f| &file.text[f.byte_range()]),
                    t.child_by_field_name("object").is_some_and(|o| o.kind() == "this"),
                ),
                _ => (None, false),
            };
            if let Some(name) = name.filter(|nm| fields.contains(*nm)) {
                // `f` and `this.f` outside the class's body are another class's; inside it,
                // they are its own only directly (not in a lambda or a nested class); `x.f` may
                // be its own anywhere.
                let inside = body.start_byte() <= n.start_byte() && n.end_byte() <= body.end_byte();
                let unseen = !own_form || (inside && !directly_in(n, body));
                if unseen {
                    fields.remove(name);
                }
            }
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    fields
}

/// The names of the methods that may start while a method of the class `body` runs on the same
/// object, when its invariants may be broken: every method named in a call or a method
/// reference in the code that may run then (the class's instance methods, constructors,
/// initializers and nested classes, and the static methods that code calls, and those they
/// call; not a static method such as `main` that only code outside calls, whose objects are at
/// rest) on any receiver (another object of the class may be this one), and, once anything in
/// the class lets `this` go anywhere but a field access, a call on it or a comparison
/// ([`this_escapes`]), every method named so anywhere in the file (code the class calls may
/// call back). Names, not signatures: an overload of a called method counts as called.
fn called_mid_method(file: &SourceFile, body: Node<'_>) -> BTreeSet<String> {
    fn called_names(file: &SourceFile, root: Node<'_>, out: &mut BTreeSet<String>) {
        let mut stack = vec![root];
        while let Some(n) = stack.pop() {
            match n.kind() {
                "method_invocation" => {
                    if let Some(name) = n.child_by_field_name("name") {
                        out.insert(file.text[name.byte_range()].to_string());
                    }
                }
                "method_reference" => {
                    if let Some(last) = n.named_child((n.named_child_count() as u32).saturating_sub(1)) {
                        out.insert(file.text[last.byte_range()].to_string());
                    }
                }
                _ => {}
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
    }
    let mut out = BTreeSet::new();
    if this_escapes(body) {
        called_names(file, file.tree.root_node(), &mut out);
        return out;
    }
    // The static methods, by name; everything else may run while a method runs on an object.
    let mut statics: Vec<(&str, Node<'_>)> = Vec::new();
    let mut c = body.walk();
    for member in body.named_children(&mut c) {
        let name = member.child_by_field_name("name").map(|n| &file.text[n.byte_range()]);
        match name {
            Some(name) if member.kind() == "method_declaration" && modifiers(file, member).contains(&"static") => {
                statics.push((name, member))
            }
            _ => called_names(file, member, &mut out),
        }
    }
    loop {
        let (reached, rest): (Vec<_>, Vec<_>) = statics.into_iter().partition(|(name, _)| out.contains(*name));
        if reached.is_empty() {
            return out;
        }
        for (_, member) in reached {
            called_names(file, member, &mut out);
        }
        statics = rest;
    }
}

/// Whether `this` appears in `body` other than as the object of a field access or a call, an
/// operand of `==`/`!=`, or in `this(...)`. A `return this;` lets it go too: the class's own
/// code may pass what such a method returns to code that calls back.
fn this_escapes(body: Node<'_>) -> bool {
    let mut stack = vec![body];
    while let Some(n) = stack.pop() {
        if n.kind() == "this" {
            let mut p = n.parent();
            while let Some(q) = p.filter(|q| q.kind() == "parenthesized_expression") {
                p = q.parent();
            }
            let kept = p.is_some_and(|p| match p.kind() {
                "field_access" | "method_invocation" => {
                    p.child_by_field_name("object").is_some_and(|o| unparen(o).id() == n.id())
                }
                "binary_expression" => {
                    p.child_by_field_name("operator").is_some_and(|o| matches!(o.kind(), "==" | "!="))
                }
                "explicit_constructor_invocation" => true,
                _ => false,
            });
            if !kept {
                return true;
            }
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    false
}

/// Whether `n` is in the code of a member of the class `body` itself: not inside a lambda, a
/// method reference, or the body of another (nested, local or anonymous) class.
fn directly_in(n: Node<'_>, body: Node<'_>) -> bool {
    let mut p = n.parent();
    while let Some(q) = p {
        if q.id() == body.id() {
            return true;
        }
        if matches!(q.kind(), "lambda_expression" | "class_body" | "enum_body" | "interface_body" | "method_reference")
        {
            return false;
        }
        p = q.parent();
    }
    false
}

/// `(x)` → `x`.
fn unparen(mut n: Node<'_>) -> Node<'_> {
    while n.kind() == "parenthesized_expression" {
        match n.named_child(0) {
            Some(c) => n = c,
            None => break,
        }
    }
    n
}

/// The modifier words of a declaration.
fn modifiers<'f>(file: &'f SourceFile, decl: Node<'_>) -> Vec<&'f str> {
    let mut c = decl.walk();
    let found = decl.named_children(&mut c).find(|k| k.kind() == "modifiers");
    found.map(|m| file.text[m.byte_range()].split_whitespace().collect()).unwrap_or_default()
}

/// Whether no constructor, instance initializer or instance field initializer of the class
/// `body` lets `this` escape (it appears only as `this.f` or in `this(...)`), makes a lambda or
/// an object of a class declared inside it, or calls an instance method of the class: then no
/// code runs on the object before a constructor returns, and no call in a constructor reaches
/// its fields.
fn constructors_keep_this(file: &SourceFile, body: Node<'_>) -> bool {
    let instance_methods: BTreeSet<&str> = {
        let mut out = BTreeSet::new();
        let mut c = body.walk();
        for m in body.named_children(&mut c) {
            if m.kind() == "method_declaration" && !modifiers(file, m).contains(&"static") {
                if let Some(name) = m.child_by_field_name("name") {
                    out.insert(&file.text[name.byte_range()]);
                }
            }
        }
        out
    };
    let inner = declared_type_names_in(file, body);
    let mut c = body.walk();
    for member in body.named_children(&mut c) {
        let construction = match member.kind() {
            "constructor_declaration" | "block" => true,
            "field_declaration" => !modifiers(file, member).contains(&"static"),
            _ => false,
        };
        if !construction {
            continue;
        }
        let mut stack = vec![member];
        while let Some(n) = stack.pop() {
            match n.kind() {
                "lambda_expression" | "method_reference" | "class_body" => return false,
                "this" => {
                    let ok = n.parent().is_some_and(|p| {
                        (p.kind() == "field_access"
                            && p.child_by_field_name("object").is_some_and(|o| o.id() == n.id()))
                            || p.kind() == "explicit_constructor_invocation"
                    });
                    if !ok {
                        return false;
                    }
                }
                "method_invocation" => {
                    let object = n.child_by_field_name("object");
                    let name = n.child_by_field_name("name").map(|x| &file.text[x.byte_range()]).unwrap_or("");
                    if object.is_none_or(|o| o.kind() == "this") && instance_methods.contains(name) {
                        return false;
                    }
                }
                "object_creation_expression" => {
                    let ty = n.child_by_field_name("type").map(|t| &file.text[t.byte_range()]).unwrap_or("");
                    let simple = ty.split('<').next().unwrap_or(ty).rsplit('.').next().unwrap_or(ty).trim();
                    if inner.contains(simple) {
                        return false;
                    }
                }
                _ => {}
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
    }
    true
}

/// The names of the classes declared inside `body` without `static` (inner classes, whose
/// objects hold the object that makes them).
fn declared_type_names_in<'f>(file: &'f SourceFile, body: Node<'_>) -> BTreeSet<&'f str> {
    let mut out = BTreeSet::new();
    let mut stack = vec![body];
    while let Some(n) = stack.pop() {
        if n.kind() == "class_declaration" && n.id() != body.parent().map(|p| p.id()).unwrap_or(usize::MAX) {
            if !modifiers(file, n).contains(&"static") {
                if let Some(name) = n.child_by_field_name("name") {
                    out.insert(&file.text[name.byte_range()]);
                }
            }
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    out
}

/// The fields' values when the implicit constructor returns: defaults, or literal initializers.
/// `None` when the class has an initializer block; a field with another initializer has no
/// known value (absent from the map).
fn initial_values(
    file: &SourceFile,
    body: Node<'_>,
    consts: &HashMap<String, Value>,
) -> Option<HashMap<String, Value>> {
    let mut out = HashMap::new();
    let mut c = body.walk();
    for member in body.named_children(&mut c) {
        match member.kind() {
            "block" => return None,
            "field_declaration" if !modifiers(file, member).contains(&"static") => {
                let ty = member.child_by_field_name("type").map(|t| &file.text[t.byte_range()]).unwrap_or("");
                let mut dc = member.walk();
                for d in member.children_by_field_name("declarator", &mut dc) {
                    let Some(name) = d.child_by_field_name("name") else { continue };
                    let name = file.text[name.byte_range()].to_string();
                    let array = d.child_by_field_name("dimensions").is_some();
                    let v = match d.child_by_field_name("value") {
                        None if array => Some(Value::Null),
                        None => default_of(ty),
                        Some(v) if v.kind() == "identifier" => consts.get(&file.text[v.byte_range()]).copied(),
                        Some(v) => literal(file, v),
                    };
                    if let Some(v) = v {
                        out.insert(name, v);
                    }
                }
            }
            _ => {}
        }
    }
    Some(out)
}

/// A value of a field in [`eval`].
#[derive(Clone, Copy, Debug, PartialEq)]
enum Value {
    Int(i64),
    Bool(bool),
    Null,
}

fn default_of(ty: &str) -> Option<Value> {
    Some(match ty {
        "int" | "long" | "short" | "byte" | "char" => Value::Int(0),
        "boolean" => Value::Bool(false),
        "float" | "double" => return None,
        _ => Value::Null,
    })
}

/// An integer, boolean or null literal (a negated integer too).
fn literal(file: &SourceFile, n: Node<'_>) -> Option<Value> {
    let n = unparen(n);
    let text = &file.text[n.byte_range()];
    match n.kind() {
        "true" => Some(Value::Bool(true)),
        "false" => Some(Value::Bool(false)),
        "null_literal" => Some(Value::Null),
        "decimal_integer_literal" | "hex_integer_literal" | "octal_integer_literal" | "binary_integer_literal" => {
            match jreach_ir::lower::parse_int_literal(text)? {
                Const::Int(_, v) => Some(Value::Int(v)),
                _ => None,
            }
        }
        "unary_expression" if text.trim_start().starts_with('-') => {
            match literal(file, n.child_by_field_name("operand")?)? {
                Value::Int(v) => Some(Value::Int(v.checked_neg()?)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `cond` on known field values; `None` when a field's value is unknown or the types differ.
fn eval(cond: &FieldCond, values: &HashMap<String, Value>) -> Option<bool> {
    let atom = |a: &FieldAtom| -> Option<Value> {
        match a {
            FieldAtom::Field(f) => values.get(f).copied(),
            FieldAtom::Int(n) => Some(Value::Int(*n)),
            FieldAtom::Bool(b) => Some(Value::Bool(*b)),
            FieldAtom::Null => Some(Value::Null),
        }
    };
    Some(match cond {
        FieldCond::Cmp(op, a, b) => match (atom(a)?, atom(b)?) {
            (Value::Int(x), Value::Int(y)) if op.is_comparison() => jreach_ir::interp::compare(*op, x, y),
            (Value::Bool(x), Value::Bool(y)) if matches!(op, BinOp::Eq | BinOp::Ne) => (x == y) == (*op == BinOp::Eq),
            // A field compared with null holds null here only if its value is null.
            (x, Value::Null) | (Value::Null, x) if matches!(op, BinOp::Eq | BinOp::Ne) => {
                (x == Value::Null) == (*op == BinOp::Eq)
            }
            _ => return None,
        },
        FieldCond::Is(a) => match atom(a)? {
            Value::Bool(b) => b,
            _ => return None,
        },
        FieldCond::Not(c) => !eval(c, values)?,
        FieldCond::And(a, b) => eval(a, values)? && eval(b, values)?,
        FieldCond::Or(a, b) => eval(a, values)? || eval(b, values)?,
    })
}

/// The candidates of the class `body`: each condition of its instance methods (and the operands
/// of its `&&`, `||` and `!`) that reads only `fields` (at least one) and constants, negated
/// (the shape of a defensive check that never fires) and as written.
pub(crate) fn candidates(file: &SourceFile, body: Node<'_>, fields: &BTreeSet<String>) -> Vec<ClassInvariant> {
    let class = body
        .parent()
        .and_then(|d| d.child_by_field_name("name"))
        .map(|n| file.text[n.byte_range()].to_string())
        .unwrap_or_default();
    let consts = int_constants(file, body);
    let field_decls = field_declarations(file, body);
    let mut out: Vec<ClassInvariant> = Vec::new();
    let mut c = body.walk();
    for member in body.named_children(&mut c) {
        if member.kind() != "method_declaration" || modifiers(file, member).contains(&"static") {
            continue;
        }
        let Some(mbody) = member.child_by_field_name("body") else { continue };
        let shadowed = declared_names(file, member);
        let conv = Converter { file, fields, consts: &consts, shadowed: &shadowed };
        let mut conds = Vec::new();
        conditions(mbody, &mut conds);
        for e in conds {
            let Some(cond) = conv.cond(e) else { continue };
            if fields_of(&cond).is_empty() {
                continue;
            }
            for cand in [negate(&cond), cond] {
                if out.iter().any(|o| o.cond == cand) {
                    continue;
                }
                let first = fields_of(&cand).into_iter().next().unwrap_or_default();
                let span = field_decls.get(&first).cloned().unwrap_or_else(|| e.byte_range());
                out.push(ClassInvariant { text: render(&cand), cond: cand, class: class.clone(), span });
            }
        }
    }
    out.truncate(MAX_CANDIDATES);
    out
}

/// Where each field of the class `body` is declared (its declarator).
fn field_declarations(file: &SourceFile, body: Node<'_>) -> HashMap<String, std::ops::Range<usize>> {
    let mut out = HashMap::new();
    let mut c = body.walk();
    for member in body.named_children(&mut c).filter(|m| m.kind() == "field_declaration") {
        let mut dc = member.walk();
        for d in member.children_by_field_name("declarator", &mut dc) {
            if let Some(name) = d.child_by_field_name("name") {
                out.insert(file.text[name.byte_range()].to_string(), d.byte_range());
            }
        }
    }
    out
}

/// The conditions in `n` (of `if`, loops, `?:` and assertions) and their operands under `&&`,
/// `||` and `!`, outside lambdas and nested classes.
fn conditions<'t>(n: Node<'t>, out: &mut Vec<Node<'t>>) {
    if matches!(n.kind(), "lambda_expression" | "class_body") {
        return;
    }
    let cond = match n.kind() {
        "if_statement" | "while_statement" | "do_statement" | "for_statement" | "ternary_expression" => {
            n.child_by_field_name("condition")
        }
        "assert_statement" => n.named_child(0),
        _ => None,
    };
    if let Some(c) = cond {
        operands(unparen(c), out);
    }
    let mut w = n.walk();
    for k in n.named_children(&mut w) {
        conditions(k, out);
    }
}

/// `e`, and the operands of its `&&`, `||` and `!`, recursively.
fn operands<'t>(e: Node<'t>, out: &mut Vec<Node<'t>>) {
    out.push(e);
    match e.kind() {
        "binary_expression" => {
            let op = e.child_by_field_name("operator").map(|o| o.kind()).unwrap_or("");
            if matches!(op, "&&" | "||") {
                for side in ["left", "right"] {
                    if let Some(s) = e.child_by_field_name(side) {
                        operands(unparen(s), out);
                    }
                }
            }
        }
        "unary_expression" => {
            if let Some(o) = e.child_by_field_name("operand") {
                operands(unparen(o), out);
            }
        }
        _ => {}
    }
}

/// The names a method declares (parameters and locals, anywhere in it): they shadow fields.
fn declared_names<'f>(file: &'f SourceFile, method: Node<'_>) -> BTreeSet<&'f str> {
    let mut out = BTreeSet::new();
    let mut stack = vec![method];
    while let Some(n) = stack.pop() {
        if matches!(
            n.kind(),
            "formal_parameter" | "variable_declarator" | "catch_formal_parameter" | "spread_parameter"
        ) {
            if let Some(name) = n.child_by_field_name("name") {
                out.insert(&file.text[name.byte_range()]);
            }
        }
        if n.kind() == "lambda_expression" {
            if let Some(p) = n.child_by_field_name("parameters") {
                let mut s = vec![p];
                while let Some(q) = s.pop() {
                    if q.kind() == "identifier" {
                        out.insert(&file.text[q.byte_range()]);
                    }
                    let mut c = q.walk();
                    s.extend(q.named_children(&mut c));
                }
            }
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    out
}

/// The `static final` integer, boolean or null constants of the class `body`, by name.
fn int_constants(file: &SourceFile, body: Node<'_>) -> HashMap<String, Value> {
    let mut out = HashMap::new();
    let mut c = body.walk();
    for member in body.named_children(&mut c) {
        let mods = modifiers(file, member);
        if member.kind() != "field_declaration" || !mods.contains(&"static") || !mods.contains(&"final") {
            continue;
        }
        let mut dc = member.walk();
        for d in member.children_by_field_name("declarator", &mut dc) {
            let (Some(name), Some(v)) = (d.child_by_field_name("name"), d.child_by_field_name("value")) else {
                continue;
            };
            if let Some(v) = literal(file, v) {
                out.insert(file.text[name.byte_range()].to_string(), v);
            }
        }
    }
    out
}

/// Reads a condition as a [`FieldCond`].
struct Converter<'a> {
    file: &'a SourceFile,
    fields: &'a BTreeSet<String>,
    consts: &'a HashMap<String, Value>,
    shadowed: &'a BTreeSet<&'a str>,
}

impl Converter<'_> {
    fn cond(&self, e: Node<'_>) -> Option<FieldCond> {
        let e = unparen(e);
        match e.kind() {
            "binary_expression" => {
                let op = e.child_by_field_name("operator")?.kind();
                let (l, r) = (e.child_by_field_name("left")?, e.child_by_field_name("right")?);
                match op {
                    "&&" => Some(FieldCond::And(Box::new(self.cond(l)?), Box::new(self.cond(r)?))),
                    "||" => Some(FieldCond::Or(Box::new(self.cond(l)?), Box::new(self.cond(r)?))),
                    _ => {
                        let comparisons = [BinOp::Eq, BinOp::Ne, BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge];
                        let cmp = comparisons.into_iter().find(|c| c.symbol() == op)?;
                        Some(FieldCond::Cmp(cmp, self.atom(l)?, self.atom(r)?))
                    }
                }
            }
            "unary_expression" if self.file.text[e.byte_range()].trim_start().starts_with('!') => {
                Some(FieldCond::Not(Box::new(self.cond(e.child_by_field_name("operand")?)?)))
            }
            _ => match self.atom(e)? {
                a @ FieldAtom::Field(_) => Some(FieldCond::Is(a)),
                _ => None,
            },
        }
    }

    fn atom(&self, e: Node<'_>) -> Option<FieldAtom> {
        let e = unparen(e);
        let text = &self.file.text[e.byte_range()];
        let field = match e.kind() {
            "identifier" if !self.shadowed.contains(text) => Some(text),
            "field_access" if e.child_by_field_name("object").is_some_and(|o| o.kind() == "this") => {
                e.child_by_field_name("field").map(|f| &self.file.text[f.byte_range()])
            }
            _ => None,
        };
        if let Some(f) = field {
            if self.fields.contains(f) {
                return Some(FieldAtom::Field(f.to_string()));
            }
            if e.kind() == "identifier" {
                return self.consts.get(f).map(|v| value_atom(*v));
            }
            return None;
        }
        literal(self.file, e).map(value_atom)
    }
}

fn value_atom(v: Value) -> FieldAtom {
    match v {
        Value::Int(n) => FieldAtom::Int(n),
        Value::Bool(b) => FieldAtom::Bool(b),
        Value::Null => FieldAtom::Null,
    }
}

/// The fields a condition reads.
fn fields_of(c: &FieldCond) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut add = |a: &FieldAtom| {
        if let FieldAtom::Field(f) = a {
            out.insert(f.clone());
        }
    };
    fn walk(c: &FieldCond, add: &mut dyn FnMut(&FieldAtom)) {
        match c {
            FieldCond::Cmp(_, a, b) => {
                add(a);
                add(b);
            }
            FieldCond::Is(a) => add(a),
            FieldCond::Not(x) => walk(x, add),
            FieldCond::And(a, b) | FieldCond::Or(a, b) => {
                walk(a, add);
                walk(b, add);
            }
        }
    }
    walk(c, &mut add);
    out
}

/// `!c`, with the negation pushed to the comparisons (De Morgan).
fn negate(c: &FieldCond) -> FieldCond {
    match c {
        FieldCond::Cmp(op, a, b) => {
            let op = match op {
                BinOp::Eq => BinOp::Ne,
                BinOp::Ne => BinOp::Eq,
                BinOp::Lt => BinOp::Ge,
                BinOp::Le => BinOp::Gt,
                BinOp::Gt => BinOp::Le,
                _ => BinOp::Lt,
            };
            FieldCond::Cmp(op, a.clone(), b.clone())
        }
        FieldCond::Is(_) => FieldCond::Not(Box::new(c.clone())),
        FieldCond::Not(x) => (**x).clone(),
        FieldCond::And(a, b) => FieldCond::Or(Box::new(negate(a)), Box::new(negate(b))),
        FieldCond::Or(a, b) => FieldCond::And(Box::new(negate(a)), Box::new(negate(b))),
    }
}

/// `c` as Java.
fn render(c: &FieldCond) -> String {
    let atom = |a: &FieldAtom| match a {
        FieldAtom::Field(f) => f.clone(),
        FieldAtom::Int(n) => n.to_string(),
        FieldAtom::Bool(b) => b.to_string(),
        FieldAtom::Null => "null".to_string(),
    };
    let sub = |x: &FieldCond| match x {
        FieldCond::And(..) | FieldCond::Or(..) => format!("({})", render(x)),
        _ => render(x),
    };
    match c {
        FieldCond::Cmp(op, a, b) => format!("{} {} {}", atom(a), op.symbol(), atom(b)),
        FieldCond::Is(a) => atom(a),
        FieldCond::Not(x) => format!("!{}", sub(x)),
        FieldCond::And(a, b) => format!("{} && {}", sub(a), sub(b)),
        FieldCond::Or(a, b) => format!("{} || {}", sub(a), sub(b)),
    }
}

/// Whether a condition in `body` reads one of `fields` (by name, or as `this.f`).
fn tests_any(file: &SourceFile, body: Node<'_>, fields: &BTreeSet<String>) -> bool {
    let mut conds = Vec::new();
    conditions(body, &mut conds);
    conds.iter().any(|c| {
        let mut stack = vec![*c];
        while let Some(n) = stack.pop() {
            if n.kind() == "identifier" && fields.contains(&file.text[n.byte_range()]) {
                return true;
            }
            let mut w = n.walk();
            stack.extend(n.named_children(&mut w));
        }
        false
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::expect;

    fn class_cands(src: &str) -> String {
        let file = SourceFile::parse(src);
        let m = &MethodInfo::all(&file)[0];
        let body = class_body_of(&file, m).expect("a class");
        let fields = eligible_fields(&file, body);
        let ok = class_qualifies(&file, body.parent().unwrap()) && constructors_keep_this(&file, body);
        let cands: Vec<String> = candidates(&file, body, &fields).iter().map(|c| c.text.clone()).collect();
        format!("fields {fields:?}, qualifies {ok}, candidates {cands:?}")
    }

    #[test]
    fn candidates_come_from_conditions_over_fields_only_the_class_writes() {
        let src = "class Pool {\n  private int used;\n  private final int capacity;\n  private int seen;\n  Pool(int c) { capacity = c; }\n  void acquire() { if (used == capacity) throw new IllegalStateException(); used++; }\n  void check(int x) { if (used > capacity || x > seen) throw new AssertionError(); }\n  static void poke(Pool p) { p.seen = 3; }\n}\n";
        expect![[r#"fields {"capacity", "used"}, qualifies true, candidates ["used != capacity", "used == capacity", "used <= capacity", "used > capacity"]"#]]
            .assert_eq(&class_cands(src));
    }

    #[test]
    fn a_constructor_that_lets_this_escape_or_calls_a_method_disqualifies_the_class() {
        let escape = "class A {\n  private int n;\n  A() { Registry.add(this); }\n  void f() { if (n < 0) throw new AssertionError(); }\n}\n";
        assert!(class_cands(escape).contains("qualifies false"));
        let call = "class A {\n  private int n;\n  A() { reset(); }\n  void reset() { n = 0; }\n  void f() { if (n < 0) throw new AssertionError(); }\n}\n";
        assert!(class_cands(call).contains("qualifies false"));
        let lambda = "class A {\n  private int n;\n  private Runnable r = () -> System.out.println();\n  void f() { if (n < 0) throw new AssertionError(); }\n}\n";
        assert!(class_cands(lambda).contains("qualifies false"));
        let serial = "class A implements java.io.Serializable {\n  private int n;\n  void f() { if (n < 0) throw new AssertionError(); }\n}\n";
        assert!(class_cands(serial).contains("qualifies false"));
        let sub = "class A extends B {\n  private int n;\n  void f() { if (n < 0) throw new AssertionError(); }\n}\n";
        assert!(class_cands(sub).contains("qualifies false"));
    }

    #[test]
    fn a_native_method_which_may_write_the_fields_unseen_leaves_no_invariant() {
        let src = "class C {\n  private int n;\n  void inc() { if (n < 9) n++; }\n  int get() {\n    if (n < 0) {\n      return -1;\n    }\n    return n;\n  }\n}\n";
        let dead = |src: &str| crate::check_file(&SourceFile::parse(src), Duration::from_secs(10)).findings.len();
        assert!(dead(src) > 0, "`n >= 0` is kept by `inc`");
        let native = src.replace("  int get()", "  native void set();\n  int get()");
        assert_eq!(dead(&native), 0);
    }

    /// The lines (1-based) of `src`'s unreachable-code findings.
    fn dead_lines(src: &str) -> Vec<usize> {
        let report = crate::check_file(&SourceFile::parse(src), Duration::from_secs(10));
        let lines = jreach_syntax::LineIndex::new(src);
        report
            .findings
            .iter()
            .filter(|f| f.code() == crate::UNREACHABLE_CODE)
            .map(|f| lines.line_of(f.range.start) + 1)
            .collect()
    }

    #[test]
    fn a_method_the_class_calls_itself_may_start_with_the_invariant_broken() {
        // `add` breaks `used <= cap` for a moment and calls `fix`, which puts it right: `fix`'s
        // `used = cap;` runs (`new P(0).add()`), though every method keeps the invariant.
        let src = "class P {\n  private int used;\n  private int cap;\n  P(int c) { cap = c < 0 ? 0 : c; used = 0; }\n  void add() {\n    used++;\n    fix();\n  }\n  private void fix() {\n    if (used > cap) {\n      used = cap;\n    }\n  }\n  int check() {\n    if (used > cap) {\n      return -1;\n    }\n    return used;\n  }\n}\n";
        assert_eq!(dead_lines(src), vec![16], "only `check`, which no method of the class calls");
        // Called on another object of the class (which may be this one), or as a method reference.
        let other = src.replace("    fix();", "    P self = this == null ? null : this;\n    self.fix();");
        assert!(!dead_lines(&other).contains(&12), "{:?}", dead_lines(&other));
        let reference = src.replace("    fix();", "    Runnable r = this::fix;\n    r.run();");
        assert!(!dead_lines(&reference).contains(&12), "{:?}", dead_lines(&reference));
        // `check` called by the class's own code loses its entry assumption too.
        let audit = src.replace("    fix();", "    int r = check();\n    fix();");
        assert!(!dead_lines(&audit).contains(&17), "{:?}", dead_lines(&audit));
        // Through a static method of the class that an instance method calls.
        let via_static = src
            .replace("    fix();", "    settle(this.used, 0);")
            .replace("  int check() {", "  static void settle(int u, int c) { new P(c).fix(); }\n  int check() {");
        assert!(!dead_lines(&via_static).contains(&12), "{:?}", dead_lines(&via_static));
        // A static method only code outside the class calls (`main`) works on objects at rest.
        let main = src
            .replace("  int check() {", "  public static void main(String[] a) { new P(1).check(); }\n  int check() {");
        assert_eq!(dead_lines(&main), vec![17], "`main`'s call of `check` is from outside any method on the object");
    }

    #[test]
    fn a_method_called_anywhere_in_the_file_assumes_nothing_once_the_class_hands_this_out() {
        // `add` hands `this` to a helper of another class, which calls `fix` while `used > cap`.
        let src = "class P {\n  private int used;\n  private int cap;\n  P(int c) { cap = c < 0 ? 0 : c; used = 0; }\n  void add() {\n    used++;\n    Helper.settle(this);\n  }\n  void fix() {\n    if (used > cap) {\n      used = cap;\n    }\n  }\n}\nclass Helper {\n  static void settle(P p) {\n    p.fix();\n  }\n}\n";
        assert!(!dead_lines(src).contains(&11), "{:?}", dead_lines(src));
        // An alias of `this` a method returns goes out the same way.
        let returned = src
            .replace("    Helper.settle(this);", "    Helper.settle(self());")
            .replace("  void fix() {", "  P self() {\n    return this;\n  }\n  void fix() {");
        assert!(!dead_lines(&returned).contains(&14), "{:?}", dead_lines(&returned));
        // Without the call back, `fix` is only called from outside: the claim stands.
        let plain = src.replace("    Helper.settle(this);", "    if (used > cap) used = cap;");
        assert!(dead_lines(&plain).contains(&11), "{:?}", dead_lines(&plain));
    }

    #[test]
    fn a_field_of_a_type_jreach_does_not_track_compared_with_null_is_no_candidate_and_no_crash() {
        // `Writer` is a reference jreach does not track: `out == null` has no term to check.
        let src = "class S {\n  private final java.io.Writer out;\n  private int n;\n  S(java.io.Writer out) { this.out = out; }\n  int f() {\n    if (out == null) {\n      return -1;\n    }\n    n++;\n    return n;\n  }\n}\n";
        let report = crate::check_file(&SourceFile::parse(src), Duration::from_secs(10));
        assert!(report.methods.iter().all(|(_, v)| *v == crate::MethodVerdict::Verdict), "{:?}", report.methods);
        assert!(report.findings.is_empty(), "{:#?}", report.findings);
    }

    #[test]
    fn writes_in_lambdas_nested_classes_or_through_other_references_disqualify_a_field() {
        let src = "class A {\n  private int a;\n  private int b;\n  private int c;\n  private int d;\n  private int e;\n  void f(A o) { Runnable r = () -> a++; o.b = 1; this.c = 2; d += 1; }\n  class In { void g() { c = 5; } }\n  void h() { if (a > 0 && b > 0 && c > 0 && d > 0 && e > 0) {} }\n}\nclass B {\n  private int d;\n  void k(A x) { d = 4; this.d = 5; x.e = 1; }\n}\n";
        expect![[r#"fields {"d"}, qualifies true, candidates ["d <= 0", "d > 0"]"#]].assert_eq(&class_cands(src));
    }
}
