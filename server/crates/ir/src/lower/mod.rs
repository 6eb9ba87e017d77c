//! Lowering of a Java method body (a tree-sitter subtree) to an acyclic [`Function`].
//!
//! Statements and expressions are walked once, building SSA with [`FunctionBuilder`]. Control flow
//! that Java evaluates lazily (`&&`, `||`, `?:`, switch dispatch) becomes branches. Implicit
//! exceptions (integral division by zero, null receivers, string and array indices) become branches
//! to the matching `catch`, through `finally` bodies, which are copied onto every exit path as javac
//! does. Calls to methods of the same class are inlined up to a depth; calls to a few JDK methods
//! become their definitions; other calls give unknown values. Strings are values of their own;
//! arrays and objects of the file's classes are references into memories that are SSA variables
//! like locals; the receiver's fields are variables. In synthesis, constructors and methods also
//! run on other objects (`Frame::this_obj`), and parameters a test must create through calls
//! (constructors, setters, lambdas, `List.of`, `Map.of`: see `func::Setup`) are built from extra
//! inputs at the method's entry. Loops are unrolled (`LowerMode::Synthesis`) or
//! abstracted by havoc of the locals and memories they may write (`LowerMode::OverApprox`).
//! Whatever is not modelled cuts the path with a reason and records a proof blocker, and so does
//! every narrowing synthesis makes: the lowering never panics on valid or broken Java.
//!
//! The walker is one `Lowerer` whose methods live in rooms named for what they lower (they call
//! each other freely: the recursion of statements, expressions and calls is inherent):
//! `emit` (blocks, values, conversions, cut-offs), `names` (locals, fields, constants), `stmt`,
//! `throw` (exceptions as control flow), `expr`, `calls` (inlining and dispatch), `jdk` (JDK
//! methods as IR), `heap` (array and object memories), `havoc` (what abstractions forget),
//! `receiver` (the receiver's fields), `inherit`, `statics`, `text_builder`, `optional`,
//! `collections` (synthesis models of JDK objects), `inputs` (what a test creates), `literal`.
//! The file's class table is `crate::classes`.

use std::collections::HashMap;

use jreach_syntax::tree::{enclosing_classes, has_modifier, named_children, unparen};
use jreach_syntax::{split_type_args, text_of, MethodInfo, Node, SourceFile};

use crate::builder::{FunctionBuilder, Var};
use crate::classes::Classes;
use crate::exceptions::is_subclass;
use crate::func::*;
use crate::types::{normalize, ArrTy, Const, Ty};
pub use class_invariants::{ClassInvariant, FieldAtom, FieldCond};
pub use literal::{parse_char_literal, parse_float_literal, parse_int_literal, parse_string_literal};

mod calls;
mod class_invariants;
mod collections;
mod emit;
mod expr;
mod havoc;
mod heap;
mod inherit;
mod inputs;
mod invariants;
mod jdk;
mod literal;
mod names;
mod optional;
mod receiver;
mod statics;
mod stmt;
mod text_builder;
mod throw;

use jdk::jdk_constant;

/// How to lower.
#[derive(Clone, Debug)]
pub struct LowerOptions {
    pub mode: LowerMode,
    /// Nesting depth of inlined calls (recursion included).
    pub inline_depth: u32,
    /// Synthesis: at most this many recursive calls inlined in one lowering (see
    /// [`RECURSIVE_INLINES`], the default).
    pub recursive_inlines: u32,
    /// Upper bound on values before paths are cut off (keeps unrolling of nested loops in check).
    pub max_values: usize,
    /// For an instance method in synthesis: the byte range of the constructor a test creates
    /// the receiver with (its parameters become inputs after the method's own); `None`: the
    /// no-argument constructor.
    pub receiver_ctor: Option<std::ops::Range<usize>>,
    /// Synthesis: whether a test may call methods that assign fields on the objects it creates
    /// (the receiver, parameters created with a constructor) before the call under test: each
    /// at most once, in declaration order.
    pub setup_calls: bool,
    /// The byte offset from which the file holds classes of other packages (appended for
    /// synthesis): a test may use only their public classes, constructors and methods.
    pub foreign_from: Option<usize>,
    /// The byte offset from which the file holds classes appended for synthesis (the package's
    /// and imported ones): the file's own types shadow theirs of the same name.
    pub own_end: Option<usize>,
    /// For an instance method in synthesis whose class a test can make only by reflection
    /// ([`receiver_by_reflection`]): the receiver's fields are inputs (`this.<field>`), which
    /// the test sets on an object allocated without running a constructor.
    pub receiver_by_reflection: bool,
    /// Over-approximation only: loops (`while`, `for`, `do`, `for` over an array) are unrolled
    /// this many times instead of abstracted, and a path that would start one more iteration
    /// ends in a [`CutoffKind::Unwinding`] block ([`Blocker::Unwinding`] until a proof shows no
    /// input gets there; then the loops are exact and a proof needs no loop invariant).
    pub proof_unroll: Option<u32>,
    /// Over-approximation only, for loops it abstracts: candidate invariants, checked where the
    /// loop is entered and where an iteration ends (a failing check ends in a
    /// [`CutoffKind::InvariantBroken`] block) and assumed at the loop head after its havoc (Houdini:
    /// the caller drops the candidates whose checks some input reaches, and lowers again).
    pub loop_invariants: Vec<InvariantCandidate>,
    /// Over-approximation only, for a constructor or instance method of the class they are
    /// about: candidate invariants of the receiver's class, established by constructors,
    /// assumed and kept by methods (`class_invariants`; a failing check ends in a
    /// [`CutoffKind::ClassInvariantBroken`] block). The caller must give them only for a class
    /// whose fields they read are written by its own constructors and methods alone, and whose
    /// constructors let `this` escape to nothing.
    pub class_invariants: Vec<ClassInvariant>,
}

/// A candidate invariant of a loop: a property of one integral local at the loop's head.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvariantCandidate {
    /// The byte offset where the loop statement starts.
    pub loop_start: usize,
    /// The local's name.
    pub var: String,
    pub kind: InvariantKind,
}

/// What a candidate says of its local `x` (exact over Java's two's-complement integers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InvariantKind {
    /// `(x & mask) == value`: `x` is even, or 3 modulo 4 (also for negative `x`).
    LowBits { mask: i64, value: i64 },
    /// `x >= n`.
    AtLeast(i64),
    /// `x <= n`.
    AtMost(i64),
}

impl Default for LowerOptions {
    fn default() -> Self {
        LowerOptions {
            mode: LowerMode::Synthesis { unroll: 8 },
            inline_depth: 8,
            recursive_inlines: RECURSIVE_INLINES,
            max_values: 400_000,
            receiver_ctor: None,
            setup_calls: false,
            foreign_from: None,
            own_end: None,
            receiver_by_reflection: false,
            proof_unroll: None,
            loop_invariants: Vec::new(),
            class_invariants: Vec::new(),
        }
    }
}

/// The proof blocker of a synthesis that takes the receiver as its constructor leaves it.
pub const RECEIVER_AS_CONSTRUCTED: &str = "the receiver is taken as its constructor leaves it";

/// The display name (in dumps and messages) of the input holding argument `ctor_param` of the
/// receiver's constructor; which inputs those are is `Setup::receiver_ctor_args`.
fn receiver_param_name(ctor_param: &str) -> String {
    format!("new.{ctor_param}")
}

/// The display name of the input holding field `field` of a receiver made by reflection; which
/// inputs those are is `Setup::receiver_fields`.
fn receiver_field_param_name(field: &str) -> String {
    format!("this.{field}")
}

/// What every lowering of a file's methods needs and what depends only on the file (and on
/// where appended sources begin): its methods, its class table (with, for synthesis, the classes
/// a test can make only by reflection) and its fields. Built once per file and shared by every
/// lowering of its methods (every method `check` asks about, every rung of `gen`'s unroll
/// ladder), instead of once per lowering.
pub struct FileContext<'f> {
    file: &'f SourceFile,
    foreign_from: Option<usize>,
    own_end: Option<usize>,
    methods: Vec<MethodInfo>,
    /// As proofs see the classes.
    classes: Classes,
    /// As synthesis sees them: reflective classes marked (worked out on first use).
    synthesis_classes: std::cell::OnceCell<Classes>,
    fields: HashMap<String, Vec<FieldInfo>>,
    /// What every lowering needs from the whole file, per view of the classes (proofs,
    /// synthesis), worked out on first use.
    scans: [std::cell::OnceCell<FileScan>; 2],
    /// The first comment or literal whose Unicode escapes change what javac reads.
    unicode_hazard: std::cell::OnceCell<Option<(usize, &'static str)>>,
}

/// An element of an annotation interface ([`FileContext::annotation_elements`]):
/// `Class<?> value();`, `boolean nullSafe() default true;`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnnotationElement {
    /// Its type as written (`Class<?>`, `String[]`).
    pub ty: String,
    pub name: String,
    /// The default value as written (`true`, `{}`), if it has one.
    pub default: Option<String>,
}

/// The parts of a file every method's lowering starts from: walks of the whole tree that are the
/// same for all of them.
struct FileScan {
    /// Array types with a memory each (`heap::array_types`).
    array_types: Vec<ArrTy>,
    /// Static fields tracked as variables (`statics::static_decls`).
    statics: Vec<statics::StaticDecl>,
}

impl<'f> FileContext<'f> {
    /// The context of `file`, whose classes from `foreign_from` on come from other packages and
    /// from `own_end` on were appended for synthesis (see [`LowerOptions`]).
    pub fn new(file: &'f SourceFile, foreign_from: Option<usize>, own_end: Option<usize>) -> FileContext<'f> {
        let classes = Classes::of(file, foreign_from, own_end);
        let fields = names::collect_fields(file, &classes);
        FileContext {
            file,
            foreign_from,
            own_end,
            methods: MethodInfo::all(file),
            classes,
            synthesis_classes: std::cell::OnceCell::new(),
            fields,
            scans: Default::default(),
            unicode_hazard: std::cell::OnceCell::new(),
        }
    }

    fn scan(&self, synthesis: bool) -> &FileScan {
        self.scans[synthesis as usize].get_or_init(|| {
            let classes = self.classes_for(synthesis);
            FileScan {
                array_types: heap::array_types(self.file, classes),
                statics: statics::static_decls(self.file, classes),
            }
        })
    }

    /// The file's methods (`MethodInfo::all`).
    pub fn methods(&self) -> &[MethodInfo] {
        &self.methods
    }

    /// The file.
    pub fn file(&self) -> &'f SourceFile {
        self.file
    }

    /// Where the sources appended for synthesis begin, if any: the file's own text ends there.
    pub fn own_end(&self) -> Option<usize> {
        self.own_end
    }

    /// Where the appended sources of other packages begin, if any (those before are the file's
    /// and its package's, whose package-private members a test of the package may use).
    pub fn foreign_from(&self) -> Option<usize> {
        self.foreign_from
    }

    /// Whether a test can make the receiver of instance method `m` only by reflection: its class
    /// has no constructor, static factory or builder a test may call, and a test can name and
    /// allocate it.
    pub fn receiver_by_reflection(&self, m: &MethodInfo) -> bool {
        if m.is_static || m.is_constructor {
            return false;
        }
        let c = self.classes.by_name.get(&m.class_name());
        c.is_some_and(|c| inputs::reflection_only(self.file, &self.classes, &self.methods, *c))
    }

    /// A Java type as written in the file as a test writes it: the type variables synthesis
    /// instantiates replaced (`T` → `Integer`, `List<T>` → `List<Integer>`).
    pub fn test_java_of(&self, java_ty: &str) -> String {
        self.classes_for(true).java_of(java_ty)
    }

    /// Per Java type as written in the file, whether jreach models its values (primitives,
    /// strings, the file's classes, the JDK types it models, arrays of those): a test can then
    /// be given one to create.
    pub fn sees_types(&self, java_tys: &[&str]) -> Vec<bool> {
        java_tys.iter().map(|t| self.classes.ty_of(t) != Ty::Ref).collect()
    }

    /// For a parameter of type `java_ty` (as written in the file): the class's name as a test
    /// writes it, when it is a class of the file, its package or its imports that a test creates
    /// with `new C()` (one it can name that is neither abstract, an enum nor an interface, with
    /// a constructor without parameters a test may call, or none declared). A search on the JVM
    /// may pass such an object where the model chose null.
    pub fn made_without_arguments(&self, java_ty: &str) -> Option<String> {
        let classes = self.classes_for(true);
        let base = java_ty.trim().trim_start_matches("final ").trim();
        let base = base.split('<').next().unwrap_or(base).trim();
        let c = *classes.by_name.get(base)? as usize;
        let concrete = classes.constructible.get(c).copied().unwrap_or(false)
            || classes.reflectable.get(c).copied().unwrap_or(false);
        let body = classes.bodies.get(c)?.clone()?;
        if !concrete || classes.hidden.get(c).copied().unwrap_or(true) {
            return None;
        }
        // A class declaration (not an enum, interface or record) that is not abstract.
        let decl = self.file.tree.root_node().descendant_for_byte_range(body.start, body.end)?.parent()?;
        let has = |modifier: &str| jreach_syntax::tree::has_modifier(decl, &self.file.text, modifier);
        if decl.kind() != "class_declaration" || has("abstract") {
            return None;
        }
        // (A class of another package only when it is public.)
        if classes.foreign.get(c).copied().unwrap_or(false) && !has("public") {
            return None;
        }
        let name = &classes.descs[c].name;
        let ctors: Vec<&MethodInfo> =
            self.methods.iter().filter(|m| m.is_constructor && m.classes.join(".") == *name).collect();
        let callable = match ctors.is_empty() {
            true => classes.implicit_ctor.get(c).copied().unwrap_or(false) || classes.reflectable[c],
            false => ctors.iter().any(|m| m.params.is_empty() && !m.has_error && classes.test_may_call(c as u16, m)),
        };
        callable.then(|| name.clone())
    }

    /// For a parameter of type `java_ty` (as written in the file): when it is an annotation
    /// interface of the file, its package or its imports (`@interface JsonAdapter`; one of
    /// another package only when public), its elements, which an anonymous class implementing
    /// the interface returns (a test may pass `new JsonAdapter() {...}` where the code reads an
    /// annotation). `None` for any other type.
    pub fn annotation_elements(&self, java_ty: &str) -> Option<Vec<AnnotationElement>> {
        use jreach_syntax::tree::{has_modifier, named_children};
        let src = self.file.text.as_str();
        let base = java_ty.trim().trim_start_matches("final ").trim();
        let base = base.rsplit('.').next().unwrap_or(base).trim();
        let mut stack = vec![self.file.tree.root_node()];
        while let Some(n) = stack.pop() {
            if n.kind() != "annotation_type_declaration" {
                stack.extend(named_children(n));
                continue;
            }
            if n.child_by_field_name("name").map(|c| jreach_syntax::text_of(c, src)) != Some(base) {
                continue;
            }
            let foreign = self.foreign_from.is_some_and(|at| n.start_byte() >= at);
            if foreign && !has_modifier(n, src, "public") {
                return None;
            }
            let body = n.child_by_field_name("body")?;
            let elements = named_children(body)
                .into_iter()
                .filter(|e| e.kind() == "annotation_type_element_declaration")
                .map(|e| {
                    let text = |field: &str| e.child_by_field_name(field).map(|c| jreach_syntax::text_of(c, src));
                    let dims = text("dimensions").unwrap_or("");
                    Some(AnnotationElement {
                        ty: format!("{}{dims}", text("type")?),
                        name: text("name")?.to_string(),
                        default: text("value").map(str::to_string),
                    })
                })
                .collect();
            return elements;
        }
        None
    }

    fn classes_for(&self, synthesis: bool) -> &Classes {
        if !synthesis {
            return &self.classes;
        }
        self.synthesis_classes.get_or_init(|| {
            let mut classes = self.classes.clone();
            inputs::mark_reflective(self.file, &self.methods, &mut classes);
            classes.instantiate_type_vars(self.file, self.own_end);
            classes
        })
    }
}

/// Lowers `method` of `file` (building the file's context for this one lowering: to lower
/// several methods, or one several times, build a [`FileContext`] and use [`lower_in`]).
pub fn lower_method(file: &SourceFile, method: &MethodInfo, opts: &LowerOptions) -> Function {
    lower_in(&FileContext::new(file, opts.foreign_from, opts.own_end), method, opts)
}

/// Lowers `method` of the context's file. `opts.foreign_from` and `opts.own_end` must be those
/// the context was built with.
pub fn lower_in(ctx: &FileContext<'_>, method: &MethodInfo, opts: &LowerOptions) -> Function {
    assert!(
        ctx.foreign_from == opts.foreign_from && ctx.own_end == opts.own_end,
        "a FileContext is built for the appended sources the lowering sees"
    );
    let file = ctx.file;
    let synthesis = matches!(opts.mode, LowerMode::Synthesis { .. });
    // Synthesis takes the method's type variables as its own declarations say.
    let scoped = synthesis.then(|| ctx.classes_for(true).scoped_at(file, method.node(file))).flatten();
    let classes = scoped.as_ref().unwrap_or_else(|| ctx.classes_for(synthesis));
    let methods = &ctx.methods;
    let mut params: Vec<ParamInfo> = method
        .params
        .iter()
        .map(|p| ParamInfo { name: p.name.clone(), ty: classes.ty_of(&p.ty), java_ty: classes.java_of(&p.ty) })
        .collect();
    let receiver_ctor = match (&opts.receiver_ctor, opts.mode) {
        (Some(r), LowerMode::Synthesis { .. }) if !method.is_static && !method.is_constructor => {
            methods.iter().find(|c| c.is_constructor && c.range == *r).cloned()
        }
        _ => None,
    };
    let own_params = params.len();
    if let Some(ctor) = &receiver_ctor {
        params.extend(ctor.params.iter().map(|p| ParamInfo {
            name: receiver_param_name(&p.name),
            ty: classes.ty_of(&p.ty),
            java_ty: classes.java_of(&p.ty),
        }));
    }
    let receiver_end = params.len();
    // A receiver made by reflection: its fields are inputs.
    let mut receiver_fields = Vec::new();
    if let (true, false, Some(&c)) = (
        synthesis && opts.receiver_by_reflection,
        method.is_static || method.is_constructor,
        classes.by_name.get(&method.class_name()),
    ) {
        for fd in &classes.descs[c as usize].fields {
            if fd.ty == Ty::Ref {
                continue;
            }
            let java_ty = match fd.ty {
                Ty::Obj(k) => classes.descs[k as usize].name.clone(),
                Ty::Arr(a) => a.java_name_with(|k| classes.descs[k as usize].name.clone()),
                t => t.java_name().to_string(),
            };
            receiver_fields.push((params.len(), fd.name.clone()));
            params.push(ParamInfo { name: receiver_field_param_name(&fd.name), ty: fd.ty, java_ty });
        }
    }
    // The receiver of an abstract class's method is an anonymous subclass: what each of its
    // methods returns is an input.
    let mut receiver_returns = Vec::new();
    let mut receiver_subclassed = false;
    if let (LowerMode::Synthesis { .. }, false) = (opts.mode, method.is_static || method.is_constructor) {
        if let Some(&c) = classes.by_name.get(&method.class_name()) {
            let desc = &classes.descs[c as usize];
            receiver_subclassed = desc.subclassed;
            if desc.subclassed {
                receiver_returns = inputs::stub_return_inputs(&mut params, "this", &desc.stub);
            }
        }
    }
    let plan = inputs::plan_inputs(file, methods, method, opts, classes, &mut params, own_params, receiver_end);
    let scan = ctx.scan(synthesis);
    let statics = statics::plan_statics(file, methods, method, synthesis, &scan.statics, &mut params);
    let return_ty = classes.ty_of(&method.return_ty);
    let name = format!("{}.{}", method.class_name(), method.name);
    let mut lw = Lowerer {
        file,
        src: &file.text,
        methods,
        opts: opts.clone(),
        b: FunctionBuilder::new(name, params.clone(), return_ty, opts.mode),
        cur: None,
        scopes: vec![HashMap::new()],
        targets: vec![],
        handlers: vec![],
        frames: vec![],
        fields: &ctx.fields,
        this_fields: HashMap::new(),
        mems: HashMap::new(),
        field_mems: HashMap::new(),
        next_alloc: -1,
        const_depth: 0,
        receiver_class: None,
        current_stmt: None,
        next_this: None,
        lambdas: vec![],
        lists: vec![],
        lambda_special: vec![],
        maps: vec![],
        optionals: vec![],
        statics: vec![],
        receiver_stub: vec![],
        opaque_presence: vec![],
        presence_marks: Default::default(),
        unknown_sources: HashMap::new(),
        recursive_inlines: 0,
        declared_java: None,
        classes,
        class_role: match (opts.class_invariants.is_empty(), synthesis, method.is_static, method.is_constructor) {
            (false, false, false, true) => class_invariants::ClassInvariantRole::Constructor,
            (false, false, false, false) => class_invariants::ClassInvariantRole::Method,
            _ => class_invariants::ClassInvariantRole::None,
        },
    };
    lw.b.set_classes(lw.classes.descs.clone());
    lw.receiver_class = lw.classes.by_name.get(&method.class_name()).copied();
    let entry = lw.b.entry();
    lw.cur = Some(entry);
    lw.declare_memories(&scan.array_types);
    if method.has_error {
        lw.b.add_proof_blocker(Blocker::Unsupported("the method has syntax errors".into()));
    }
    if let Some((at, what)) = *ctx.unicode_hazard.get_or_init(|| jreach_syntax::unicode_escape_hazard(file)) {
        lw.unsupported(format!(
            "a Unicode escape in {what} on line {} makes javac read other code than the text shows (JLS 3.3)",
            file.lines.line_of(at) + 1
        ));
    }
    if matches!(opts.mode, LowerMode::Synthesis { .. }) {
        lw.input_blockers(&plan, &params);
    }
    if synthesis && !classes.type_vars.is_empty() {
        // One type argument stands for all of them.
        let taken: Vec<String> = classes.type_vars.iter().map(|(v, t)| format!("{v} as {t}")).collect();
        lw.b.add_proof_blocker(Blocker::Narrowing(format!(
            "types a test chooses are taken as one type when looking for tests ({})",
            taken.join(", ")
        )));
    }
    if matches!(opts.mode, LowerMode::Synthesis { .. }) && params.iter().any(|p| lw.reaches_strings(p.ty)) {
        // Synthesis draws string inputs from printable ASCII only.
        lw.b.add_proof_blocker(Blocker::Narrowing(
            "string inputs are limited to printable characters when looking for tests".into(),
        ));
    }
    lw.declare_captured(method);
    let mut inputs = Vec::new();
    for (i, p) in params.iter().enumerate() {
        let v = lw.b.push(entry, Op::Param(i as u32), p.ty, None);
        inputs.push(v);
        if i >= own_params {
            continue;
        }
        let var = lw.b.new_var(&p.name, p.ty);
        lw.b.def_var(var, entry, v);
        lw.scopes[0].insert(p.name.clone(), Local { var, ty: p.ty, scalar_builder: false });
    }
    let ret_block = lw.b.create_block();
    let ret_var = (return_ty != Ty::Void).then(|| lw.b.new_var("$return", return_ty));
    let has_this = !method.is_static;
    lw.frames.push(Frame {
        method: Some(method.range.clone()),
        ret_block,
        ret_var,
        ret_ty: return_ty,
        handlers_len: 0,
        classes: method.classes.clone(),
        has_this,
        this_obj: None,
    });
    lw.init_statics(statics, &inputs);
    if !receiver_returns.is_empty() {
        lw.b.add_proof_blocker(Blocker::Narrowing(format!(
            "a test subclasses {} only with methods that each always return the same value",
            method.class_name()
        )));
        lw.receiver_stub = receiver_returns.iter().map(|r| r.map(|i| inputs[i])).collect();
        lw.b.setup_mut().receiver_returns = receiver_returns;
    }
    lw.b.setup_mut().receiver_subclassed = receiver_subclassed;
    let at = method.node(file);
    let (receiver_calls, values) = lw.create_inputs(plan, &params, &inputs, at);
    // The receiver's constructor takes the arguments as the test creates them.
    let receiver_args = values[own_params..receiver_end].to_vec();
    if has_this && lw.cur.is_some() {
        let reflected = (synthesis && opts.receiver_by_reflection)
            .then(|| receiver_fields.iter().map(|(i, name)| (name.clone(), inputs[*i])).collect());
        lw.init_this_fields(method, receiver_ctor.as_ref().map(|c| (c, receiver_args)), reflected);
        if lw.class_role == class_invariants::ClassInvariantRole::Method {
            lw.assume_class_invariants();
        }
        for (call, m) in &receiver_calls {
            if lw.cur.is_none() {
                break;
            }
            let args = call.args.iter().map(|(i, _)| inputs[*i]).collect();
            lw.optional_call(None, m, inputs[call.flag], args, at);
        }
    }
    lw.b.setup_mut().receiver_calls = receiver_calls.into_iter().map(|(c, _)| c).collect();
    if let Some(ctor) = &receiver_ctor {
        lw.b.setup_mut().receiver_ctor_args =
            ctor.params.iter().enumerate().map(|(k, p)| (own_params + k, p.name.clone())).collect();
    }
    if synthesis && opts.receiver_by_reflection && has_this {
        lw.b.setup_mut().receiver_fields = Some(receiver_fields);
    }
    let body = method.body_node(file);
    lw.block_stmts(body);
    if let Some(c) = lw.cur.take() {
        if return_ty == Ty::Void || method.is_constructor {
            lw.b.terminate(c, Terminator::Jump(ret_block));
        } else if lw.b.func().block(c).preds.is_empty() && c != lw.b.entry() {
            // No path reaches the end (e.g. after `while (true)` without `break`).
            lw.b.terminate(c, Terminator::Cutoff(CutoffKind::LoopIteration));
        } else {
            lw.b.terminate(
                c,
                Terminator::Cutoff(CutoffKind::Unsupported("falls off the end of a non-void method".into())),
            );
        }
    }
    lw.b.seal(ret_block);
    lw.cur = Some(ret_block);
    if lw.class_role != class_invariants::ClassInvariantRole::None {
        lw.check_class_invariants();
    }
    let end = lw.cur.take().expect("the checks go on where the candidates hold");
    let rv = ret_var.map(|v| lw.b.use_var(v, end));
    lw.b.terminate(end, Terminator::Return(rv));
    lw.b.finish()
}

#[derive(Copy, Clone, Debug)]
struct Local {
    var: Var,
    ty: Ty,
    /// A `StringBuilder` local that never escapes the method (`text_builder`): its value is the
    /// builder's contents, a string.
    scalar_builder: bool,
}

#[derive(Clone, Debug)]
struct JumpTarget {
    label: Option<String>,
    break_to: BlockId,
    continue_to: Option<BlockId>,
    /// For switch expressions: the variable `yield` assigns.
    yield_var: Option<(Var, Ty)>,
    handlers_len: usize,
    is_loop: bool,
}

#[derive(Clone)]
struct CatchInfo {
    classes: Vec<String>,
    block: BlockId,
}

#[derive(Clone)]
struct TryCtx<'t> {
    catches: Vec<CatchInfo>,
    finally: Option<Node<'t>>,
}

struct Frame {
    ret_block: BlockId,
    ret_var: Option<Var>,
    ret_ty: Ty,
    handlers_len: usize,
    classes: Vec<String>,
    /// Whether `this` is the receiver whose fields `this_fields` tracks.
    has_this: bool,
    /// Synthesis: `this` is an object in the field memories (a constructor or method inlined on
    /// an object other than the receiver), with its class.
    this_obj: Option<(ValueId, u16)>,
    /// The byte range of the method (or constructor) this frame runs, if it is one.
    method: Option<std::ops::Range<usize>>,
}

#[derive(Clone)]
struct FieldInfo {
    ty: Ty,
    /// The initializer of a static final field, or of a final instance field that is a constant
    /// variable: reads of the field are its value (see `collect_fields`).
    constant_init: Option<std::ops::Range<usize>>,
    is_static: bool,
    /// The classes enclosing the declaration, outermost first.
    classes: Vec<String>,
}

struct Lowerer<'t> {
    file: &'t SourceFile,
    src: &'t str,
    methods: &'t [MethodInfo],
    opts: LowerOptions,
    b: FunctionBuilder,
    cur: Option<BlockId>,
    scopes: Vec<HashMap<String, Local>>,
    targets: Vec<JumpTarget>,
    handlers: Vec<TryCtx<'t>>,
    frames: Vec<Frame>,
    fields: &'t HashMap<String, Vec<FieldInfo>>,
    /// The receiver's instance fields of primitive or String type, as variables.
    this_fields: HashMap<String, Local>,
    /// The memory of each array type, as a variable.
    mems: HashMap<ArrTy, Var>,
    /// The id of the next array or object the method allocates (negative: never an input's).
    next_alloc: i32,
    /// The memory of each field of each modelled class, as a variable.
    field_mems: HashMap<(u16, u16), Var>,
    /// The file's classes whose objects jreach models.
    classes: &'t Classes,
    /// The class of the method's receiver, if modelled.
    receiver_class: Option<u16>,
    /// The statement being lowered (where implicit exceptions without a node of their own are
    /// reported).
    current_stmt: Option<Node<'t>>,
    const_depth: u32,
    /// The object the next inlined call runs on (see [`Frame::this_obj`]).
    next_this: Option<(ValueId, u16)>,
    /// Synthesis: the lambdas and anonymous classes passed as parameters: interface, object,
    /// what each method returns (in the order of `ClassDesc::stub`; one for a lambda).
    lambdas: Vec<(u16, ValueId, Vec<Option<ValueId>>)>,
    /// Synthesis: lambdas that answer differently for one first argument: object, that
    /// argument, the answer for it.
    lambda_special: Vec<(ValueId, ValueId, ValueId)>,
    /// Synthesis: the lists passed as parameters, and those the method creates.
    lists: Vec<ListModel>,
    /// Synthesis: the maps passed as parameters, and those the method creates.
    maps: Vec<MapModel>,
    /// Synthesis: the Optionals passed as parameters, and those the method creates.
    optionals: Vec<OptionalModel>,
    /// The static fields tracked as variables (see `statics`).
    statics: Vec<(statics::StaticField, Local)>,
    /// While a local's initializer is lowered: the local's type as written.
    declared_java: Option<String>,
    /// Synthesis, for a method of an abstract class: what each abstract method of the receiver
    /// (an anonymous subclass) returns, in the order of its class's `stub`.
    receiver_stub: Vec<Option<ValueId>>,
    /// Synthesis: the parameters of JDK types a test writes values of (`Setup::opaque_params`),
    /// each with the input saying it is not null.
    opaque_presence: Vec<(ValueId, ValueId)>,
    /// The marks of [`Lowerer::presence_of`]'s walks over φs: a value is seen by the current walk
    /// when its mark is the walk's number (one array for all the walks of a lowering).
    presence_marks: std::cell::RefCell<(u32, Vec<u32>)>,
    /// What this lowering does with [`LowerOptions::class_invariants`].
    class_role: class_invariants::ClassInvariantRole,
    /// Values that come from a call jreach does not see into, with the first such call they come
    /// from (`LocalDate.now()` for `today.getYear()`): what an "unknown" names as its cause.
    unknown_sources: HashMap<ValueId, String>,
    /// How many recursive calls synthesis has inlined (see [`LowerOptions::recursive_inlines`]).
    recursive_inlines: u32,
}

/// At most this many recursive calls are inlined in one lowering for synthesis by default: a
/// method that calls itself two or three times grows the lowering exponentially with the depth
/// (3^8 copies at the inlining depth), into formulas z3 spends minutes on; beyond this, a
/// recursive call is cut off like one past the inlining depth (a search on the JVM runs the real
/// recursion).
pub const RECURSIVE_INLINES: u32 = 24;

/// A field of an object: the object, its class, the field's index and type.
type FieldSlot = (ValueId, u16, u16, Ty);

/// A map parameter in synthesis: an object that stands for `Map.of(keys[0], values[0], ...)`
/// with `size` entries.
#[derive(Clone, Debug)]
struct MapModel {
    obj: ValueId,
    /// The number of entries and the entry slots ([`MAP_GROWN_CAPACITY`]), as variables: the
    /// method may change the map.
    size: Var,
    keys: Vec<Var>,
    values: Vec<Var>,
    key_ty: Ty,
    value_ty: Ty,
    /// Its index among `Setup::map_params` (`usize::MAX` for a map the method creates).
    param: usize,
}

/// An Optional in synthesis (see `optional`): an object that holds `value` when `has` is true
/// (`None`: `Optional.empty()`).
#[derive(Clone, Debug)]
struct OptionalModel {
    obj: ValueId,
    has: ValueId,
    value: Option<ValueId>,
}

/// A list parameter in synthesis: an object that stands for `List.of(elems[..size])`.
#[derive(Clone, Debug)]
struct ListModel {
    obj: ValueId,
    /// The size and the element slots ([`LIST_GROWN_CAPACITY`]), as variables: the method may
    /// change the list.
    size: Var,
    elems: Vec<Var>,
    elem_ty: Ty,
    /// Its index among `Setup::list_params` (`usize::MAX` for a list the method creates).
    param: usize,
}

impl<'t> Lowerer<'t> {
    fn text(&self, n: Node<'_>) -> &'t str {
        text_of(n, self.src)
    }

    fn synthesis(&self) -> bool {
        matches!(self.opts.mode, LowerMode::Synthesis { .. })
    }
}

/// Whether a value of type `from` converts to `to` by identity or widening (JLS 5.1.2).
fn widens(from: Ty, to: Ty) -> bool {
    if from == to {
        return true;
    }
    match (from, to) {
        (Ty::Byte, Ty::Short | Ty::Int | Ty::Long | Ty::Float | Ty::Double) => true,
        (Ty::Short | Ty::Char, Ty::Int | Ty::Long | Ty::Float | Ty::Double) => true,
        (Ty::Int, Ty::Long | Ty::Float | Ty::Double) => true,
        (Ty::Long, Ty::Float | Ty::Double) => true,
        (Ty::Float, Ty::Double) => true,
        // Any reference to a type jreach does not model (`Object`, a type variable).
        (Ty::Obj(_) | Ty::Str | Ty::Arr(_), Ty::Ref) => true,
        _ => false,
    }
}

/// Whether a constructor body starts with `this(...)` or `super(...)`.
fn starts_with_ctor_call(body: Node<'_>) -> bool {
    named_children(body).first().is_some_and(|s| s.kind() == "explicit_constructor_invocation")
}

/// `x` in `this.x`.
fn this_field_name<'a>(n: Node<'_>, src: &'a str) -> Option<&'a str> {
    if n.kind() == "field_access" && n.child_by_field_name("object").is_some_and(|o| o.kind() == "this") {
        n.child_by_field_name("field").map(|f| text_of(f, src))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::FileContext;
    use jreach_syntax::SourceFile;

    #[test]
    fn classes_a_test_makes_without_arguments() {
        let src = "package p;\npublic class T {\n  public static class Plain {\n    int n = 3;\n  }\n  public static class NoArgs {\n    public NoArgs() {}\n    public NoArgs(int n) {}\n  }\n  public static class OnlyArgs {\n    public OnlyArgs(int n) {}\n  }\n  public static class Hidden {\n    private Hidden() {}\n  }\n  public abstract static class Shape {}\n  private static class Secret {}\n  public enum Kind { A }\n  public interface Api {}\n}\n";
        let file = SourceFile::parse(src);
        let ctx = FileContext::new(&file, None, None);
        let made = |ty: &str| ctx.made_without_arguments(ty);
        assert_eq!(made("Plain").as_deref(), Some("T.Plain"));
        assert_eq!(made("NoArgs").as_deref(), Some("T.NoArgs"));
        assert_eq!(made("T").as_deref(), Some("T"));
        for ty in ["OnlyArgs", "Hidden", "Shape", "Secret", "Kind", "Api", "String", "Missing"] {
            assert_eq!(made(ty), None, "{ty}");
        }
    }

    #[test]
    fn synthesis_takes_a_method_s_type_variables_as_its_own_declarations_say() {
        // Three `T`s with three bounds: file-wide, `T` is no one type; per method, each is one.
        // The source appended after the file (`own_end`) declares a `T` of its own too.
        let own = "package p;\npublic class V {\n  public static <T> T[] empty(T[] a) { return a; }\n  public static <T extends CharSequence> T blank(T chars) { return chars; }\n  public static <T extends Number> T num(T n) { return n; }\n  static <U extends Runnable> U run(U u) { return u; }\n}\n";
        let src = format!("{own}class W<T extends Thread> {{ }}\n");
        let file = SourceFile::parse(&src);
        let opts = super::LowerOptions {
            mode: crate::LowerMode::Synthesis { unroll: 2 },
            own_end: Some(own.len()),
            ..Default::default()
        };
        let ctx = FileContext::new(&file, None, Some(own.len()));
        let param_ty = |name: &str| {
            let m = ctx.methods().iter().find(|m| m.name == name).unwrap();
            super::lower_in(&ctx, m, &opts).params[0].java_ty.clone()
        };
        assert_eq!(param_ty("empty"), "Integer[]");
        assert_eq!(param_ty("blank"), "String");
        assert_eq!(param_ty("num"), "Integer");
        // A bound jreach has no class for: the variable stays as written.
        assert_eq!(param_ty("run"), "U");
    }
}
