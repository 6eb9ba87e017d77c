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

use std::collections::HashMap;

use jreach_syntax::{text_of, MethodInfo, Node, SourceFile};

use crate::builder::{FunctionBuilder, Var};
use crate::exceptions::is_subclass;
use crate::func::*;
use crate::types::{normalize, ArrTy, Const, Ty};
pub use literal::{parse_char_literal, parse_float_literal, parse_int_literal, parse_string_literal};

mod collections;
mod havoc;
mod inherit;
mod inputs;
mod literal;
mod optional;
mod statics;
mod text_builder;

/// How to lower.
#[derive(Clone, Debug)]
pub struct LowerOptions {
    pub mode: LowerMode,
    /// Nesting depth of inlined calls (recursion included).
    pub inline_depth: u32,
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
}

impl Default for LowerOptions {
    fn default() -> Self {
        LowerOptions {
            mode: LowerMode::Synthesis { unroll: 8 },
            inline_depth: 8,
            max_values: 400_000,
            receiver_ctor: None,
            setup_calls: false,
            foreign_from: None,
            own_end: None,
            receiver_by_reflection: false,
        }
    }
}

/// The proof blocker of a synthesis that takes the receiver as its constructor leaves it.
pub const RECEIVER_AS_CONSTRUCTED: &str = "the receiver is taken as its constructor leaves it";

/// The prefix of the names the inputs of the receiver's constructor get among a function's
/// parameters.
pub const RECEIVER_CTOR_PREFIX: &str = "new.";

/// The name the inputs of the receiver's constructor get among a function's parameters.
pub fn receiver_param_name(ctor_param: &str) -> String {
    format!("{RECEIVER_CTOR_PREFIX}{ctor_param}")
}

/// The prefix of the inputs holding the fields of a receiver made by reflection.
pub const RECEIVER_FIELD_PREFIX: &str = "this.";

/// Whether a test can make the receiver of instance method `m` of `file` only by reflection:
/// its class has no constructor, static factory or builder a test may call, and a test can
/// name and allocate it.
pub fn receiver_by_reflection(file: &SourceFile, m: &MethodInfo) -> bool {
    if m.is_static || m.is_constructor {
        return false;
    }
    let classes = Classes::of(file, None, None);
    let methods = MethodInfo::all(file);
    classes.by_name.get(&m.class_name()).is_some_and(|c| inputs::reflection_only(file, &classes, &methods, *c))
}

/// Per Java type as written in `file`, whether jreach models its values (primitives, strings,
/// the file's classes, the JDK types it models, arrays of those): a test can then be given one
/// to create.
pub fn sees_types(file: &SourceFile, java_tys: &[&str]) -> Vec<bool> {
    let classes = Classes::of(file, None, None);
    java_tys.iter().map(|t| classes.ty_of(t) != Ty::Ref).collect()
}

/// Lowers `method` of `file`.
pub fn lower_method(file: &SourceFile, method: &MethodInfo, opts: &LowerOptions) -> Function {
    let mut classes = Classes::of(file, opts.foreign_from, opts.own_end);
    let methods = MethodInfo::all(file);
    let synthesis = matches!(opts.mode, LowerMode::Synthesis { .. });
    if synthesis {
        inputs::mark_reflective(file, &methods, &mut classes);
    }
    let mut params: Vec<ParamInfo> = method
        .params
        .iter()
        .map(|p| ParamInfo { name: p.name.clone(), ty: classes.ty_of(&p.ty), java_ty: p.ty.clone() })
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
            java_ty: p.ty.clone(),
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
            params.push(ParamInfo { name: format!("{RECEIVER_FIELD_PREFIX}{}", fd.name), ty: fd.ty, java_ty });
        }
    }
    // The receiver of an abstract class's method is an anonymous subclass: what each of its
    // methods returns is an input.
    let mut receiver_returns = Vec::new();
    if let (LowerMode::Synthesis { .. }, false) = (opts.mode, method.is_static || method.is_constructor) {
        if let Some(&c) = classes.by_name.get(&method.class_name()) {
            receiver_returns = inputs::stub_return_inputs(&mut params, "this", &classes.descs[c as usize].stub);
        }
    }
    let plan = inputs::plan_inputs(file, &methods, method, opts, &classes, &mut params, own_params, receiver_end);
    let statics = statics::plan_statics(file, &methods, method, synthesis, &classes, &mut params);
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
        fields: HashMap::new(),
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
        declared_java: None,
        classes,
    };
    lw.b.set_classes(lw.classes.descs.clone());
    lw.receiver_class = lw.classes.by_name.get(&method.class_name()).copied();
    lw.collect_fields();
    let entry = lw.b.entry();
    lw.cur = Some(entry);
    lw.declare_memories();
    if method.has_error {
        lw.b.add_proof_blocker("the method has syntax errors".into());
    }
    if let Some((at, what)) = jreach_syntax::unicode_escape_hazard(file) {
        lw.unsupported(format!(
            "a Unicode escape in {what} on line {} makes javac read other code than the text shows (JLS 3.3)",
            file.lines.line_of(at) + 1
        ));
    }
    if matches!(opts.mode, LowerMode::Synthesis { .. }) {
        lw.input_blockers(&plan, &params);
    }
    if matches!(opts.mode, LowerMode::Synthesis { .. }) && params.iter().any(|p| lw.reaches_strings(p.ty)) {
        // Synthesis draws string inputs from printable ASCII only.
        lw.b.add_proof_blocker("string inputs are limited to printable characters when looking for tests".into());
    }
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
        lw.b.add_proof_blocker(format!(
            "a test subclasses {} only with methods that each always return the same value",
            method.class_name()
        ));
        lw.receiver_stub = receiver_returns.iter().map(|r| r.map(|i| inputs[i])).collect();
        lw.b.setup_mut().receiver_returns = receiver_returns;
    }
    let at = method.node(file);
    let (receiver_calls, values) = lw.create_inputs(plan, &params, &inputs, at);
    // The receiver's constructor takes the arguments as the test creates them.
    let receiver_args = values[own_params..receiver_end].to_vec();
    if has_this && lw.cur.is_some() {
        let reflected = (synthesis && opts.receiver_by_reflection)
            .then(|| receiver_fields.iter().map(|(i, name)| (name.clone(), inputs[*i])).collect());
        lw.init_this_fields(method, receiver_ctor.as_ref().map(|c| (c, receiver_args)), reflected);
        for (call, m) in &receiver_calls {
            if lw.cur.is_none() {
                break;
            }
            let args = call.args.iter().map(|(i, _)| inputs[*i]).collect();
            lw.optional_call(None, m, inputs[call.flag], args, at);
        }
    }
    lw.b.setup_mut().receiver_calls = receiver_calls.into_iter().map(|(c, _)| c).collect();
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
    let rv = ret_var.map(|v| lw.b.use_var(v, ret_block));
    lw.b.terminate(ret_block, Terminator::Return(rv));
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
    methods: Vec<MethodInfo>,
    opts: LowerOptions,
    b: FunctionBuilder,
    cur: Option<BlockId>,
    scopes: Vec<HashMap<String, Local>>,
    targets: Vec<JumpTarget>,
    handlers: Vec<TryCtx<'t>>,
    frames: Vec<Frame>,
    fields: HashMap<String, Vec<FieldInfo>>,
    /// The receiver's instance fields of primitive or String type, as variables.
    this_fields: HashMap<String, Local>,
    /// The memory of each array type, as a variable.
    mems: HashMap<ArrTy, Var>,
    /// The id of the next array or object the method allocates (negative: never an input's).
    next_alloc: i32,
    /// The memory of each field of each modelled class, as a variable.
    field_mems: HashMap<(u16, u16), Var>,
    /// The file's classes whose objects jreach models.
    classes: Classes,
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
}

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

fn named_children<'t>(n: Node<'t>) -> Vec<Node<'t>> {
    let mut c = n.walk();
    n.named_children(&mut c).filter(|ch| !ch.is_extra()).collect()
}

impl<'t> Lowerer<'t> {
    fn text(&self, n: Node<'_>) -> &'t str {
        text_of(n, self.src)
    }

    fn synthesis(&self) -> bool {
        matches!(self.opts.mode, LowerMode::Synthesis { .. })
    }

    // ---- blocks and values -------------------------------------------------------------

    /// The current block; code after an abrupt completion goes into a fresh block no path reaches.
    fn cur(&mut self) -> BlockId {
        match self.cur {
            Some(b) => b,
            None => {
                let b = self.b.create_block();
                self.b.seal(b);
                self.cur = Some(b);
                b
            }
        }
    }

    fn emit(&mut self, op: Op, ty: Ty, n: Option<Node<'_>>) -> ValueId {
        let b = self.cur();
        self.b.push(b, op, ty, n.map(|n| n.byte_range()))
    }

    fn konst(&mut self, c: Const) -> ValueId {
        let ty = c.ty();
        self.emit(Op::Const(c), ty, None)
    }

    fn int(&mut self, ty: Ty, v: i64) -> ValueId {
        self.konst(Const::int(ty, v))
    }

    fn ty(&self, v: ValueId) -> Ty {
        self.b.func().value(v).ty
    }

    fn bin(&mut self, op: BinOp, a: ValueId, c: ValueId) -> ValueId {
        let ty = if op.is_comparison() { Ty::Bool } else { self.ty(a) };
        self.emit(Op::Binary(op, a, c), ty, None)
    }

    fn select(&mut self, c: ValueId, a: ValueId, e: ValueId) -> ValueId {
        let ty = self.ty(a);
        self.emit(Op::Select(c, a, e), ty, None)
    }

    /// `cond ? then(..) : els(..)` lowered as branches, so that each side is evaluated only where
    /// it applies (a `select` evaluates both). Each side yields a value of type `ty`.
    fn diamond(
        &mut self,
        cond: ValueId,
        ty: Ty,
        then: impl FnOnce(&mut Self) -> ValueId,
        els: impl FnOnce(&mut Self) -> ValueId,
    ) -> ValueId {
        let tmp = self.b.new_var("$diamond", ty);
        let (t, f, join) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        self.branch(cond, t, f, None);
        self.b.seal(t);
        self.b.seal(f);
        for (block, side) in [(t, Box::new(then) as Box<dyn FnOnce(&mut Self) -> ValueId>), (f, Box::new(els))] {
            self.cur = Some(block);
            let v = side(self);
            if self.cur.is_some() {
                self.assign(tmp, v);
                self.jump(join);
            }
        }
        self.b.seal(join);
        self.cur = Some(join);
        self.read(tmp)
    }

    fn nondet(&mut self, kind: NondetKind, ty: Ty, n: Option<Node<'_>>) -> ValueId {
        self.emit(Op::Nondet(kind), ty, n)
    }

    fn opaque(&mut self, what: String, ty: Ty, n: Option<Node<'_>>) -> ValueId {
        self.nondet(NondetKind::Opaque { what }, ty, n)
    }

    fn jump(&mut self, to: BlockId) {
        if let Some(c) = self.cur.take() {
            self.b.terminate(c, Terminator::Jump(to));
        }
    }

    fn branch(&mut self, cond: ValueId, then_to: BlockId, else_to: BlockId, origin: Option<CondOrigin>) {
        let c = self.cur();
        self.cur = None;
        self.b.terminate(c, Terminator::Branch { cond, then_to, else_to, origin });
    }

    /// Ends the current path: something beyond the model. Records a proof blocker unless the cut is
    /// part of a sound abstraction.
    fn cutoff(&mut self, kind: CutoffKind) {
        match &kind {
            CutoffKind::LoopIteration => {}
            CutoffKind::InlineDepth | CutoffKind::UnrollBound | CutoffKind::SizeLimit => {
                self.b.add_proof_blocker(kind.to_string())
            }
            CutoffKind::Unsupported(why) => self.b.add_proof_blocker(why.clone()),
        }
        if let Some(c) = self.cur.take() {
            self.b.terminate(c, Terminator::Cutoff(kind));
        }
    }

    fn unsupported(&mut self, what: impl Into<String>) {
        self.cutoff(CutoffKind::Unsupported(what.into()));
    }

    /// Converts `v` to `to` (assignment/casting conversion between primitives). References become
    /// unknown primitives (unboxing of a value jreach does not track).
    fn convert(&mut self, v: ValueId, to: Ty) -> ValueId {
        let from = self.ty(v);
        if from == to || to == Ty::Ref || to == Ty::Void {
            return v;
        }
        if let Ty::Obj(c) = from {
            if let Some(prim) = self.classes.descs[c as usize].boxes {
                if to.is_numeric() || to == Ty::Bool {
                    // Unboxing: NullPointerException on null.
                    self.check_object_not_null(v, self.cur_node());
                    let mem = self.field_mem(c, 0);
                    let x = self.emit(Op::Obj(ObjOp::Get, vec![mem, v]), prim, None);
                    return self.convert(x, to);
                }
            }
        }
        if let Ty::Obj(c) = to {
            if let Some(prim) = self.classes.descs[c as usize].boxes {
                if from.is_numeric() || from == Ty::Bool {
                    let x = self.convert(v, prim);
                    let node = self.cur_node();
                    let r = self.new_object(c, node);
                    self.object_put(r, c, 0, x);
                    return r;
                }
            }
            return if self.is_null_const(v) {
                self.emit(Op::Obj(ObjOp::Ref(0), vec![]), to, None)
            } else {
                self.opaque(format!("a {} jreach does not track", self.classes.descs[c as usize].name), to, None)
            };
        }
        if let Ty::Arr(a) = to {
            return if self.is_null_const(v) {
                self.emit(Op::Arr(ArrOp::Ref(0), vec![]), Ty::Arr(a), None)
            } else {
                let name = a.java_name_with(|c| self.classes.descs[c as usize].name.clone());
                self.opaque(format!("a {name} jreach does not track"), to, None)
            };
        }
        if to == Ty::Str {
            return if self.is_null_const(v) {
                self.emit(Op::Str(StrOp::Null, vec![]), Ty::Str, None)
            } else {
                self.opaque("a string jreach does not track".into(), Ty::Str, None)
            };
        }
        if from == Ty::Ref || from == Ty::Void || (from == Ty::Bool) != (to == Ty::Bool) {
            if from == Ty::Ref {
                self.may_throw_here("unboxing a reference that may be null");
            }
            return self.opaque(format!("a {to} from a value jreach does not track"), to, None);
        }
        self.emit(Op::Cast(v), to, None)
    }

    // ---- scopes ------------------------------------------------------------------------

    fn lookup(&self, name: &str) -> Option<Local> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.get(name).copied())
            .or_else(|| self.this_field(name))
            .or_else(|| self.static_field(name))
    }

    /// Whether a simple name denotes a value (a local, a parameter or a field of `this`) rather
    /// than a class.
    fn names_value(&self, name: &str) -> bool {
        self.lookup(name).is_some() || self.this_obj_field(name).is_some()
    }

    /// An instance field of the receiver, tracked as a variable (instance methods only).
    fn this_field(&self, name: &str) -> Option<Local> {
        if !self.frames.last().is_some_and(|f| f.has_this) {
            return None;
        }
        self.this_fields.get(name).copied()
    }

    fn declare(&mut self, name: &str, ty: Ty) -> Var {
        self.declare_local(name, ty, false)
    }

    fn declare_local(&mut self, name: &str, ty: Ty, scalar_builder: bool) -> Var {
        let var = self.b.new_var(name, ty);
        self.scopes.last_mut().expect("a scope").insert(name.to_string(), Local { var, ty, scalar_builder });
        var
    }

    fn assign(&mut self, var: Var, v: ValueId) {
        let c = self.cur();
        self.b.def_var(var, c, v);
    }

    fn read(&mut self, var: Var) -> ValueId {
        let c = self.cur();
        self.b.use_var(var, c)
    }

    fn collect_fields(&mut self) {
        let mut stack = vec![self.file.tree.root_node()];
        while let Some(n) = stack.pop() {
            if n.kind() == "field_declaration" {
                let mods = named_children(n).into_iter().find(|c| c.kind() == "modifiers").map(|m| self.text(m));
                let words: Vec<&str> = mods.map(|m| m.split_whitespace().collect()).unwrap_or_default();
                let (is_static, is_final) = (words.contains(&"static"), words.contains(&"final"));
                let ty_text = n.child_by_field_name("type").map(|t| self.text(t)).unwrap_or("");
                let ty = self.ty_of(ty_text);
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
                                        && is_constant_expression(*v, self.src, &|_| true)))
                        })
                        .map(|v| v.byte_range());
                    let classes = enclosing_classes(n, self.src);
                    self.fields.entry(self.text(name).to_string()).or_default().push(FieldInfo {
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
            let constant = |name: &str| {
                self.fields.get(name).is_some_and(|fs| fs.iter().any(|f| f.constant_init.is_some()))
            };
            let mut drop = Vec::new();
            for (name, infos) in &self.fields {
                for (k, fi) in infos.iter().enumerate() {
                    let Some(r) = &fi.constant_init else { continue };
                    let Some(init) = self.node_at(r) else { continue };
                    if !is_constant_expression(init, self.src, &constant) {
                        drop.push((name.clone(), k));
                    }
                }
            }
            for (name, k) in drop {
                if let Some(fi) = self.fields.get_mut(&name).and_then(|fs| fs.get_mut(k)) {
                    if !fi.is_static {
                        fi.constant_init = None;
                    }
                }
            }
        }
    }

    fn node_at(&self, r: &std::ops::Range<usize>) -> Option<Node<'t>> {
        let mut n = self.file.tree.root_node().descendant_for_byte_range(r.start, r.end)?;
        while n.byte_range() != *r {
            n = n.parent()?;
        }
        Some(n)
    }

    // ---- statements --------------------------------------------------------------------

    fn block_stmts(&mut self, block: Node<'t>) {
        self.scopes.push(HashMap::new());
        for s in named_children(block) {
            self.stmt(s);
        }
        self.scopes.pop();
    }

    fn too_big(&self) -> bool {
        self.b.value_count() > self.opts.max_values
    }

    fn stmt(&mut self, s: Node<'t>) {
        if s.kind() == "line_comment" || s.kind() == "block_comment" {
            return;
        }
        self.current_stmt = Some(s);
        let c = self.cur();
        self.b.mark_stmt(c, s.start_byte());
        if self.too_big() {
            self.cutoff(CutoffKind::SizeLimit);
            return;
        }
        if s.is_error() || s.is_missing() {
            self.unsupported("a syntax error");
            return;
        }
        if s.kind() != "block" {
            self.may_throw_vm_error();
        }
        match s.kind() {
            "block" => self.block_stmts(s),
            ";" | "empty_statement" | "local_class_declaration" | "class_declaration" => {}
            // With -ea an assertion may throw AssertionError; without it, nothing runs.
            "assert_statement" => self.assert_stmt(s),
            "expression_statement" => {
                if let Some(e) = named_children(s).into_iter().next() {
                    self.expr(e);
                }
            }
            "local_variable_declaration" => self.local_decl(s),
            "if_statement" => self.if_stmt(s),
            "while_statement" | "for_statement" | "do_statement" => self.loop_stmt(s, None),
            "enhanced_for_statement" => self.enhanced_for(s, None),
            "labeled_statement" => self.labeled(s),
            "return_statement" => self.return_stmt(s),
            "throw_statement" => self.throw_stmt(s),
            "break_statement" | "continue_statement" => self.break_continue(s),
            "yield_statement" => self.yield_stmt(s),
            "switch_expression" => {
                self.switch(s, None);
            }
            "try_statement" => self.try_stmt(s),
            "synchronized_statement" => {
                // The lock is evaluated first; a null one throws (JLS 14.19).
                let kids = named_children(s);
                if let Some(lock) = kids.first().filter(|k| k.kind() == "parenthesized_expression") {
                    let l = self.expr(unparen(*lock));
                    self.check_reference_not_null(l, *lock);
                }
                if let Some(body) = s.child_by_field_name("body").or_else(|| kids.last().copied()) {
                    self.stmt(body);
                }
            }
            "explicit_constructor_invocation" => {
                // super(...) / this(...): arguments are evaluated; in synthesis `this(...)` runs
                // the constructor it names, otherwise the constructor itself is not seen.
                let mut args = Vec::new();
                if let Some(a) = s.child_by_field_name("arguments") {
                    for a in named_children(a) {
                        args.push(self.expr(a));
                    }
                }
                if self.synthesis() && self.text(s).starts_with("this") {
                    let classes = self.frames.last().map(|f| f.classes.join(".")).unwrap_or_default();
                    let ctor = self.classes.by_name.get(&classes).and_then(|c| self.ctor_for(*c, &args));
                    match ctor {
                        Some(ctor) => {
                            self.inline(&ctor, args, s);
                        }
                        None => self.unsupported("a `this(...)` call jreach cannot resolve"),
                    }
                    return;
                }
                let class = self.frame_class();
                if let Some(c) = class.filter(|c| self.classes.supers[*c as usize].is_some()) {
                    self.ctor_prologue(c, Some(args), s);
                    return;
                }
                self.unknown_call_throws(&format!("{}(...)", self.text(s).split('(').next().unwrap_or("super")));
                if let (Some(c), Some(_)) = (class, self.cur) {
                    // The superclass jreach does not see has run: the class's own initializers
                    // run next.
                    self.ctor_prologue(c, None, s);
                }
            }
            "try_with_resources_statement" => self.unsupported("try-with-resources is not modelled yet"),
            other => self.unsupported(format!("`{other}` statements are not modelled yet")),
        }
    }

    fn local_decl(&mut self, s: Node<'t>) {
        let ty_text = s.child_by_field_name("type").map(|t| self.text(t)).unwrap_or("");
        let mut c = s.walk();
        let decls: Vec<Node<'t>> = s.children_by_field_name("declarator", &mut c).collect();
        for d in decls {
            let Some(name) = d.child_by_field_name("name") else { continue };
            let name = self.text(name);
            let dims = d.child_by_field_name("dimensions").map(|x| self.text(x).matches('[').count()).unwrap_or(0);
            let init = d.child_by_field_name("value");
            let mut ty = if dims > 0 {
                self.classes.arr_of(ty_text, dims).map(Ty::Arr).unwrap_or(Ty::Ref)
            } else {
                self.ty_of(ty_text)
            };
            if dims == 0 && self.text_builder_class(ty_text).is_some() && self.scalar_builder(d) {
                let init = init.map(unparen).expect("a scalar builder has an initializer");
                let contents = self.new_text_builder_contents(init);
                let var = self.declare_local(name, Ty::Str, true);
                self.assign(var, contents);
                continue;
            }
            // `List<E> xs = new ArrayList<>()`: the element type comes from the declaration.
            self.declared_java = (dims == 0).then(|| ty_text.to_string());
            let value = init.map(|e| self.expr_as(e, Some(ty)));
            self.declared_java = None;
            if ty_text == "var" {
                if let Some(v) = value {
                    ty = self.ty(v);
                }
            }
            let var = self.declare(name, ty);
            if let Some(v) = value {
                let v = self.convert(v, ty);
                self.assign(var, v);
            }
        }
    }

    fn if_stmt(&mut self, s: Node<'t>) {
        let (Some(cond), Some(then)) = (s.child_by_field_name("condition"), s.child_by_field_name("consequence"))
        else {
            self.unsupported("an incomplete if statement");
            return;
        };
        let t = self.b.create_block();
        let f = self.b.create_block();
        self.cond(cond, t, f);
        self.b.seal(t);
        self.b.seal(f);
        let join = self.b.create_block();
        self.cur = Some(t);
        self.stmt(then);
        self.jump(join);
        self.cur = Some(f);
        if let Some(alt) = s.child_by_field_name("alternative") {
            self.stmt(alt);
        }
        self.jump(join);
        self.b.seal(join);
        self.cur = Some(join);
    }

    fn labeled(&mut self, s: Node<'t>) {
        let kids = named_children(s);
        let (Some(label), Some(body)) = (kids.first(), kids.last()) else { return };
        let label = self.text(*label).to_string();
        match body.kind() {
            "while_statement" | "for_statement" | "do_statement" => self.loop_stmt(*body, Some(label)),
            "enhanced_for_statement" => self.enhanced_for(*body, Some(label)),
            _ => {
                let exit = self.b.create_block();
                self.targets.push(JumpTarget {
                    label: Some(label),
                    break_to: exit,
                    continue_to: None,
                    yield_var: None,
                    handlers_len: self.handlers.len(),
                    is_loop: false,
                });
                self.stmt(*body);
                self.targets.pop();
                self.jump(exit);
                self.b.seal(exit);
                self.cur = Some(exit);
            }
        }
    }

    /// `while`, `for` and `do`: unrolled (synthesis) or abstracted (over-approximation).
    fn loop_stmt(&mut self, s: Node<'t>, label: Option<String>) {
        self.scopes.push(HashMap::new());
        if s.kind() == "for_statement" {
            let mut c = s.walk();
            let inits: Vec<Node<'t>> = s.children_by_field_name("init", &mut c).collect();
            for i in inits {
                if i.kind() == "local_variable_declaration" {
                    self.local_decl(i);
                } else {
                    self.expr(i);
                }
            }
        }
        let cond = s.child_by_field_name("condition");
        let body = s.child_by_field_name("body");
        let mut c = s.walk();
        let updates: Vec<Node<'t>> = s.children_by_field_name("update", &mut c).collect();
        let is_do = s.kind() == "do_statement";
        let exit = self.b.create_block();
        match self.opts.mode {
            LowerMode::Synthesis { unroll } => {
                let mut iteration = 0;
                // For `do`, the first test comes after the first body.
                loop {
                    if self.cur.is_none() {
                        break;
                    }
                    if !is_do || iteration > 0 {
                        let body_b = self.b.create_block();
                        if iteration >= unroll || self.too_big() {
                            let cut = self.b.create_block();
                            self.loop_cond(cond, cut, exit);
                            self.b.seal(cut);
                            self.cur = Some(cut);
                            self.cutoff(if iteration >= unroll {
                                CutoffKind::UnrollBound
                            } else {
                                CutoffKind::SizeLimit
                            });
                            break;
                        }
                        self.loop_cond(cond, body_b, exit);
                        self.b.seal(body_b);
                        self.cur = Some(body_b);
                    }
                    let cont = self.b.create_block();
                    self.push_loop_target(label.clone(), exit, cont);
                    if let Some(body) = body {
                        self.stmt(body);
                    }
                    self.targets.pop();
                    self.jump(cont);
                    self.b.seal(cont);
                    self.cur = Some(cont);
                    for u in &updates {
                        self.expr(*u);
                    }
                    iteration += 1;
                }
            }
            LowerMode::OverApprox => {
                let head = self.b.create_block();
                self.jump(head);
                self.b.seal(head);
                self.cur = Some(head);
                self.havoc_assigned(s);
                if !is_do {
                    let body_b = self.b.create_block();
                    self.loop_cond(cond, body_b, exit);
                    self.b.seal(body_b);
                    self.cur = Some(body_b);
                }
                let latch = self.b.create_block();
                self.push_loop_target(label, exit, latch);
                if let Some(body) = body {
                    self.stmt(body);
                }
                self.targets.pop();
                self.jump(latch);
                self.b.seal(latch);
                self.cur = Some(latch);
                for u in &updates {
                    self.expr(*u);
                }
                if is_do {
                    let again = self.b.create_block();
                    self.loop_cond(cond, again, exit);
                    self.b.seal(again);
                    self.cur = Some(again);
                }
                self.cutoff(CutoffKind::LoopIteration);
            }
        }
        self.b.seal(exit);
        self.cur = Some(exit);
        self.scopes.pop();
    }

    /// Enters a loop body: `break` goes to `break_to`, `continue` to `continue_to`.
    fn push_loop_target(&mut self, label: Option<String>, break_to: BlockId, continue_to: BlockId) {
        self.targets.push(JumpTarget {
            label,
            break_to,
            continue_to: Some(continue_to),
            yield_var: None,
            handlers_len: self.handlers.len(),
            is_loop: true,
        });
    }

    fn loop_cond(&mut self, cond: Option<Node<'t>>, t: BlockId, f: BlockId) {
        match cond {
            Some(c) => self.cond(c, t, f),
            None => self.jump(t),
        }
    }

    fn enhanced_for(&mut self, s: Node<'t>, label: Option<String>) {
        if let Some(v) = s.child_by_field_name("value") {
            let arr = self.expr(v);
            if let Ty::Arr(a) = self.ty(arr) {
                return self.array_for(s, arr, a, label);
            }
            if let (true, Ty::Obj(c)) = (self.synthesis(), self.ty(arr)) {
                if self.classes.descs[c as usize].is_list() {
                    return self.list_for(s, arr, label);
                }
            }
        }
        if self.synthesis() {
            self.unsupported("enhanced for loops (arrays and collections) are not modelled yet");
            return;
        }
        self.scopes.push(HashMap::new());
        let exit = self.b.create_block();
        let head = self.b.create_block();
        self.jump(head);
        self.b.seal(head);
        self.cur = Some(head);
        self.havoc_assigned(s);
        self.may_throw_here("iterating a collection");
        let more =
            self.nondet(NondetKind::Opaque { what: "whether the loop has another element".into() }, Ty::Bool, None);
        let body_b = self.b.create_block();
        self.branch(more, body_b, exit, None);
        self.b.seal(body_b);
        self.cur = Some(body_b);
        let ty = s.child_by_field_name("type").and_then(|t| Ty::from_java(self.text(t))).unwrap_or(Ty::Ref);
        if let Some(name) = s.child_by_field_name("name") {
            let var = self.declare(self.text(name), ty);
            let v = self.opaque("an element of the iterated collection".into(), ty, None);
            self.assign(var, v);
        }
        let latch = self.b.create_block();
        self.push_loop_target(label, exit, latch);
        if let Some(body) = s.child_by_field_name("body") {
            self.stmt(body);
        }
        self.targets.pop();
        self.jump(latch);
        self.b.seal(latch);
        self.cur = Some(latch);
        self.cutoff(CutoffKind::LoopIteration);
        self.b.seal(exit);
        self.cur = Some(exit);
        self.scopes.pop();
    }

    fn return_stmt(&mut self, s: Node<'t>) {
        let (ret_ty, ret_var, ret_block, handlers_len) = {
            let f = self.frames.last().expect("a frame");
            (f.ret_ty, f.ret_var, f.ret_block, f.handlers_len)
        };
        let value = named_children(s).into_iter().next().map(|e| {
            let v = self.expr_as(e, Some(ret_ty));
            self.convert(v, ret_ty)
        });
        self.run_finallies(handlers_len);
        if self.cur.is_none() {
            return;
        }
        if let (Some(var), Some(v)) = (ret_var, value) {
            self.assign(var, v);
        }
        self.jump(ret_block);
    }

    /// Lowers the `finally` bodies of the try contexts above `down_to`, innermost first, as a jump
    /// out of them does.
    fn run_finallies(&mut self, down_to: usize) {
        let mut i = self.handlers.len();
        while i > down_to {
            i -= 1;
            if let Some(fin) = self.handlers[i].finally {
                let saved = self.handlers.split_off(i);
                self.stmt(fin);
                self.handlers.extend(saved);
                if self.cur.is_none() {
                    return;
                }
            }
        }
    }

    fn throw_stmt(&mut self, s: Node<'t>) {
        let Some(e) = named_children(s).into_iter().next() else { return };
        if e.kind() == "object_creation_expression" {
            let class = e.child_by_field_name("type").map(|t| self.text(t).to_string()).unwrap_or_default();
            if let Some(args) = e.child_by_field_name("arguments") {
                for a in named_children(args) {
                    self.expr(a);
                }
            }
            self.raise(&class, Some(s));
        } else {
            self.expr(e);
            if self.synthesis() {
                self.unsupported("rethrowing an exception object is not modelled yet");
            } else {
                self.raise_any("a rethrown exception");
            }
        }
    }

    /// An exception of `class` is thrown here: route it to the first matching catch, through the
    /// finally bodies on the way, or out of the method.
    fn raise(&mut self, class: &str, at: Option<Node<'_>>) {
        let simple = class.rsplit('.').next().unwrap_or(class).trim().to_string();
        let mut i = self.handlers.len();
        while i > 0 {
            i -= 1;
            let ctx = self.handlers[i].clone();
            for catch in &ctx.catches {
                for cc in &catch.classes {
                    match is_subclass(&simple, cc) {
                        Some(true) => {
                            self.jump(catch.block);
                            return;
                        }
                        Some(false) => {}
                        None => {
                            self.unsupported(format!("cannot tell whether {simple} is caught by `catch ({cc} ...)`"));
                            return;
                        }
                    }
                }
            }
            if let Some(fin) = ctx.finally {
                let saved = self.handlers.split_off(i);
                self.stmt(fin);
                self.handlers.extend(saved);
                if self.cur.is_none() {
                    return;
                }
            }
        }
        if let Some(c) = self.cur.take() {
            self.b.terminate(c, Terminator::Throw { class: simple, span: at.map(|n| n.byte_range()) });
        }
    }

    /// Over-approximation: an exception of any class may be thrown here.
    fn raise_any(&mut self, what: &str) {
        let mut i = self.handlers.len();
        while i > 0 {
            i -= 1;
            let ctx = self.handlers[i].clone();
            for catch in &ctx.catches {
                let yes = self.nondet(NondetKind::CallThrows { callee: what.to_string() }, Ty::Bool, None);
                let no = self.b.create_block();
                self.branch(yes, catch.block, no, None);
                self.b.seal(no);
                self.cur = Some(no);
            }
            if let Some(fin) = ctx.finally {
                let saved = self.handlers.split_off(i);
                self.stmt(fin);
                self.handlers.extend(saved);
                if self.cur.is_none() {
                    return;
                }
            }
        }
        if let Some(c) = self.cur.take() {
            self.b.terminate(c, Terminator::Throw { class: "Throwable".into(), span: None });
        }
    }

    /// Whether a `catch` of an enclosing `try` catches the errors the virtual machine may throw
    /// at any point (`OutOfMemoryError`, `StackOverflowError`, `InternalError`; so `Error`,
    /// `Throwable`, `VirtualMachineError`).
    fn catches_vm_errors(&self) -> bool {
        self.handlers.iter().any(|h| h.catches.iter().any(|c| c.classes.iter().any(|cc| catches_vm_error(cc))))
    }

    /// Before each statement inside a `try` that catches virtual machine errors: in proofs, such
    /// an error may be thrown here (the heap or the stack may run out anywhere); synthesis does
    /// not model that but for huge arrays (`new_array`), which a proof blocker records.
    fn may_throw_vm_error(&mut self) {
        if self.cur.is_none() || !self.catches_vm_errors() {
            return;
        }
        if self.synthesis() {
            self.b.add_proof_blocker(
                "a catch of OutOfMemoryError, StackOverflowError or their superclasses is reached only through huge arrays when looking for tests".into(),
            );
            return;
        }
        let what = "a virtual machine error (out of memory or stack)";
        let yes = self.nondet(NondetKind::CallThrows { callee: what.to_string() }, Ty::Bool, None);
        let throw_b = self.b.create_block();
        let cont = self.b.create_block();
        self.branch(yes, throw_b, cont, None);
        self.b.seal(throw_b);
        self.b.seal(cont);
        self.cur = Some(throw_b);
        let mut i = self.handlers.len();
        while i > 0 {
            i -= 1;
            let ctx = self.handlers[i].clone();
            for catch in &ctx.catches {
                if !catch.classes.iter().any(|cc| catches_vm_error(cc)) {
                    continue;
                }
                let taken = self.nondet(NondetKind::CallThrows { callee: what.to_string() }, Ty::Bool, None);
                let no = self.b.create_block();
                self.branch(taken, catch.block, no, None);
                self.b.seal(no);
                self.cur = Some(no);
            }
            if let Some(fin) = ctx.finally {
                let saved = self.handlers.split_off(i);
                self.stmt(fin);
                self.handlers.extend(saved);
                if self.cur.is_none() {
                    break;
                }
            }
        }
        if let Some(c) = self.cur.take() {
            self.b.terminate(c, Terminator::Throw { class: "VirtualMachineError".into(), span: None });
        }
        self.cur = Some(cont);
    }

    /// An exception jreach does not decide (null receivers, unboxing, casts, iteration, calls it
    /// cannot see into) may be thrown here: a fork to the handlers in the over-approximation, a
    /// proof blocker in synthesis (which ignores it).
    fn may_throw_here(&mut self, what: &str) {
        if self.handlers.is_empty() {
            return;
        }
        if self.synthesis() {
            self.b.add_proof_blocker(format!("{what} may throw inside a try"));
            return;
        }
        let yes = self.nondet(NondetKind::CallThrows { callee: what.to_string() }, Ty::Bool, None);
        let throw_b = self.b.create_block();
        let cont = self.b.create_block();
        self.branch(yes, throw_b, cont, None);
        self.b.seal(throw_b);
        self.b.seal(cont);
        self.cur = Some(throw_b);
        self.raise_any(what);
        self.cur = Some(cont);
    }

    fn break_continue(&mut self, s: Node<'t>) {
        let is_break = s.kind() == "break_statement";
        let label = named_children(s).into_iter().find(|k| k.kind() == "identifier").map(|k| self.text(k).to_string());
        let target = self
            .targets
            .iter()
            .rev()
            .find(|t| match &label {
                Some(l) => t.label.as_deref() == Some(l.as_str()),
                None => t.yield_var.is_none() && (t.is_loop || (is_break && t.label.is_none())),
            })
            .cloned();
        let Some(t) = target else {
            self.unsupported("a break or continue without a target");
            return;
        };
        self.run_finallies(t.handlers_len);
        let to = if is_break { Some(t.break_to) } else { t.continue_to };
        match to {
            Some(to) => self.jump(to),
            None => self.unsupported("continue to a statement that is not a loop"),
        }
    }

    fn yield_stmt(&mut self, s: Node<'t>) {
        let Some(t) = self.targets.iter().rev().find(|t| t.yield_var.is_some()).cloned() else {
            self.unsupported("yield outside a switch expression");
            return;
        };
        let (var, ty) = t.yield_var.expect("found by yield_var");
        if let Some(e) = named_children(s).into_iter().next() {
            let v = self.expr_as(e, Some(ty));
            let v = self.convert(v, ty);
            self.run_finallies(t.handlers_len);
            if self.cur.is_some() {
                self.assign(var, v);
            }
        }
        self.jump(t.break_to);
    }

    fn try_stmt(&mut self, s: Node<'t>) {
        let kids = named_children(s);
        let body = s.child_by_field_name("body");
        let finally =
            kids.iter().find(|k| k.kind() == "finally_clause").and_then(|f| named_children(*f).into_iter().next());
        let mut catches = Vec::new();
        let mut catch_nodes = Vec::new();
        for k in kids.iter().filter(|k| k.kind() == "catch_clause") {
            let param = named_children(*k).into_iter().find(|p| p.kind() == "catch_formal_parameter");
            let mut classes = Vec::new();
            let mut var_name = None;
            if let Some(p) = param {
                for part in named_children(p) {
                    if part.kind() == "catch_type" {
                        for t in named_children(part) {
                            classes.push(self.text(t).rsplit('.').next().unwrap_or("").to_string());
                        }
                    }
                }
                var_name = p.child_by_field_name("name").map(|n| self.text(n).to_string());
            }
            let block = self.b.create_block();
            catches.push(CatchInfo { classes, block });
            catch_nodes.push((block, var_name, k.child_by_field_name("body")));
        }
        let after = self.b.create_block();
        self.handlers.push(TryCtx { catches, finally });
        if let Some(body) = body {
            self.stmt(body);
        }
        self.handlers.pop();
        if let Some(fin) = finally {
            if self.cur.is_some() {
                self.stmt(fin);
            }
        }
        self.jump(after);
        for (block, var_name, body) in catch_nodes {
            self.b.seal(block);
            self.cur = Some(block);
            self.scopes.push(HashMap::new());
            if let Some(name) = var_name {
                let var = self.declare(&name, Ty::Ref);
                let v = self.opaque("the caught exception".into(), Ty::Ref, None);
                self.assign(var, v);
            }
            self.handlers.push(TryCtx { catches: vec![], finally });
            if let Some(body) = body {
                self.stmt(body);
            }
            self.handlers.pop();
            self.scopes.pop();
            if let Some(fin) = finally {
                if self.cur.is_some() {
                    self.stmt(fin);
                }
            }
            self.jump(after);
        }
        self.b.seal(after);
        self.cur = Some(after);
    }

    /// Classic and arrow `switch`, as a statement (`value_ty` None) or as an expression yielding a
    /// value of `value_ty`.
    fn switch(&mut self, s: Node<'t>, value_ty: Option<Ty>) -> Option<ValueId> {
        let (Some(sel_node), Some(body)) = (s.child_by_field_name("condition"), s.child_by_field_name("body")) else {
            self.unsupported("an incomplete switch");
            return None;
        };
        let sel = self.expr(sel_node);
        // A switch on a box unboxes it: NullPointerException on null (JLS 14.11.3).
        let sel = match self.ty(sel) {
            Ty::Obj(c) => match self.classes.descs[c as usize].boxes {
                Some(prim) => self.convert(sel, prim),
                None => sel,
            },
            _ => sel,
        };
        let sel = if self.ty(sel).is_integral() {
            let t = Ty::promote1(self.ty(sel));
            self.convert(sel, t)
        } else {
            sel
        };
        if self.ty(sel) == Ty::Str {
            self.check_not_null(sel, sel_node);
        }
        let sel_enum = match self.ty(sel) {
            Ty::Obj(c) if self.classes.descs[c as usize].is_enum() => {
                self.check_object_not_null(sel, sel_node);
                Some(c)
            }
            _ => None,
        };
        let sel_text = self.text(sel_node).trim_start_matches('(').trim_end_matches(')').to_string();
        let groups: Vec<Node<'t>> = named_children(body)
            .into_iter()
            .filter(|g| matches!(g.kind(), "switch_block_statement_group" | "switch_rule"))
            .collect();
        let exit = self.b.create_block();
        let yield_var = value_ty.map(|t| (self.b.new_var("$switch", t), t));
        let group_blocks: Vec<BlockId> = groups.iter().map(|_| self.b.create_block()).collect();
        let mut default = None;
        for (i, g) in groups.iter().enumerate() {
            for label in named_children(*g).into_iter().filter(|l| l.kind() == "switch_label") {
                let cases = named_children(label);
                if cases.is_empty() || self.text(label).trim_start().starts_with("default") {
                    default = Some(group_blocks[i]);
                    continue;
                }
                for case in cases {
                    if matches!(case.kind(), "pattern" | "guard" | "type_pattern" | "record_pattern") {
                        self.unsupported("pattern matching in switch is not modelled yet");
                        return None;
                    }
                    let constant = sel_enum.and_then(|c| {
                        let name = self.text(case).rsplit('.').next().unwrap_or("").trim().to_string();
                        self.classes.descs[c as usize].constants.iter().position(|k| *k == name).map(|k| (c, k))
                    });
                    let eq = if let Some((c, k)) = constant {
                        let r = self.emit(Op::Obj(ObjOp::Ref(k as i32 + 1), vec![]), Ty::Obj(c), Some(case));
                        self.bin(BinOp::Eq, sel, r)
                    } else if self.ty(sel) == Ty::Str {
                        let c = self.expr(case);
                        let c = self.convert(c, Ty::Str);
                        self.emit(Op::Str(StrOp::Equals, vec![sel, c]), Ty::Bool, Some(case))
                    } else if self.ty(sel) == Ty::Ref {
                        self.opaque(format!("whether {sel_text} matches {}", self.text(case)), Ty::Bool, Some(case))
                    } else {
                        let c = self.expr(case);
                        let c = self.convert(c, self.ty(sel));
                        self.bin(BinOp::Eq, sel, c)
                    };
                    let next = self.b.create_block();
                    let origin =
                        CondOrigin { span: case.byte_range(), text: format!("{sel_text} == {}", self.text(case)) };
                    self.branch(eq, group_blocks[i], next, Some(origin));
                    self.b.seal(next);
                    self.cur = Some(next);
                }
            }
        }
        match default {
            Some(d) => self.jump(d),
            None if value_ty.is_some() => self.unsupported("a switch expression with no matching case"),
            None => self.jump(exit),
        }
        self.targets.push(JumpTarget {
            label: None,
            break_to: exit,
            continue_to: None,
            yield_var,
            handlers_len: self.handlers.len(),
            is_loop: false,
        });
        self.scopes.push(HashMap::new());
        for (i, g) in groups.iter().enumerate() {
            // Fall-through from the previous group enters here too.
            self.jump(group_blocks[i]);
            self.b.seal(group_blocks[i]);
            self.cur = Some(group_blocks[i]);
            let parts: Vec<Node<'t>> = named_children(*g).into_iter().filter(|p| p.kind() != "switch_label").collect();
            if g.kind() == "switch_rule" {
                for p in parts {
                    match (p.kind(), yield_var) {
                        ("expression_statement", Some((var, ty))) => {
                            let e = named_children(p).into_iter().next();
                            if let Some(e) = e {
                                let c = self.cur();
                                self.b.mark_stmt(c, p.start_byte());
                                let v = self.expr_as(e, Some(ty));
                                let v = self.convert(v, ty);
                                if self.cur.is_some() {
                                    self.assign(var, v);
                                }
                            }
                        }
                        _ => self.stmt(p),
                    }
                }
                self.jump(exit);
            } else {
                for p in parts {
                    self.stmt(p);
                }
            }
        }
        self.jump(exit);
        self.scopes.pop();
        self.targets.pop();
        self.b.seal(exit);
        self.cur = Some(exit);
        yield_var.map(|(var, _)| self.read(var))
    }

    // ---- conditions --------------------------------------------------------------------

    /// Lowers a boolean expression as control flow to `t` or `f`.
    fn cond(&mut self, e: Node<'t>, t: BlockId, f: BlockId) {
        match e.kind() {
            "parenthesized_expression" | "condition" => {
                if let Some(inner) = named_children(e).into_iter().next() {
                    return self.cond(inner, t, f);
                }
            }
            "true" => return self.jump(t),
            "false" => return self.jump(f),
            "unary_expression" if e.child_by_field_name("operator").map(|o| o.kind()) == Some("!") => {
                if let Some(op) = e.child_by_field_name("operand") {
                    return self.cond(op, f, t);
                }
            }
            "binary_expression" => {
                let op = e.child_by_field_name("operator").map(|o| o.kind());
                if let (Some(op @ ("&&" | "||")), Some(l), Some(r)) =
                    (op, e.child_by_field_name("left"), e.child_by_field_name("right"))
                {
                    let mid = self.b.create_block();
                    if op == "&&" {
                        self.cond(l, mid, f);
                    } else {
                        self.cond(l, t, mid);
                    }
                    self.b.seal(mid);
                    self.cur = Some(mid);
                    return self.cond(r, t, f);
                }
            }
            _ => {}
        }
        let v = self.expr(e);
        let v = self.convert(v, Ty::Bool);
        if self.cur.is_none() {
            return;
        }
        let origin = CondOrigin { span: e.byte_range(), text: self.text(e).to_string() };
        self.branch(v, t, f, Some(origin));
    }

    // ---- expressions -------------------------------------------------------------------

    fn expr(&mut self, e: Node<'t>) -> ValueId {
        self.expr_as(e, None)
    }

    /// Lowers an expression; `hint` is the type the context expects (for switch expressions).
    fn expr_as(&mut self, e: Node<'t>, hint: Option<Ty>) -> ValueId {
        if e.is_error() || e.is_missing() || e.has_error() {
            self.unsupported("a syntax error");
            return self.opaque("an expression with a syntax error".into(), hint.unwrap_or(Ty::Ref), None);
        }
        match e.kind() {
            "parenthesized_expression" => match named_children(e).into_iter().next() {
                Some(inner) => self.expr_as(inner, hint),
                None => self.opaque("()".into(), Ty::Ref, None),
            },
            "decimal_integer_literal" | "hex_integer_literal" | "octal_integer_literal" | "binary_integer_literal" => {
                match parse_int_literal(self.text(e)) {
                    Some(c) => self.konst(c),
                    None => {
                        self.unsupported(format!("integer literal {}", self.text(e)));
                        self.int(Ty::Int, 0)
                    }
                }
            }
            "decimal_floating_point_literal" | "hex_floating_point_literal" => {
                match parse_float_literal(self.text(e)) {
                    Some(c) => self.konst(c),
                    None => {
                        self.unsupported(format!("floating-point literal {}", self.text(e)));
                        self.konst(Const::f64(0.0))
                    }
                }
            }
            "character_literal" => match parse_char_literal(self.text(e)) {
                Some(c) => self.int(Ty::Char, c as i64),
                None => {
                    self.unsupported(format!("character literal {}", self.text(e)));
                    self.int(Ty::Char, 0)
                }
            },
            "string_literal" => {
                let s = parse_string_literal(self.text(e));
                self.konst(Const::Str(s))
            }
            "true" => self.konst(Const::Bool(true)),
            "false" => self.konst(Const::Bool(false)),
            "null_literal" => self.konst(Const::Null),
            "identifier" => self.identifier(e),
            "this" => match self.this_obj() {
                Some((r, _)) => r,
                None => self.opaque("this".into(), Ty::Ref, Some(e)),
            },
            "field_access" => self.field_access(e),
            "unary_expression" => self.unary(e),
            "binary_expression" => self.binary(e),
            "assignment_expression" => self.assignment(e),
            "update_expression" => self.update(e),
            "ternary_expression" => self.ternary(e, hint),
            "cast_expression" => {
                let to = e.child_by_field_name("type").map(|t| self.text(t)).and_then(Ty::from_java);
                let v = match e.child_by_field_name("value") {
                    Some(v) => self.expr(v),
                    None => return self.opaque("a cast".into(), Ty::Ref, None),
                };
                match to {
                    Some(to) => self.convert(v, to),
                    None => {
                        let ty = self.ty_of(e.child_by_field_name("type").map(|t| self.text(t)).unwrap_or(""));
                        // A cast to the value's own static type always succeeds.
                        if ty == self.ty(v) && matches!(ty, Ty::Str | Ty::Obj(_)) {
                            return v;
                        }
                        self.may_throw_here("a reference cast");
                        if ty == Ty::Str && self.ty(v) == Ty::Str {
                            v
                        } else {
                            self.opaque(format!("a cast to {}", self.text(e)), ty, Some(e))
                        }
                    }
                }
            }
            "method_invocation" => self.call(e, hint),
            "switch_expression" => {
                let ty = hint.unwrap_or(Ty::Int);
                match self.switch(e, Some(ty)) {
                    Some(v) => v,
                    None => self.opaque("a switch expression".into(), ty, None),
                }
            }
            "object_creation_expression"
                if e.child_by_field_name("body").is_none()
                    && self.text_builder_class(e.child_by_field_name("type").map(|t| self.text(t)).unwrap_or("")).is_some() =>
            {
                let c = self.text_builder_class(e.child_by_field_name("type").map(|t| self.text(t)).unwrap_or(""));
                self.new_text_builder(c.expect("matched above"), e)
            }
            "object_creation_expression"
                if e.child_by_field_name("body").is_none()
                    && e.child_by_field_name("arguments").is_some_and(|a| named_children(a).is_empty())
                    && matches!(
                        self.ty_of(e.child_by_field_name("type").map(|t| self.text(t)).unwrap_or("")),
                        Ty::Obj(c) if self.classes.descs[c as usize].buildable
                    ) =>
            {
                let Ty::Obj(c) = self.ty_of(e.child_by_field_name("type").map(|t| self.text(t)).unwrap_or("")) else {
                    unreachable!("matched above")
                };
                self.new_object(c, e)
            }
            "object_creation_expression" if self.synthesis() && self.new_list_type(e).is_some() => {
                let elem_ty = self.new_list_type(e).expect("matched above");
                self.new_list(elem_ty, e)
            }
            "object_creation_expression" if self.synthesis() && self.new_map_types(e).is_some() => {
                let (key_ty, value_ty) = self.new_map_types(e).expect("matched above");
                self.new_map(key_ty, value_ty, e)
            }
            "object_creation_expression" => {
                let mut args = Vec::new();
                if let Some(a) = e.child_by_field_name("arguments") {
                    for a in named_children(a) {
                        args.push(self.expr(a));
                    }
                }
                let class = e.child_by_field_name("type").map(|t| self.ty_of(self.text(t)));
                // Constructors cannot be overridden: both modes run the one `new` selects.
                if let (None, Some(Ty::Obj(c))) = (e.child_by_field_name("body"), class) {
                    if let Some(ctor) = self.ctor_for(c, &args) {
                        return self.construct(c, &ctor, args, e);
                    }
                    if args.is_empty() && self.classes.implicit_ctor[c as usize] {
                        let r = self.new_object(c, e);
                        self.run_implicit_ctor(Some((r, c)), c, e);
                        return r;
                    }
                }
                if e.child_by_field_name("body").is_none() {
                    let ty = e.child_by_field_name("type").map(|t| self.text(t)).unwrap_or("?");
                    self.unknown_call_throws(&format!("new {ty}(...)"));
                }
                self.opaque(
                    format!("a new {}", e.child_by_field_name("type").map(|t| self.text(t)).unwrap_or("object")),
                    Ty::Ref,
                    Some(e),
                )
            }
            "instanceof_expression" => {
                let v = e.child_by_field_name("left").map(|l| self.expr(l));
                if e.child_by_field_name("name").is_some() || e.child_by_field_name("pattern").is_some() {
                    self.unsupported("instanceof patterns are not modelled yet");
                }
                let class = e.child_by_field_name("right").map(|t| self.ty_of(self.text(t)));
                if let (Some(v), Some(class), true) = (v, class, self.synthesis()) {
                    if let Some(r) = self.exact_instanceof(v, class) {
                        return r;
                    }
                }
                self.opaque(format!("`{}`", self.text(e)), Ty::Bool, Some(e))
            }
            "lambda_expression" | "method_reference" | "class_literal" => {
                self.opaque(format!("`{}`", self.text(e)), Ty::Ref, Some(e))
            }
            "array_access" => self.array_load(e),
            "array_creation_expression" => self.array_creation(e),
            "array_initializer" => match hint {
                Some(Ty::Arr(a)) => self.array_literal(e, a),
                _ => {
                    self.unsupported("an array initializer of an unknown type");
                    self.opaque("an array".into(), hint.unwrap_or(Ty::Ref), None)
                }
            },
            other => {
                self.unsupported(format!("`{other}` expressions are not modelled yet"));
                self.opaque(format!("`{}`", self.text(e)), hint.unwrap_or(Ty::Ref), None)
            }
        }
    }

    fn identifier(&mut self, e: Node<'t>) -> ValueId {
        let name = self.text(e);
        if !self.is_local(name) && self.is_constant_field(name) {
            return self.field_value(name, e);
        }
        if let Some(l) = self.lookup(name) {
            return self.read(l.var);
        }
        if let Some((r, c, _, _)) = self.this_obj_field(name) {
            if let Some(v) = self.object_get(r, c, name, e) {
                return v;
            }
        }
        self.field_value(name, e)
    }

    /// Whether `name` is a local variable or parameter in scope.
    fn is_local(&self, name: &str) -> bool {
        self.scopes.iter().any(|s| s.contains_key(name))
    }

    /// Whether the field a simple name denotes from the current class is a constant variable
    /// (its reads are the constant, see `collect_fields`).
    fn is_constant_field(&self, name: &str) -> bool {
        self.field_info(name).is_some_and(|f| f.constant_init.is_some())
    }

    /// Field `name` of class `c` when it is a constant variable: its constant (evaluated as a
    /// read from the class's own code).
    fn constant_field_of(&mut self, c: u16, name: &str, at: Node<'t>) -> Option<ValueId> {
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

    /// The field a simple name denotes from the current class: declared in it or in a class that
    /// encloses it (the innermost wins). Inherited fields and fields of other classes are unknown.
    fn field_info(&self, name: &str) -> Option<FieldInfo> {
        let classes = self.frames.last().map(|f| f.classes.as_slice()).unwrap_or(&[]);
        self.fields
            .get(name)?
            .iter()
            .filter(|fi| classes.starts_with(&fi.classes))
            .max_by_key(|fi| fi.classes.len())
            .cloned()
    }

    fn field_value(&mut self, name: &str, e: Node<'t>) -> ValueId {
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

    fn field_access(&mut self, e: Node<'t>) -> ValueId {
        let obj = e.child_by_field_name("object").map(|o| self.text(o)).unwrap_or("");
        let field = e.child_by_field_name("field").map(|f| self.text(f)).unwrap_or("");
        if let Some(c) = jdk_constant(obj, field).filter(|_| self.classes.declared_chain(obj).is_none()) {
            return self.konst(c);
        }
        if let Some(l) = self.static_access(e) {
            return self.read(l.var);
        }
        if e.child_by_field_name("object").is_some_and(|o| o.kind() == "super") {
            if let Some(v) = self.super_field(field, e) {
                return v;
            }
            // A field of a superclass jreach does not see: any value in proofs.
            let what = format!("`{}`", self.text(e));
            if self.synthesis() {
                self.unsupported(format!("{what} is a superclass field jreach does not see"));
            }
            return self.opaque(what, Ty::Ref, Some(e));
        }
        if let (Ty::Obj(c), false) = (self.ty_of(obj), self.names_value(obj)) {
            if let Some(k) = self.classes.descs[c as usize].constants.iter().position(|n| n == field) {
                return self.emit(Op::Obj(ObjOp::Ref(k as i32 + 1), vec![]), Ty::Obj(c), Some(e));
            }
        }
        if let Some(o) = e.child_by_field_name("object") {
            let is_name = o.kind() == "identifier" && !self.names_value(obj);
            if !is_name && o.kind() != "this" {
                if let Some(fnode) = e.child_by_field_name("field") {
                    let probe_ty = match o.kind() {
                        "identifier" => self.lookup(obj).map(|l| l.ty).or(self.this_obj_field(obj).map(|f| f.3)),
                        _ => None,
                    };
                    if probe_ty.is_none_or(|t| matches!(t, Ty::Obj(_))) && field != "length" {
                        let ov = self.expr(o);
                        if let Ty::Obj(c) = self.ty(ov) {
                            if let Some(v) = self.object_get(ov, c, field, fnode) {
                                return v;
                            }
                        }
                        self.may_throw_here("a field access on a reference that may be null");
                        let ty = self.field_info(field).map(|f| f.ty).unwrap_or(Ty::Ref);
                        return self.opaque(format!("field {}", self.text(e)), ty, Some(e));
                    }
                }
            }
        }
        if field == "length" {
            if let Some(o) = e.child_by_field_name("object") {
                let is_class = o.kind() == "identifier" && !self.names_value(obj);
                if !is_class {
                    let a = self.expr(o);
                    if let Ty::Arr(t) = self.ty(a) {
                        self.check_array_not_null(a, e);
                        let mem = self.mem(t);
                        return self.emit(Op::Arr(ArrOp::Len, vec![mem, a]), Ty::Int, Some(e));
                    }
                    self.may_throw_here("a field access on a reference that may be null");
                    return self.opaque(format!("`{}`", self.text(e)), Ty::Int, Some(e));
                }
            }
        }
        if obj == "this" {
            if self.is_constant_field(field) {
                if let Some(fnode) = e.child_by_field_name("field") {
                    return self.field_value(field, fnode);
                }
            }
            if let Some(l) = self.this_field(field) {
                return self.read(l.var);
            }
            if let Some((r, c, _, _)) = self.this_obj_field(field) {
                if let Some(v) = self.object_get(r, c, field, e) {
                    return v;
                }
            }
        }
        if obj == "this" || self.frames.last().is_some_and(|f| f.classes.iter().any(|c| c == obj)) {
            if let Some(fnode) = e.child_by_field_name("field") {
                return self.field_value(field, fnode);
            }
        }
        if let Some(o) = e.child_by_field_name("object") {
            if o.kind() != "identifier" || self.names_value(obj) {
                self.expr(o);
            }
        }
        // A field of another object: null receivers throw; the type is known only for
        // fields of this class.
        self.may_throw_here("a field access on a reference that may be null");
        let ty = self.field_info(field).map(|f| f.ty).unwrap_or(Ty::Ref);
        self.opaque(format!("field {}", self.text(e)), ty, Some(e))
    }

    fn unary(&mut self, e: Node<'t>) -> ValueId {
        let op = e.child_by_field_name("operator").map(|o| o.kind()).unwrap_or("");
        let Some(operand) = e.child_by_field_name("operand") else { return self.opaque("?".into(), Ty::Ref, None) };
        let v = self.expr(operand);
        let ty = self.ty(v);
        match op {
            "!" => {
                let v = self.convert(v, Ty::Bool);
                self.emit(Op::Unary(UnOp::Not, v), Ty::Bool, Some(e))
            }
            "-" | "+" | "~" if ty.is_numeric() => {
                let t = Ty::promote1(ty);
                let v = self.convert(v, t);
                match op {
                    "+" => v,
                    "-" => self.emit(Op::Unary(UnOp::Neg, v), t, Some(e)),
                    _ => self.emit(Op::Unary(UnOp::BitNot, v), t, Some(e)),
                }
            }
            _ => self.opaque(format!("`{}`", self.text(e)), Ty::Ref, Some(e)),
        }
    }

    fn binary(&mut self, e: Node<'t>) -> ValueId {
        let op = e.child_by_field_name("operator").map(|o| o.kind()).unwrap_or("");
        let (Some(l), Some(r)) = (e.child_by_field_name("left"), e.child_by_field_name("right")) else {
            return self.opaque("?".into(), Ty::Ref, None);
        };
        if op == "&&" || op == "||" {
            let t = self.b.create_block();
            let f = self.b.create_block();
            let join = self.b.create_block();
            let tmp = self.b.new_var("$cond", Ty::Bool);
            self.cond(e, t, f);
            self.b.seal(t);
            self.b.seal(f);
            self.cur = Some(t);
            let tv = self.konst(Const::Bool(true));
            self.assign(tmp, tv);
            self.jump(join);
            self.cur = Some(f);
            let fv = self.konst(Const::Bool(false));
            self.assign(tmp, fv);
            self.jump(join);
            self.b.seal(join);
            self.cur = Some(join);
            return self.read(tmp);
        }
        let a = self.expr(l);
        let b = self.expr(r);
        self.binop_values(op, a, b, e)
    }

    /// `a op b` on lowered operands, with Java's promotions and implicit exceptions.
    fn binop_values(&mut self, op: &str, a: ValueId, b: ValueId, e: Node<'t>) -> ValueId {
        let (ta, tb) = (self.ty(a), self.ty(b));
        let bin = match op {
            "+" => BinOp::Add,
            "-" => BinOp::Sub,
            "*" => BinOp::Mul,
            "/" => BinOp::Div,
            "%" => BinOp::Rem,
            "<<" => BinOp::Shl,
            ">>" => BinOp::Shr,
            ">>>" => BinOp::Ushr,
            "&" => BinOp::And,
            "|" => BinOp::Or,
            "^" => BinOp::Xor,
            "==" => BinOp::Eq,
            "!=" => BinOp::Ne,
            "<" => BinOp::Lt,
            "<=" => BinOp::Le,
            ">" => BinOp::Gt,
            ">=" => BinOp::Ge,
            _ => return self.opaque(format!("`{}`", self.text(e)), Ty::Ref, Some(e)),
        };
        if ta == Ty::Str || tb == Ty::Str {
            return self.string_binop(bin, a, b, e);
        }
        let boxed = |t: Ty| match t {
            Ty::Obj(c) => self.classes.descs[c as usize].boxes,
            _ => None,
        };
        match (boxed(ta), boxed(tb)) {
            // A box against a primitive: unboxed (JLS 5.6).
            (Some(p), None) if tb.is_numeric() || tb == Ty::Bool => {
                let a = self.convert(a, p);
                return self.binop_values(op, a, b, e);
            }
            (None, Some(p)) if ta.is_numeric() || ta == Ty::Bool => {
                let b = self.convert(b, p);
                return self.binop_values(op, a, b, e);
            }
            // Two boxes: arithmetic unboxes; `==` compares references, which the box cache makes
            // unpredictable.
            (Some(p), Some(q)) if !matches!(bin, BinOp::Eq | BinOp::Ne) => {
                let a = self.convert(a, p);
                let b = self.convert(b, q);
                return self.binop_values(op, a, b, e);
            }
            (Some(_), Some(_)) => return self.opaque(format!("`{}`", self.text(e)), Ty::Bool, Some(e)),
            _ => {}
        }
        if let (r @ (Ty::Obj(_) | Ty::Arr(_)), _) | (_, r @ (Ty::Obj(_) | Ty::Arr(_))) = (ta, tb) {
            // Reference (in)equality of arrays and objects; `null` is id 0.
            if matches!(bin, BinOp::Eq | BinOp::Ne) {
                let a = self.convert(a, r);
                let b = self.convert(b, r);
                if self.ty(a) == self.ty(b) {
                    return self.emit(Op::Binary(bin, a, b), Ty::Bool, Some(e));
                }
            }
            return self.opaque(
                format!("`{}`", self.text(e)),
                if bin.is_comparison() { Ty::Bool } else { Ty::Int },
                Some(e),
            );
        }
        if ta == Ty::Ref || tb == Ty::Ref {
            if bin == BinOp::Add {
                return self.opaque(format!("the string `{}`", self.text(e)), Ty::Ref, Some(e));
            }
            let ty = if bin.is_comparison() {
                Ty::Bool
            } else if ta == Ty::Ref {
                tb
            } else {
                ta
            };
            let ty = if ty == Ty::Ref { Ty::Int } else { ty };
            return self.opaque(format!("`{}`", self.text(e)), ty, Some(e));
        }
        if ta == Ty::Bool || tb == Ty::Bool {
            if ta != tb || !matches!(bin, BinOp::And | BinOp::Or | BinOp::Xor | BinOp::Eq | BinOp::Ne) {
                return self.opaque(format!("`{}`", self.text(e)), Ty::Bool, Some(e));
            }
            return self.emit(Op::Binary(bin, a, b), Ty::Bool, Some(e));
        }
        if bin.is_shift() {
            let t = Ty::promote1(ta);
            let a = self.convert(a, t);
            let tb1 = Ty::promote1(tb);
            let b = self.convert(b, tb1);
            let b = self.convert(b, Ty::Int);
            return self.emit(Op::Binary(bin, a, b), t, Some(e));
        }
        let t = Ty::promote2(ta, tb);
        if matches!(bin, BinOp::And | BinOp::Or | BinOp::Xor) && !t.is_integral() {
            return self.opaque(format!("`{}`", self.text(e)), t, Some(e));
        }
        let a = self.convert(a, t);
        let b = self.convert(b, t);
        if matches!(bin, BinOp::Div | BinOp::Rem) && t.is_integral() {
            self.check_nonzero(b, e);
        }
        let ty = if bin.is_comparison() { Ty::Bool } else { t };
        self.emit(Op::Binary(bin, a, b), ty, Some(e))
    }

    /// Integral division: a zero divisor throws ArithmeticException.
    fn check_nonzero(&mut self, divisor: ValueId, at: Node<'t>) {
        let t = self.ty(divisor);
        let zero = self.int(t, 0);
        let is_zero = self.bin(BinOp::Eq, divisor, zero);
        let throw_b = self.b.create_block();
        let cont = self.b.create_block();
        self.branch(is_zero, throw_b, cont, None);
        self.b.seal(throw_b);
        self.b.seal(cont);
        self.cur = Some(throw_b);
        self.raise("ArithmeticException", Some(at));
        self.cur = Some(cont);
    }

    fn assignment(&mut self, e: Node<'t>) -> ValueId {
        let op = e.child_by_field_name("operator").map(|o| self.text(o)).unwrap_or("=");
        let (Some(l), Some(r)) = (e.child_by_field_name("left"), e.child_by_field_name("right")) else {
            return self.opaque("?".into(), Ty::Ref, None);
        };
        let l = unparen(l);
        let local = match l.kind() {
            "identifier" => self.lookup(self.text(l)),
            "field_access" if l.child_by_field_name("object").is_some_and(|o| o.kind() == "this") => {
                l.child_by_field_name("field").and_then(|f| self.this_field(self.text(f)))
            }
            "field_access" => self.static_access(l),
            _ => None,
        };
        let obj_field = match (l.kind(), local) {
            ("identifier", None) => self.this_obj_field(self.text(l)),
            ("field_access", None) => this_field_name(l, self.src).and_then(|f| self.this_obj_field(f)),
            _ => None,
        };
        if let Some(slot) = obj_field {
            return self.field_store(slot, op, r, e);
        }
        let Some(local) = local else {
            // A field or array element: the store is not tracked (fields are read as unknowns).
            if l.kind() == "array_access" {
                return self.array_assign(l, op, r, e);
            }
            if l.kind() == "field_access" && this_field_name(l, self.src).is_none() {
                let o = l.child_by_field_name("object");
                let is_name = o.is_some_and(|o| o.kind() == "identifier" && !self.names_value(self.text(o)));
                if !is_name {
                    if let Some(v) = self.object_assign(l, op, r, e) {
                        return v;
                    }
                    // Not an object jreach models: the store is not tracked.
                    let v = self.expr(r);
                    return v;
                }
            }
            if let Some(o) = l.child_by_field_name("object") {
                if o.kind() != "this" && o.kind() != "identifier" {
                    self.expr(o);
                }
            }
            let v = self.expr(r);
            if op != "=" {
                // `obj.f op= v`: the operation still runs (and may throw) on the unknown old value.
                let ty = if self.ty(v).is_numeric() { self.ty(v) } else { Ty::Ref };
                let old = self.opaque(format!("`{}`", self.text(l)), ty, Some(l));
                return self.binop_values(op.trim_end_matches('='), old, v, e);
            }
            return v;
        };
        if local.scalar_builder {
            // `sb = new StringBuilder(..)` (the only assignment a scalar builder admits): its
            // contents start anew.
            let v = self.new_text_builder_contents(unparen(r));
            self.assign(local.var, v);
            return v;
        }
        if op == "=" {
            let v = self.expr_as(r, Some(local.ty));
            let v = self.convert(v, local.ty);
            self.assign(local.var, v);
            return v;
        }
        let cur = self.read(local.var);
        let rv = self.expr(r);
        let bin_op = op.trim_end_matches('=');
        let v = self.binop_values(bin_op, cur, rv, e);
        let v = self.convert(v, local.ty);
        self.assign(local.var, v);
        v
    }

    fn update(&mut self, e: Node<'t>) -> ValueId {
        let text = self.text(e);
        let prefix = text.starts_with("++") || text.starts_with("--");
        let inc = text.contains("++");
        let Some(target) = named_children(e).into_iter().next().map(unparen) else {
            return self.opaque("?".into(), Ty::Ref, None);
        };
        let local = match target.kind() {
            "identifier" => self.lookup(self.text(target)),
            "field_access" if target.child_by_field_name("object").is_some_and(|o| o.kind() == "this") => {
                target.child_by_field_name("field").and_then(|f| self.this_field(self.text(f)))
            }
            "field_access" => self.static_access(target),
            _ => None,
        };
        let obj_field = match (target.kind(), local) {
            ("identifier", None) => self.this_obj_field(self.text(target)),
            ("field_access", None) => this_field_name(target, self.src).and_then(|f| self.this_obj_field(f)),
            _ => None,
        };
        if let Some(slot) = obj_field {
            return self.field_update(slot, inc, prefix, e);
        }
        let Some(local) = local else {
            if target.kind() == "array_access" {
                return self.array_update(target, inc, prefix, e);
            }
            if let (Some(o), Some(fnode)) = (target.child_by_field_name("object"), target.child_by_field_name("field"))
            {
                if target.kind() == "field_access" && o.kind() != "this" {
                    let ov = self.expr(o);
                    if let Ty::Obj(c) = self.ty(ov) {
                        if let Some((i, ty)) = self.field_of(c, self.text(fnode)) {
                            self.note_receiver_alias(c);
                            self.check_object_not_null(ov, target);
                            return self.field_update((ov, c, i, ty), inc, prefix, e);
                        }
                    }
                }
            }
            return self.opaque(format!("`{text}`"), Ty::Int, Some(e));
        };
        let old = self.read(local.var);
        let new = self.stepped(old, local.ty, inc);
        self.assign(local.var, new);
        if prefix {
            new
        } else {
            old
        }
    }

    fn ternary(&mut self, e: Node<'t>, hint: Option<Ty>) -> ValueId {
        let (Some(c), Some(a), Some(b)) = (
            e.child_by_field_name("condition"),
            e.child_by_field_name("consequence"),
            e.child_by_field_name("alternative"),
        ) else {
            return self.opaque("?".into(), Ty::Ref, None);
        };
        let t = self.b.create_block();
        let f = self.b.create_block();
        self.cond(c, t, f);
        self.b.seal(t);
        self.b.seal(f);
        self.cur = Some(t);
        let va = self.expr_as(a, hint);
        let ta = self.ty(va);
        let end_a = self.cur;
        self.cur = Some(f);
        let vb = self.expr_as(b, hint);
        let tb = self.ty(vb);
        let end_b = self.cur;
        // A box beside a primitive is unboxed (JLS 15.25: a numeric conditional).
        let unboxed = |lw: &Self, t: Ty, other: Ty| match t {
            Ty::Obj(c) if other.is_numeric() || other == Ty::Bool => lw.classes.descs[c as usize].boxes.unwrap_or(t),
            _ => t,
        };
        let (ua, ub) = (unboxed(self, ta, tb), unboxed(self, tb, ta));
        let ty = if ta == tb {
            ta
        } else if ua.is_numeric() && ub.is_numeric() {
            self.numeric_conditional_type(ua, vb_const(self, va), ub, vb_const(self, vb))
        } else if ua == Ty::Bool && ub == Ty::Bool {
            Ty::Bool
        } else if ta == Ty::Str || tb == Ty::Str {
            Ty::Str
        } else if ta == Ty::Ref || tb == Ty::Ref {
            Ty::Ref
        } else {
            ta
        };
        let tmp = self.b.new_var("$ternary", ty);
        let join = self.b.create_block();
        if let Some(end) = end_a {
            self.cur = Some(end);
            let v = self.convert(va, ty);
            self.assign(tmp, v);
            self.jump(join);
        }
        if let Some(end) = end_b {
            self.cur = Some(end);
            let v = self.convert(vb, ty);
            self.assign(tmp, v);
            self.jump(join);
        }
        self.b.seal(join);
        self.cur = Some(join);
        self.read(tmp)
    }

    /// The type of a numeric conditional `c ? a : b` (JLS 15.25, table 15.25-A): the same type;
    /// `short` for `byte` and `short`; the narrower type when the other operand is an `int`
    /// constant it can represent; else binary numeric promotion.
    fn numeric_conditional_type(&self, ta: Ty, ca: Option<i64>, tb: Ty, cb: Option<i64>) -> Ty {
        let fits = |t: Ty, v: i64| match t {
            Ty::Byte => i8::try_from(v).is_ok(),
            Ty::Short => i16::try_from(v).is_ok(),
            Ty::Char => u16::try_from(v).is_ok(),
            _ => false,
        };
        match (ta, tb) {
            _ if ta == tb => ta,
            (Ty::Byte, Ty::Short) | (Ty::Short, Ty::Byte) => Ty::Short,
            (Ty::Byte | Ty::Short | Ty::Char, Ty::Int) if cb.is_some_and(|v| fits(ta, v)) => ta,
            (Ty::Int, Ty::Byte | Ty::Short | Ty::Char) if ca.is_some_and(|v| fits(tb, v)) => tb,
            _ => Ty::promote2(ta, tb),
        }
    }

    // ---- calls -------------------------------------------------------------------------

    fn call(&mut self, e: Node<'t>, hint: Option<Ty>) -> ValueId {
        let name = e.child_by_field_name("name").map(|n| self.text(n)).unwrap_or("");
        let object = e.child_by_field_name("object");
        let obj_text = object.map(|o| self.text(o));
        let arg_nodes = e.child_by_field_name("arguments").map(named_children).unwrap_or_default();
        let classes = self.frames.last().map(|f| f.classes.clone()).unwrap_or_default();
        let is_own = match obj_text {
            None | Some("this") => true,
            Some(o) => !self.names_value(o) && classes.iter().any(|c| c == o),
        };
        if object.is_some_and(|o| o.kind() == "super") {
            return self.super_call(name, &arg_nodes, e, hint);
        }
        let scalar_builder = object.and_then(|o| self.scalar_builder_root(o));
        // Receiver and arguments are evaluated left to right.
        let mut recv = None;
        if let Some(o) = object {
            if !is_own && (o.kind() != "identifier" || self.names_value(self.text(o))) {
                recv = Some(self.expr(o));
            }
        }
        let args: Vec<ValueId> = arg_nodes.iter().map(|a| self.expr(*a)).collect();
        if let Some(r) = recv.filter(|r| !self.synthesis() && self.optionals.iter().any(|m| m.obj == *r)) {
            // Proofs too: an Optional the method made itself.
            return self.call_on_optional(r, name, &args, e, hint);
        }
        if let Some(l) = scalar_builder {
            return self.text_builder_call(text_builder::BuilderPlace::Scalar(l), name, &args, e, hint);
        }
        if let Some((r, c)) = recv.and_then(|r| match self.ty(r) {
            Ty::Obj(c) if self.classes.descs[c as usize].is_text_builder() => Some((r, c)),
            _ => None,
        }) {
            return self.text_builder_call(text_builder::BuilderPlace::Heap(r, c), name, &args, e, hint);
        }
        if let (Some(r), true) = (recv, self.synthesis()) {
            if let Ty::Obj(c) = self.ty(r) {
                if self.classes.descs[c as usize].is_list() {
                    return self.list_call(r, name, &args, e, hint);
                }
                if self.classes.descs[c as usize].is_map() {
                    return self.map_call(r, name, &args, e, hint);
                }
                if self.classes.descs[c as usize].is_optional() {
                    return self.call_on_optional(r, name, &args, e, hint);
                }
                if let Some(v) = self.lambda_call(r, c, name, &args, e) {
                    return v;
                }
                if let Some(m) = self.method_of(c, name, &args) {
                    // Synthesis creates objects of exactly their declared class: no override runs.
                    self.note_exact_dispatch(Some(r), c, &m);
                    self.check_object_not_null(r, e);
                    self.next_this = Some((r, c));
                    return self.inline(&m, args, e);
                }
            }
        }
        if let Some((r, Ty::Obj(c))) = recv.map(|r| (r, self.ty(r))).filter(|(r, _)| self.is_new_object(*r)) {
            // Proofs too: the object `new C(...)` made here is exactly a `C`.
            if let Some(m) = self.method_of(c, name, &args) {
                self.next_this = Some((r, c));
                return self.inline(&m, args, e);
            }
        }
        if let Some(r) = recv.filter(|r| self.ty(*r) == Ty::Str) {
            return self.string_method(r, name, &args, e, hint);
        }
        if let Some(cls) = obj_text.filter(|o| !self.names_value(o) && !is_own) {
            // A class of the file shadows the JDK's of its name (a nested `Math`): its static
            // methods, not the intrinsics.
            if let Some(chain) = self.classes.declared_chain(cls) {
                if let Some(callee) = self.resolve(name, &args, &chain, Some(cls)) {
                    return self.inline(&callee, args, e);
                }
            } else if let Some(v) = self.intrinsic(cls, name, &args, e) {
                return v;
            }
            let is_optional =
                self.classes.by_name.get(cls).is_some_and(|c| self.classes.descs[*c as usize].is_optional());
            if is_optional {
                if let Some(v) = self.optional_factory(name, &args, e) {
                    return v;
                }
            }
        }
        if is_own && obj_text.is_none_or(|o| o == "this") {
            match self.virtual_this_method(name, &args) {
                Some(Some(m)) => {
                    self.note_this_dispatch(&m);
                    return self.inline(&m, args, e);
                }
                Some(None) => {
                    self.unsupported(format!("jreach cannot tell which `{name}` a call on `this` runs"));
                    return self.opaque(format!("result of {name}"), hint.unwrap_or(Ty::Ref), None);
                }
                None => {}
            }
        }
        if is_own {
            if let Some(callee) = self.resolve(name, &args, &classes, obj_text) {
                if !callee.is_static {
                    self.note_this_dispatch(&callee);
                }
                return self.inline(&callee, args, e);
            }
            // An abstract method of the object a concrete method runs on: the test's anonymous
            // subclass answers it.
            if let (Some((r, c)), true) = (self.this_obj(), obj_text.is_none_or(|o| o == "this")) {
                if let Some(v) = self.lambda_call(r, c, name, &args, e) {
                    return v;
                }
            }
            if let Some(v) = self.receiver_stub_call(name, &args, obj_text) {
                return v;
            }
        }
        let callee = match obj_text {
            Some(o) => format!("{o}.{name}"),
            None => name.to_string(),
        };
        let shares_state = |lw: &Self, v: &ValueId| match lw.ty(*v) {
            Ty::Arr(_) => true,
            // Enum constants have no state a call could change.
            Ty::Obj(c) => {
                let d = &lw.classes.descs[c as usize];
                !d.is_immutable() && !d.is_optional()
            }
            _ => false,
        };
        if self.synthesis()
            && (args.iter().any(|a| shares_state(self, a)) || recv.is_some_and(|r| shares_state(self, &r)))
        {
            // The call may change the array or object, and the replay could not tell.
            self.unsupported(format!("{callee} receives an array or object that it may change"));
        }
        self.unknown_call_throws(&callee);
        // The declared return type is not visible: the context's type, which assignment
        // conversion can only widen to, or an untyped reference.
        let ty = hint.unwrap_or(Ty::Ref);
        self.nondet(NondetKind::CallResult { callee }, ty, Some(e))
    }

    /// `super.name(args)`: a method of the superclass, which jreach does not see. Proofs take it
    /// as an unknown call (it may change the receiver's fields, any array and static field, and
    /// throw); synthesis leaves the path, since a test's replay could not follow it.
    fn super_call(&mut self, name: &str, arg_nodes: &[Node<'t>], e: Node<'t>, hint: Option<Ty>) -> ValueId {
        let args: Vec<ValueId> = arg_nodes.iter().map(|a| self.expr(*a)).collect();
        if let Some(m) = self.super_method(name, &args) {
            // Bound statically: no override can replace it.
            return self.inline(&m, args, e);
        }
        let callee = format!("super.{name}");
        if self.synthesis() {
            self.unsupported(format!("{callee}(...) runs a superclass method jreach does not see"));
            return self.opaque(format!("result of {callee}"), hint.unwrap_or(Ty::Ref), None);
        }
        self.unknown_call_throws(&callee);
        self.nondet(NondetKind::CallResult { callee }, hint.unwrap_or(Ty::Ref), Some(e))
    }

    /// Whether the class declaring `m` extends another class (whose methods jreach cannot see).
    fn has_superclass(&self, m: &MethodInfo) -> bool {
        let mut up = m.node(self.file).parent();
        while let Some(p) = up {
            if matches!(
                p.kind(),
                "class_declaration" | "enum_declaration" | "record_declaration" | "interface_declaration"
            ) {
                return p.child_by_field_name("superclass").is_some();
            }
            up = p.parent();
        }
        false
    }

    /// The same-class method a call names, when jreach may inline it.
    fn resolve(&self, name: &str, args: &[ValueId], classes: &[String], obj: Option<&str>) -> Option<MethodInfo> {
        let candidates: Vec<&MethodInfo> = self
            .methods
            .iter()
            .filter(|m| !m.is_constructor && m.name == name && m.params.len() == args.len() && m.classes == classes)
            .collect();
        let exact: Vec<&&MethodInfo> = candidates
            .iter()
            .filter(|m| m.params.iter().zip(args).all(|(p, a)| self.ty_of(&p.ty) == self.ty(*a)))
            .collect();
        // Java picks the most specific overload, possibly an inherited one jreach cannot see: only
        // an exact match, or the single candidate of a class without a superclass whose parameters
        // the arguments widen to, is certain.
        let m = match (exact.len(), candidates.len()) {
            (1, _) => *exact[0],
            (0, 1)
                if !self.has_superclass(candidates[0])
                    && candidates[0].params.iter().zip(args).all(|(p, a)| widens(self.ty(*a), self.ty_of(&p.ty))) =>
            {
                candidates[0]
            }
            _ => return None,
        };
        if m.has_error {
            return None;
        }
        // A static call through the class name must name a static method; an instance method
        // may be overridden in a subclass, so only private ones are exact for proofs.
        if obj.is_some_and(|o| o != "this") && !m.is_static {
            return None;
        }
        if !self.synthesis() && !m.is_static && !m.is_private {
            return None;
        }
        Some(m.clone())
    }

    fn inline(&mut self, callee: &MethodInfo, args: Vec<ValueId>, at: Node<'t>) -> ValueId {
        let next_this = self.next_this.take();
        let depth = self.frames.len() as u32;
        let ret_ty = self.ty_of(&callee.return_ty);
        if depth > self.opts.inline_depth {
            if self.synthesis() {
                self.cutoff(CutoffKind::InlineDepth);
                return self.opaque(format!("result of {} beyond the inlining depth", callee.name), ret_ty, None);
            }
            self.unknown_call_throws(&callee.name);
            return self.nondet(NondetKind::CallResult { callee: callee.name.clone() }, ret_ty, Some(at));
        }
        let this_obj = match next_this {
            Some(o) => Some(o),
            None if !callee.is_static => self.frames.last().and_then(|f| f.this_obj),
            None => None,
        };
        let saved_scopes = std::mem::replace(&mut self.scopes, vec![HashMap::new()]);
        let saved_targets = std::mem::take(&mut self.targets);
        for (p, a) in callee.params.iter().zip(args) {
            let ty = self.ty_of(&p.ty);
            // A parameter of a type jreach does not model (`Object`, `T`) keeps the argument's
            // own type: the value is the same object.
            let ty =
                if ty == Ty::Ref && matches!(self.ty(a), Ty::Obj(_) | Ty::Str | Ty::Arr(_)) { self.ty(a) } else { ty };
            let v = self.convert(a, ty);
            let var = self.declare(&p.name, ty);
            self.assign(var, v);
        }
        let ret_block = self.b.create_block();
        let ret_var = (ret_ty != Ty::Void).then(|| self.b.new_var("$return", ret_ty));
        self.frames.push(Frame {
            ret_block,
            ret_var,
            ret_ty,
            handlers_len: self.handlers.len(),
            classes: callee.classes.clone(),
            has_this: !callee.is_static && this_obj.is_none() && self.frames.last().is_some_and(|f| f.has_this),
            this_obj,
        });
        let on_object = this_obj.is_some() || self.frames.last().is_some_and(|f| f.has_this);
        if callee.is_constructor && on_object && !starts_with_ctor_call(callee.body_node(self.file)) {
            if let Some(c) = self.declaring_class(callee) {
                self.ctor_prologue(c, None, at);
            }
        }
        let body = callee.body_node(self.file);
        self.block_stmts(body);
        if let Some(c) = self.cur {
            if ret_ty == Ty::Void {
                self.jump(ret_block);
            } else if self.b.func().block(c).preds.is_empty() {
                self.cur = None;
                self.b.terminate(c, Terminator::Cutoff(CutoffKind::LoopIteration));
            } else {
                self.unsupported("falls off the end of a non-void method");
            }
        }
        self.frames.pop();
        self.scopes = saved_scopes;
        self.targets = saved_targets;
        self.b.seal(ret_block);
        self.cur = Some(ret_block);
        match ret_var {
            Some(v) => self.read(v),
            None => self.opaque("no value (void)".into(), Ty::Void, None),
        }
    }

    /// Models of JDK methods, as IR. `None`: not modelled (an unknown call).
    fn intrinsic(&mut self, cls: &str, name: &str, args: &[ValueId], e: Node<'t>) -> Option<ValueId> {
        let tys: Vec<Ty> = args.iter().map(|a| self.ty(*a)).collect();
        let numeric = |i: usize| tys.get(i).is_some_and(|t| t.is_numeric());
        Some(match (cls, name, args.len()) {
            ("Math" | "StrictMath", "abs", 1) if numeric(0) => {
                let t = Ty::promote1(tys[0]);
                let x = self.convert(args[0], t);
                let zero = self.zero(t);
                let neg = self.emit(Op::Unary(UnOp::Neg, x), t, None);
                let c = if t.is_floating() { self.bin(BinOp::Le, x, zero) } else { self.bin(BinOp::Lt, x, zero) };
                if t.is_floating() {
                    let sub = self.bin(BinOp::Sub, zero, x);
                    self.select(c, sub, x)
                } else {
                    self.select(c, neg, x)
                }
            }
            ("Math" | "StrictMath" | "Integer" | "Long", "max" | "min", 2) if numeric(0) && numeric(1) => {
                let t = Ty::promote2(tys[0], tys[1]);
                if !t.is_integral() {
                    return None;
                }
                let a = self.convert(args[0], t);
                let b = self.convert(args[1], t);
                let c = self.bin(if name == "max" { BinOp::Ge } else { BinOp::Le }, a, b);
                self.select(c, a, b)
            }
            ("Math" | "StrictMath", "floorMod" | "floorDiv", 2) if numeric(0) && numeric(1) => {
                let t = Ty::promote2(tys[0], tys[1]);
                if !t.is_integral() {
                    return None;
                }
                let a = self.convert(args[0], t);
                let b = self.convert(args[1], t);
                self.check_nonzero(b, e);
                let zero = self.zero(t);
                let r = self.bin(BinOp::Rem, a, b);
                let r_nz = self.bin(BinOp::Ne, r, zero);
                let x = if name == "floorMod" { self.bin(BinOp::Xor, r, b) } else { self.bin(BinOp::Xor, a, b) };
                let signs_differ = self.bin(BinOp::Lt, x, zero);
                let adjust = self.bin(BinOp::And, r_nz, signs_differ);
                if name == "floorMod" {
                    let rb = self.bin(BinOp::Add, r, b);
                    self.select(adjust, rb, r)
                } else {
                    let q = self.bin(BinOp::Div, a, b);
                    let one = self.int(t, 1);
                    let q1 = self.bin(BinOp::Sub, q, one);
                    self.select(adjust, q1, q)
                }
            }
            ("Math" | "StrictMath", _, n) if MathFn::of(name, n).is_some() && (0..n).all(numeric) => {
                let op = MathFn::of(name, n).expect("matched above");
                let xs = args.iter().map(|a| self.convert(*a, Ty::Double)).collect();
                self.emit(Op::Math(op, xs), Ty::Double, Some(e))
            }
            ("Integer" | "Long", "compare", 2) if numeric(0) && numeric(1) => {
                let t = if cls == "Long" { Ty::Long } else { Ty::Int };
                let a = self.convert(args[0], t);
                let b = self.convert(args[1], t);
                self.three_way(a, b)
            }
            ("Integer" | "Long", "signum", 1) if numeric(0) => {
                let t = if cls == "Long" { Ty::Long } else { Ty::Int };
                let x = self.convert(args[0], t);
                let zero = self.zero(t);
                self.three_way(x, zero)
            }
            ("Integer" | "Long", "bitCount", 1) if numeric(0) => {
                let t = if cls == "Long" { Ty::Long } else { Ty::Int };
                let x = self.convert(args[0], t);
                let c = self.popcount(x, t);
                self.convert(c, Ty::Int)
            }
            ("String", "valueOf", 1) | ("Integer" | "Long", "toString", 1) => self.to_str_value(args[0]),
            ("Integer", "parseInt", 1) if tys[0] == Ty::Str => {
                let s = args[0];
                let is_null = self.emit(Op::Str(StrOp::IsNull, vec![s]), Ty::Bool, None);
                self.raise_if(is_null, "NumberFormatException", e);
                let ok = self.emit(Op::Str(StrOp::ParsesAsInt, vec![s]), Ty::Bool, None);
                let bad = self.emit(Op::Unary(UnOp::Not, ok), Ty::Bool, None);
                self.raise_if(bad, "NumberFormatException", e);
                self.emit(Op::Str(StrOp::ParseInt, vec![s]), Ty::Int, Some(e))
            }
            (
                "Character",
                "isDigit" | "isLetter" | "isLetterOrDigit" | "isUpperCase" | "isLowerCase" | "isWhitespace",
                1,
            ) if numeric(0) => {
                let c = self.convert(args[0], Ty::Int);
                let ascii_test = self.ascii_class(name, c);
                let lim = self.int(Ty::Int, 128);
                let lo = self.int(Ty::Int, 0);
                let ge0 = self.bin(BinOp::Ge, c, lo);
                let lt = self.bin(BinOp::Lt, c, lim);
                let is_ascii = self.bin(BinOp::And, ge0, lt);
                let other = self.opaque(format!("Character.{name} of a non-ASCII character"), Ty::Bool, Some(e));
                self.select(is_ascii, ascii_test, other)
            }
            _ => return None,
        })
    }

    /// The default value of a field or array element of type `t` (zero, false, null).
    fn zero_of(&mut self, t: Ty) -> ValueId {
        match t {
            Ty::Bool => self.konst(Const::Bool(false)),
            Ty::Str => self.emit(Op::Str(StrOp::Null, vec![]), Ty::Str, None),
            Ty::Arr(a) => self.emit(Op::Arr(ArrOp::Ref(0), vec![]), Ty::Arr(a), None),
            Ty::Obj(k) => self.emit(Op::Obj(ObjOp::Ref(0), vec![]), Ty::Obj(k), None),
            Ty::Ref => self.konst(Const::Null),
            t => self.zero(t),
        }
    }

    fn zero(&mut self, t: Ty) -> ValueId {
        match t {
            Ty::Float => self.konst(Const::f32(0.0)),
            Ty::Double => self.konst(Const::f64(0.0)),
            _ => self.int(t, 0),
        }
    }

    /// -1, 0 or 1 (an int) as `a` is below, equal to or above `b`.
    fn three_way(&mut self, a: ValueId, b: ValueId) -> ValueId {
        let lt = self.bin(BinOp::Lt, a, b);
        let eq = self.bin(BinOp::Eq, a, b);
        let m1 = self.int(Ty::Int, -1);
        let z = self.int(Ty::Int, 0);
        let p1 = self.int(Ty::Int, 1);
        let inner = self.select(eq, z, p1);
        self.select(lt, m1, inner)
    }

    /// Population count by the SWAR method.
    fn popcount(&mut self, x: ValueId, t: Ty) -> ValueId {
        let bits = t.bits().unwrap_or(32);
        let masks: [(i64, i32); 6] = [
            (0x5555555555555555, 1),
            (0x3333333333333333, 2),
            (0x0f0f0f0f0f0f0f0f, 4),
            (0x00ff00ff00ff00ff, 8),
            (0x0000ffff0000ffff, 16),
            (0x00000000ffffffff, 32),
        ];
        let mut v = x;
        for (mask, shift) in masks {
            if shift as u32 >= bits {
                break;
            }
            let m = self.int(t, normalize(t, mask));
            let s = self.int(Ty::Int, shift as i64);
            let lo = self.bin(BinOp::And, v, m);
            let sh = self.emit(Op::Binary(BinOp::Ushr, v, s), t, None);
            let hi = self.bin(BinOp::And, sh, m);
            v = self.bin(BinOp::Add, lo, hi);
        }
        v
    }

    fn ascii_class(&mut self, name: &str, c: ValueId) -> ValueId {
        let range = |lw: &mut Self, lo: char, hi: char| {
            let l = lw.int(Ty::Int, lo as i64);
            let h = lw.int(Ty::Int, hi as i64);
            let a = lw.bin(BinOp::Ge, c, l);
            let b = lw.bin(BinOp::Le, c, h);
            lw.bin(BinOp::And, a, b)
        };
        match name {
            "isDigit" => range(self, '0', '9'),
            "isUpperCase" => range(self, 'A', 'Z'),
            "isLowerCase" => range(self, 'a', 'z'),
            "isLetter" | "isLetterOrDigit" => {
                let u = range(self, 'A', 'Z');
                let l = range(self, 'a', 'z');
                let letter = self.bin(BinOp::Or, u, l);
                if name == "isLetter" {
                    letter
                } else {
                    let d = range(self, '0', '9');
                    self.bin(BinOp::Or, letter, d)
                }
            }
            _ => {
                // isWhitespace: \t \n \u000B \f \r, \u001C-\u001F and space.
                let a = range(self, '\t', '\r');
                let b = range(self, '\u{1c}', ' ');
                self.bin(BinOp::Or, a, b)
            }
        }
    }
}

impl<'t> Lowerer<'t> {
    fn is_null_const(&self, v: ValueId) -> bool {
        matches!(self.b.func().value(v).op, Op::Const(Const::Null))
    }

    /// Throws `class` when `cond` holds.
    fn raise_if(&mut self, cond: ValueId, class: &str, at: Node<'t>) {
        let throw_b = self.b.create_block();
        let cont = self.b.create_block();
        self.branch(cond, throw_b, cont, None);
        self.b.seal(throw_b);
        self.b.seal(cont);
        self.cur = Some(throw_b);
        self.raise(class, Some(at));
        self.cur = Some(cont);
    }

    /// A value of any reference type used where null throws NullPointerException: strings,
    /// objects and arrays jreach tracks are checked; an untracked reference may be null, so the
    /// exception may be thrown (a fork to the handlers in proofs).
    fn check_reference_not_null(&mut self, v: ValueId, at: Node<'t>) {
        match self.ty(v) {
            Ty::Str => self.check_not_null(v, at),
            Ty::Obj(_) => self.check_object_not_null(v, at),
            Ty::Arr(a) => {
                let null = self.emit(Op::Arr(ArrOp::Ref(0), vec![]), Ty::Arr(a), None);
                let is_null = self.bin(BinOp::Eq, v, null);
                self.raise_if(is_null, "NullPointerException", at);
            }
            Ty::Ref if self.is_null_const(v) => self.raise("NullPointerException", Some(at)),
            Ty::Ref => self.may_throw_here("a reference that may be null"),
            _ => {}
        }
    }

    /// `assert cond : detail;`. Tests run with assertions enabled (Maven Surefire's and Gradle's
    /// default, and `-ea` in IDEs), so synthesis evaluates the condition; proofs take either, since
    /// the condition may have side effects and a false one throws AssertionError (JLS 14.10).
    fn assert_stmt(&mut self, s: Node<'t>) {
        let kids = named_children(s);
        let Some(cond) = kids.first().copied() else { return };
        let checked = self.b.create_block();
        let done = self.b.create_block();
        if self.synthesis() {
            self.b.add_proof_blocker("assertions are taken as enabled (-ea), as test runners run them".into());
            self.jump(checked);
        } else {
            let enabled =
                self.nondet(NondetKind::Opaque { what: "whether assertions are enabled".into() }, Ty::Bool, None);
            self.branch(enabled, checked, done, None);
        }
        self.b.seal(checked);
        self.cur = Some(checked);
        let failed = self.b.create_block();
        self.cond(cond, done, failed);
        self.b.seal(failed);
        self.cur = Some(failed);
        if let Some(detail) = kids.get(1) {
            let d = self.expr(*detail);
            self.to_str_value(d);
        }
        self.raise("AssertionError", Some(s));
        self.b.seal(done);
        self.cur = Some(done);
    }

    /// A method call on a null string throws NullPointerException.
    fn check_not_null(&mut self, s: ValueId, at: Node<'t>) {
        let vd = self.b.func().value(s);
        let never_null = match &vd.op {
            Op::Const(Const::Str(_)) => true,
            Op::Str(op, _) => *op != StrOp::Null,
            _ => false,
        };
        if vd.ty != Ty::Str || never_null {
            return;
        }
        let is_null = self.emit(Op::Str(StrOp::IsNull, vec![s]), Ty::Bool, None);
        self.raise_if(is_null, "NullPointerException", at);
    }

    /// `0 <= i < len` (or `<= len` when `inclusive`), else StringIndexOutOfBoundsException.
    fn check_index(&mut self, i: ValueId, len: ValueId, inclusive: bool, at: Node<'t>) {
        let zero = self.int(Ty::Int, 0);
        let neg = self.bin(BinOp::Lt, i, zero);
        let past = self.bin(if inclusive { BinOp::Gt } else { BinOp::Ge }, i, len);
        let bad = self.bin(BinOp::Or, neg, past);
        self.raise_if(bad, "StringIndexOutOfBoundsException", at);
    }

    /// `String.valueOf(v)` for any operand type.
    fn to_str_value(&mut self, v: ValueId) -> ValueId {
        let ty = self.ty(v);
        let op = match ty {
            Ty::Str => StrOp::ToStr,
            Ty::Char => StrOp::FromChar,
            Ty::Bool => StrOp::FromBool,
            t if t.is_integral() => StrOp::FromInt,
            _ if self.is_null_const(v) => return self.konst(Const::Str("null".into())),
            Ty::Obj(c) if self.classes.descs[c as usize].is_text_builder() => return self.text_builder_text(v, c),
            _ => {
                if ty == Ty::Ref {
                    self.may_throw_here("toString of an object");
                }
                return self.opaque(format!("the text of a {ty}"), Ty::Str, None);
            }
        };
        if let Op::Const(Const::Str(_)) = self.b.func().value(v).op {
            return v;
        }
        self.emit(Op::Str(op, vec![v]), Ty::Str, None)
    }

    /// `+`, `==` and `!=` with a string operand.
    fn string_binop(&mut self, bin: BinOp, a: ValueId, b: ValueId, e: Node<'t>) -> ValueId {
        match bin {
            BinOp::Add => {
                let sa = self.to_str_value(a);
                let sb = self.to_str_value(b);
                self.emit(Op::Str(StrOp::Concat, vec![sa, sb]), Ty::Str, Some(e))
            }
            BinOp::Eq | BinOp::Ne if self.is_null_const(a) || self.is_null_const(b) => {
                let s = if self.is_null_const(a) { b } else { a };
                let is_null = if self.ty(s) == Ty::Str {
                    self.emit(Op::Str(StrOp::IsNull, vec![s]), Ty::Bool, Some(e))
                } else {
                    self.konst(Const::Bool(self.is_null_const(s)))
                };
                if bin == BinOp::Eq {
                    is_null
                } else {
                    self.emit(Op::Unary(UnOp::Not, is_null), Ty::Bool, Some(e))
                }
            }
            // Reference comparison of strings: identity is not modelled.
            _ if bin.is_comparison() => self.opaque(format!("`{}`", self.text(e)), Ty::Bool, Some(e)),
            _ => self.opaque(format!("`{}`", self.text(e)), Ty::Int, Some(e)),
        }
    }

    /// A method of `String` on receiver `s`.
    fn string_method(
        &mut self,
        s: ValueId,
        name: &str,
        args: &[ValueId],
        e: Node<'t>,
        hint: Option<Ty>,
    ) -> ValueId {
        self.check_not_null(s, e);
        let tys: Vec<Ty> = args.iter().map(|a| self.ty(*a)).collect();
        let str_arg = |lw: &mut Self, i: usize| -> Option<ValueId> {
            let a = *args.get(i)?;
            match lw.ty(a) {
                Ty::Str => {
                    lw.check_not_null(a, e);
                    Some(a)
                }
                // A `CharSequence` argument that is a string builder: its contents.
                Ty::Obj(c) if lw.classes.descs[c as usize].is_text_builder() => {
                    lw.check_object_not_null(a, e);
                    Some(lw.text_builder_contents(a, c))
                }
                Ty::Char => Some(lw.emit(Op::Str(StrOp::FromChar, vec![a]), Ty::Str, None)),
                _ if lw.is_null_const(a) => {
                    lw.raise("NullPointerException", Some(e));
                    Some(lw.emit(Op::Str(StrOp::Null, vec![]), Ty::Str, None))
                }
                _ => None,
            }
        };
        let op = |lw: &mut Self, op: StrOp, xs: Vec<ValueId>| lw.emit(Op::Str(op, xs), op.result_ty(), Some(e));
        let result = match (name, args.len()) {
            ("length", 0) => match &self.b.func().value(s).op {
                // A constant's length is a number (the solver ties string lengths to ints otherwise).
                Op::Const(Const::Str(units)) => {
                    let n = units.encode_utf16().count() as i64;
                    Some(self.int(Ty::Int, n))
                }
                _ => Some(op(self, StrOp::Length, vec![s])),
            },
            ("isEmpty", 0) => {
                let len = op(self, StrOp::Length, vec![s]);
                let zero = self.int(Ty::Int, 0);
                Some(self.bin(BinOp::Eq, len, zero))
            }
            ("charAt", 1) if tys[0].is_integral() => {
                let i = self.convert(args[0], Ty::Int);
                let len = op(self, StrOp::Length, vec![s]);
                self.check_index(i, len, false, e);
                Some(op(self, StrOp::CharAt, vec![s, i]))
            }
            ("equals", 1) if matches!(tys[0], Ty::Obj(c) if self.classes.descs[c as usize].is_text_builder()) => {
                // A string never equals a builder.
                Some(self.konst(Const::Bool(false)))
            }
            ("contentEquals", 1) if matches!(tys[0], Ty::Obj(c) if self.classes.descs[c as usize].is_text_builder()) => {
                let t = str_arg(self, 0).expect("a builder argument");
                Some(op(self, StrOp::Equals, vec![s, t]))
            }
            ("equals", 1) | ("contentEquals", 1) => {
                if tys[0] == Ty::Str || self.is_null_const(args[0]) {
                    let o = self.convert(args[0], Ty::Str);
                    Some(op(self, StrOp::Equals, vec![s, o]))
                } else {
                    None
                }
            }
            ("equalsIgnoreCase", 1) if tys[0] == Ty::Str || self.is_null_const(args[0]) => {
                let o = self.convert(args[0], Ty::Str);
                Some(op(self, StrOp::EqualsIgnoreCase, vec![s, o]))
            }
            ("startsWith" | "endsWith" | "contains" | "indexOf" | "lastIndexOf" | "concat" | "compareTo", 1) => {
                match str_arg(self, 0) {
                    Some(t) => {
                        let o = match name {
                            "startsWith" => StrOp::StartsWith,
                            "endsWith" => StrOp::EndsWith,
                            "contains" => StrOp::Contains,
                            "indexOf" => StrOp::IndexOf,
                            "lastIndexOf" => StrOp::LastIndexOf,
                            "concat" => StrOp::Concat,
                            _ => StrOp::CompareTo,
                        };
                        Some(op(self, o, vec![s, t]))
                    }
                    None if matches!(name, "indexOf" | "lastIndexOf") && tys[0].is_integral() => {
                        // indexOf(int ch) for a char code of the BMP.
                        let c = self.convert(args[0], Ty::Char);
                        let t = op(self, StrOp::FromChar, vec![c]);
                        let o = if name == "indexOf" { StrOp::IndexOf } else { StrOp::LastIndexOf };
                        Some(op(self, o, vec![s, t]))
                    }
                    None => None,
                }
            }
            ("substring", 1 | 2) if tys.iter().all(|t| t.is_integral()) => {
                let len = op(self, StrOp::Length, vec![s]);
                let b = self.convert(args[0], Ty::Int);
                let end = if args.len() == 2 { self.convert(args[1], Ty::Int) } else { len };
                let zero = self.int(Ty::Int, 0);
                let neg = self.bin(BinOp::Lt, b, zero);
                let past = self.bin(BinOp::Gt, end, len);
                let crossed = self.bin(BinOp::Gt, b, end);
                let bad1 = self.bin(BinOp::Or, neg, past);
                let bad = self.bin(BinOp::Or, bad1, crossed);
                self.raise_if(bad, "StringIndexOutOfBoundsException", e);
                Some(op(self, StrOp::Substring, vec![s, b, end]))
            }
            ("trim", 0) => Some(op(self, StrOp::Trim, vec![s])),
            ("toLowerCase", 0) => Some(op(self, StrOp::ToLowerCase, vec![s])),
            ("toUpperCase", 0) => Some(op(self, StrOp::ToUpperCase, vec![s])),
            ("toString" | "intern", 0) => Some(s),
            _ => None,
        };
        if let Some(v) = result {
            return v;
        }
        // Not modelled: an unknown result.
        let callee = format!("String.{name}");
        self.unknown_call_throws(&callee);
        let ty = string_method_return_type(name).or(hint).unwrap_or(Ty::Ref);
        self.nondet(NondetKind::CallResult { callee }, ty, Some(e))
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

/// The classes enclosing `n`, outermost first.
fn enclosing_classes(n: Node<'_>, src: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut up = n.parent();
    while let Some(p) = up {
        if matches!(p.kind(), "class_declaration" | "enum_declaration" | "record_declaration" | "interface_declaration")
        {
            if let Some(name) = p.child_by_field_name("name") {
                out.push(text_of(name, src).to_string());
            }
        }
        up = p.parent();
    }
    out.reverse();
    out
}

/// The expression inside any number of parentheses.
fn unparen(mut n: Node<'_>) -> Node<'_> {
    while n.kind() == "parenthesized_expression" {
        match named_children(n).into_iter().next() {
            Some(inner) => n = inner,
            None => break,
        }
    }
    n
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

impl<'t> Lowerer<'t> {
    /// The receiver's fields as variables. Synthesis: the object a test creates with `new C()`
    /// (defaults, then initializers, then the no-argument constructor), or, for a receiver made
    /// by reflection, the inputs in `reflected` by field name (other fields null). Over-approximation:
    /// any values.
    fn init_this_fields(
        &mut self,
        method: &MethodInfo,
        ctor: Option<(&MethodInfo, Vec<ValueId>)>,
        reflected: Option<Vec<(String, ValueId)>>,
    ) {
        let node = method.node(self.file);
        let Some(body) = node.parent().filter(|p| matches!(p.kind(), "class_body" | "enum_body_declarations")) else {
            return;
        };
        let mut decls = Vec::new();
        let mut has_initializer_block = false;
        // Inherited fields first, from the top of the linked chain.
        let class = self.receiver_class;
        let chain = class.map(|c| self.class_chain(c)).unwrap_or_default();
        let mut bodies: Vec<Node<'t>> = chain
            .iter()
            .skip(1)
            .rev()
            .filter_map(|k| self.classes.bodies[*k as usize].clone().and_then(|b| self.node_at(&b)))
            .collect();
        bodies.push(body);
        for member in bodies.into_iter().flat_map(named_children) {
            match member.kind() {
                "block" => has_initializer_block = true,
                "field_declaration" => {
                    let mods =
                        named_children(member).into_iter().find(|c| c.kind() == "modifiers").map(|m| self.text(m));
                    if mods.is_some_and(|m| m.split_whitespace().any(|w| w == "static")) {
                        continue;
                    }
                    let ty_text = member.child_by_field_name("type").map(|t| self.text(t)).unwrap_or("");
                    let mut c = member.walk();
                    for d in member.children_by_field_name("declarator", &mut c) {
                        let Some(name) = d.child_by_field_name("name") else { continue };
                        let ty =
                            if d.child_by_field_name("dimensions").is_some() { Ty::Ref } else { self.ty_of(ty_text) };
                        decls.push((self.text(name).to_string(), ty, d.child_by_field_name("value")));
                    }
                }
                _ => {}
            }
        }
        let exact = self.synthesis() && (!has_initializer_block || reflected.is_some());
        if reflected.is_some() {
            // Fields of types jreach cannot see stay null.
            self.b.add_proof_blocker(
                "the receiver is made by reflection, only its fields of types jreach sees set".into(),
            );
        } else if exact {
            // Other calls could leave the receiver in states its constructor does not.
            self.b.add_proof_blocker(RECEIVER_AS_CONSTRUCTED.into());
        }
        for (name, ty, _) in &decls {
            let var = self.b.new_var(&format!("this.{name}"), *ty);
            let input = reflected
                .as_ref()
                .and_then(|r| r.iter().find(|(n, v)| n == name && self.ty(*v) == *ty))
                .map(|(_, v)| *v);
            let v = if let Some(input) = input {
                input
            } else if exact {
                match ty {
                    Ty::Bool => self.konst(Const::Bool(false)),
                    Ty::Float => self.konst(Const::f32(0.0)),
                    Ty::Double => self.konst(Const::f64(0.0)),
                    Ty::Str => self.emit(Op::Str(StrOp::Null, vec![]), Ty::Str, None),
                    Ty::Ref => self.konst(Const::Null),
                    Ty::Arr(a) => self.emit(Op::Arr(ArrOp::Ref(0), vec![]), Ty::Arr(*a), None),
                    Ty::Obj(k) => self.emit(Op::Obj(ObjOp::Ref(0), vec![]), Ty::Obj(*k), None),
                    t => self.int(*t, 0),
                }
            } else {
                self.nondet(NondetKind::Havoc { what: format!("this.{name}") }, *ty, None)
            };
            self.assign(var, v);
            self.this_fields.insert(name.clone(), Local { var, ty: *ty, scalar_builder: false });
        }
        if method.is_constructor {
            // The constructor under test starts with its superclass's and its own initializers,
            // unless it names a constructor to run first (which then does that).
            if let (Some(c), false) = (class, starts_with_ctor_call(method.body_node(self.file))) {
                self.ctor_prologue(c, None, node);
            }
            return;
        }
        if !exact || reflected.is_some() {
            return;
        }
        let Some(c) = class else {
            // A class jreach does not model: its initializers, as a constructor would run them.
            for (name, ty, init) in decls {
                if let Some(init) = init {
                    let v = self.expr_as(init, Some(ty));
                    let v = self.convert(v, ty);
                    let var = self.this_fields[&name].var;
                    self.assign(var, v);
                }
            }
            return;
        };
        let ctor = match ctor {
            Some((ctor, args)) => Some((ctor.clone(), args)),
            None => self
                .methods
                .iter()
                .find(|c| c.is_constructor && c.params.is_empty() && c.classes == method.classes)
                .map(|c| (c.clone(), vec![])),
        };
        match ctor {
            Some((ctor, args)) => {
                self.inline(&ctor, args, node);
            }
            None => self.run_implicit_ctor(None, c, node),
        }
    }
}

impl<'t> Lowerer<'t> {
    fn ty_of(&self, name: &str) -> Ty {
        self.classes.ty_of(name)
    }

    /// The statement being lowered, else the whole file.
    fn cur_node(&self) -> Node<'t> {
        self.current_stmt.unwrap_or_else(|| self.file.tree.root_node())
    }

    /// Whether an input of type `ty` can hold strings (directly, in arrays or in object fields).
    fn reaches_strings(&self, ty: Ty) -> bool {
        let mut seen = Vec::new();
        let mut work = vec![ty];
        while let Some(t) = work.pop() {
            match t {
                Ty::Str => return true,
                Ty::Arr(a) => work.push(Ty::Arr(a).elem_or_self()),
                Ty::Obj(c) if !seen.contains(&c) => {
                    seen.push(c);
                    work.extend(self.classes.descs[c as usize].fields.iter().map(|f| f.ty));
                }
                _ => {}
            }
        }
        false
    }

    /// The memory of field `i` of class `c`, created on first use in the entry block.
    fn field_mem(&mut self, c: u16, i: u16) -> ValueId {
        let var = match self.field_mems.get(&(c, i)) {
            Some(v) => *v,
            None => {
                let var = self.b.new_var(&format!("$field:{c}.{i}"), Ty::Fields(c, i));
                let entry = self.b.entry();
                let v = self.b.push(entry, Op::Obj(ObjOp::Init, vec![]), Ty::Fields(c, i), None);
                self.b.def_var(var, entry, v);
                self.field_mems.insert((c, i), var);
                var
            }
        };
        self.read(var)
    }

    /// The field named `name` of class `c`: its index and type.
    fn field_of(&self, c: u16, name: &str) -> Option<(u16, Ty)> {
        self.classes.descs[c as usize]
            .fields
            .iter()
            .position(|f| f.name == name)
            .map(|i| (i as u16, self.classes.descs[c as usize].fields[i].ty))
    }

    /// Field access on an object another reference may share with `this`: the receiver's fields
    /// are tracked as variables, so a proof would miss the aliasing.
    fn note_receiver_alias(&mut self, c: u16) {
        if !self.synthesis() && self.receiver_class == Some(c) && self.frames.last().is_some_and(|f| f.has_this) {
            self.b.add_proof_blocker("another object of the receiver's class may be `this`".into());
        }
    }

    fn check_object_not_null(&mut self, o: ValueId, at: Node<'t>) {
        if let Op::Obj(ObjOp::Ref(id), _) = self.b.func().value(o).op {
            if id != 0 {
                return;
            }
        }
        let ty = self.ty(o);
        let null = self.emit(Op::Obj(ObjOp::Ref(0), vec![]), ty, None);
        let is_null = self.bin(BinOp::Eq, o, null);
        self.raise_if(is_null, "NullPointerException", at);
    }

    /// `o.f` for an object of a modelled class.
    fn object_get(&mut self, o: ValueId, c: u16, field: &str, at: Node<'t>) -> Option<ValueId> {
        let (i, ty) = self.field_of(c, field)?;
        self.note_receiver_alias(c);
        self.check_object_not_null(o, at);
        if let Some(v) = self.constant_field_of(c, field, at) {
            return Some(v);
        }
        let mem = self.field_mem(c, i);
        if let Some(v) = self.stored_value(mem, o) {
            return Some(v);
        }
        Some(self.emit(Op::Obj(ObjOp::Get, vec![mem, o]), ty, Some(at)))
    }

    /// The value the field memory `mem` holds for object `o` when the memory's own definition
    /// says so: the last store to `o`, past stores to other objects the method made (a store
    /// forwarded to its load, so that a field just initialized is known to the solver as such).
    fn stored_value(&self, mut mem: ValueId, o: ValueId) -> Option<ValueId> {
        let f = self.b.func();
        let alloc = |v: ValueId| match f.value(v).op {
            Op::Obj(ObjOp::Ref(id), _) if id < 0 => Some(id),
            _ => None,
        };
        loop {
            let Op::Obj(ObjOp::Put, args) = &f.value(mem).op else { return None };
            if args[1] == o {
                return Some(args[2]);
            }
            match (alloc(args[1]), alloc(o)) {
                (Some(a), Some(b)) if a != b => mem = args[0],
                _ => return None,
            }
        }
    }

    /// `o.f = v`.
    fn object_put(&mut self, o: ValueId, c: u16, i: u16, v: ValueId) {
        let mem = self.field_mem(c, i);
        let m = self.emit(Op::Obj(ObjOp::Put, vec![mem, o, v]), Ty::Fields(c, i), None);
        let var = self.field_mems[&(c, i)];
        self.assign(var, m);
    }

    /// `obj.f = v`, `obj.f op= v`, for an object of a modelled class.
    fn object_assign(&mut self, l: Node<'t>, op: &str, r: Node<'t>, e: Node<'t>) -> Option<ValueId> {
        let o_node = l.child_by_field_name("object")?;
        let field = text_of(l.child_by_field_name("field")?, self.src);
        let o = self.expr(o_node);
        let Ty::Obj(c) = self.ty(o) else { return None };
        let Some((i, ty)) = self.field_of(c, field) else { return None };
        self.note_receiver_alias(c);
        self.check_object_not_null(o, l);
        Some(self.field_store((o, c, i, ty), op, r, e))
    }

    /// `new C()` of a class whose objects need nothing but their default field values.
    fn new_object(&mut self, c: u16, at: Node<'t>) -> ValueId {
        let id = self.next_alloc;
        self.next_alloc -= 1;
        let r = self.emit(Op::Obj(ObjOp::Ref(id), vec![]), Ty::Obj(c), Some(at));
        let fields: Vec<Ty> = self.classes.descs[c as usize].fields.iter().map(|f| f.ty).collect();
        for (i, ty) in fields.into_iter().enumerate() {
            let zero = self.zero_of(ty);
            self.object_put(r, c, i as u16, zero);
        }
        r
    }

    /// `this` of the current frame when it is an object in the field memories.
    fn this_obj(&self) -> Option<(ValueId, u16)> {
        self.frames.last().and_then(|f| f.this_obj)
    }

    /// Field `name` of `this` when `this` is an object in the field memories: the object, its
    /// class, the field's index and type.
    fn this_obj_field(&self, name: &str) -> Option<FieldSlot> {
        let (r, c) = self.this_obj()?;
        let (i, ty) = self.field_of(c, name)?;
        Some((r, c, i, ty))
    }

    /// `o.f op= r` for field `i` of class `c` of an object `o` known not to be null.
    fn field_store(&mut self, (o, c, i, ty): FieldSlot, op: &str, r: Node<'t>, e: Node<'t>) -> ValueId {
        let v = if op == "=" {
            let v = self.expr_as(r, Some(ty));
            self.convert(v, ty)
        } else {
            let mem = self.field_mem(c, i);
            let old = self.emit(Op::Obj(ObjOp::Get, vec![mem, o]), ty, None);
            let rv = self.expr(r);
            let v = self.binop_values(op.trim_end_matches('='), old, rv, e);
            self.convert(v, ty)
        };
        if self.cur.is_some() {
            self.object_put(o, c, i, v);
        }
        v
    }

    /// `old + 1` (or `- 1`) of a `++`/`--` on a variable of type `ty`: computed in the promoted
    /// type, converted back.
    fn stepped(&mut self, old: ValueId, ty: Ty, inc: bool) -> ValueId {
        let p = Ty::promote1(ty);
        let wide = self.convert(old, p);
        let one = match p {
            Ty::Float => self.konst(Const::f32(1.0)),
            Ty::Double => self.konst(Const::f64(1.0)),
            _ => self.int(p, 1),
        };
        let new = self.bin(if inc { BinOp::Add } else { BinOp::Sub }, wide, one);
        self.convert(new, ty)
    }

    /// `o.f++` (and the other increments) for an object known not to be null.
    fn field_update(&mut self, (o, c, i, ty): FieldSlot, inc: bool, prefix: bool, e: Node<'t>) -> ValueId {
        let mem = self.field_mem(c, i);
        let old = self.emit(Op::Obj(ObjOp::Get, vec![mem, o]), ty, Some(e));
        let new = self.stepped(old, ty, inc);
        self.object_put(o, c, i, new);
        if prefix {
            new
        } else {
            old
        }
    }

    /// The overload among `candidates` that a call with `args` certainly selects: the only exact
    /// match, or the only candidate whose parameters the arguments widen to.
    fn pick_overload(&self, candidates: Vec<&MethodInfo>, args: &[ValueId]) -> Option<MethodInfo> {
        if candidates.iter().any(|m| m.params.last().is_some_and(|p| p.ty.contains("..."))) {
            // Variable arity: the argument count does not narrow the choice.
            return None;
        }
        let candidates: Vec<&MethodInfo> =
            candidates.into_iter().filter(|m| m.params.len() == args.len() && !m.has_error).collect();
        // The only candidate of this arity is Java's choice when the code compiles, even if some
        // argument's type is unknown here (`this(name, Lib.normalize(name))`).
        if let [only] = candidates.as_slice() {
            let fits = only.params.iter().zip(args).all(|(p, a)| {
                let (from, to) = (self.ty(*a), self.ty_of(&p.ty));
                from == Ty::Ref || widens(from, to)
            });
            if fits {
                return Some((*only).clone());
            }
        }
        let exact: Vec<&&MethodInfo> = candidates
            .iter()
            .filter(|m| m.params.iter().zip(args).all(|(p, a)| self.ty_of(&p.ty) == self.ty(*a)))
            .collect();
        match (exact.len(), candidates.len()) {
            (1, _) => Some((*exact[0]).clone()),
            (0, 1) if candidates[0].params.iter().zip(args).all(|(p, a)| widens(self.ty(*a), self.ty_of(&p.ty))) => {
                Some(candidates[0].clone())
            }
            _ => None,
        }
    }

    /// The constructor of class `c` that `new C(args)` runs, when jreach can inline it.
    fn ctor_for(&self, c: u16, args: &[ValueId]) -> Option<MethodInfo> {
        if !self.classes.constructible.get(c as usize).copied().unwrap_or(false) {
            return None;
        }
        let name = &self.classes.descs[c as usize].name;
        let ctors: Vec<&MethodInfo> =
            self.methods.iter().filter(|m| m.is_constructor && m.classes.join(".") == *name).collect();
        self.pick_overload(ctors, args)
    }

    /// The instance method `name` of class `c` that `o.name(args)` runs on an object of exactly
    /// class `c` (synthesis creates objects of that class only).
    fn method_of(&self, c: u16, name: &str, args: &[ValueId]) -> Option<MethodInfo> {
        let d = &self.classes.descs[c as usize];
        if d.is_immutable() || !(d.buildable || d.reflective || self.classes.constructible[c as usize]) {
            return None;
        }
        self.pick_overload(self.instance_methods(c, name)?, args)
    }

    /// `new C(args)` through constructor `ctor`: a fresh object with default fields on which the
    /// constructor (with the field initializers) runs.
    fn construct(&mut self, c: u16, ctor: &MethodInfo, args: Vec<ValueId>, at: Node<'t>) -> ValueId {
        let r = self.new_object(c, at);
        self.next_this = Some((r, c));
        self.inline(ctor, args, at);
        r
    }

    /// `o.m(args)` on a functional interface whose objects are the lambdas among the parameters:
    /// what the lambda `o` is returns. `None`: not such a call.
    fn lambda_call(&mut self, o: ValueId, c: u16, name: &str, args: &[ValueId], e: Node<'t>) -> Option<ValueId> {
        let d = &self.classes.descs[c as usize];
        let d_first_param = d.lambda.as_ref().and_then(|l| l.first_param);
        let (k, ret) = match &d.lambda {
            Some(l) if l.method == name && l.arity == args.len() => (0, l.ret),
            Some(_) => return None,
            None => {
                let k = d.stub.iter().position(|m| m.name == name && m.params.len() == args.len())?;
                (k, d.stub[k].ret)
            }
        };
        let mine: Vec<(ValueId, Option<ValueId>)> =
            self.lambdas.iter().filter(|(x, _, _)| *x == c).map(|(_, r, v)| (*r, v[k])).collect();
        // Only the test's objects are modelled: another object of the interface ends the path.
        let objs: Vec<ValueId> = mine.iter().map(|(r, _)| *r).collect();
        if !self.guard_one_of(o, &objs, "a call on an object that is not one of the test's lambdas", e) {
            let ty = if ret == Ty::Void { Ty::Int } else { ret };
            return Some(self.opaque(format!("result of {name}"), ty, None));
        }
        if ret == Ty::Void {
            return Some(self.opaque("no value (void)".into(), Ty::Void, None));
        }
        let first = d_first_param.zip(args.first().copied()).map(|(t, a)| self.convert(a, t));
        let special = self.lambda_special.clone();
        Some(self.select_by_object(o, &mine, |x| x.0, &|lw, x| {
            let mut answer = x.1.expect("one method, one return type");
            let Some(a) = first else { return answer };
            // The first special argument that matches wins: built from the last.
            for (_, key, other) in special.iter().filter(|(obj, _, _)| *obj == x.0).rev() {
                let hit = lw.bin(BinOp::Eq, a, *key);
                answer = lw.select(hit, *other, answer);
            }
            answer
        }))
    }

    /// `m(args)` on the receiver when it is the test's anonymous subclass and `m` one of the
    /// methods it implements: what the subclass returns.
    fn receiver_stub_call(&mut self, name: &str, args: &[ValueId], obj: Option<&str>) -> Option<ValueId> {
        if self.receiver_stub.is_empty() || obj.is_some_and(|o| o != "this") {
            return None;
        }
        let frame = self.frames.last()?;
        if !frame.has_this || frame.this_obj.is_some() {
            return None;
        }
        let c = self.receiver_class?;
        let stub = &self.classes.descs[c as usize].stub;
        let k = stub.iter().position(|m| m.name == name && m.params.len() == args.len())?;
        match self.receiver_stub[k] {
            Some(v) => Some(v),
            None => Some(self.opaque("no value (void)".into(), Ty::Void, None)),
        }
    }

    /// Ends the path unless `lo <= v <= hi`.
    fn assume_between(&mut self, v: ValueId, lo: i64, hi: i64) {
        let lo = self.int(Ty::Int, lo);
        let hi = self.int(Ty::Int, hi);
        let below = self.bin(BinOp::Lt, v, lo);
        let above = self.bin(BinOp::Gt, v, hi);
        let out = self.bin(BinOp::Or, below, above);
        self.cut_if(out, "an input out of its range");
    }

    /// Ends the path when `cond` holds, recording `why` as a proof blocker: synthesis leaves out
    /// what follows (a behaviour jreach does not model on that path).
    fn cut_if_narrowed(&mut self, cond: ValueId, why: &str) {
        self.b.add_proof_blocker(why.to_string());
        self.cut_if(cond, why);
    }

    /// Ends the path when `cond` holds: a shape of input that synthesis leaves out on purpose.
    /// No proof blocker is recorded here; the narrowing that makes the shape possible records
    /// its own.
    fn cut_if(&mut self, cond: ValueId, why: &str) {
        let cut = self.b.create_block();
        let go = self.b.create_block();
        self.branch(cond, cut, go, None);
        self.b.seal(cut);
        self.b.seal(go);
        self.b.terminate(cut, Terminator::Cutoff(CutoffKind::Unsupported(why.to_string())));
        self.cur = Some(go);
    }

    /// `v instanceof C` in synthesis, where objects are exactly their declared class: non-null
    /// and of that class. `None` when the answer is not certain (interfaces, unmodelled types).
    fn exact_instanceof(&mut self, v: ValueId, class: Ty) -> Option<ValueId> {
        let same = match (self.ty(v), class) {
            (Ty::Str, Ty::Str) => true,
            (Ty::Obj(c), Ty::Obj(k)) => {
                let d = &self.classes.descs[k as usize];
                let is_class = d.buildable
                    || d.reflective
                    || self.classes.constructible[k as usize]
                    || d.is_enum()
                    || d.boxes.is_some();
                if !is_class {
                    return None;
                }
                // An object is an instance of its class and of every class above it.
                let same = self.class_chain(c).contains(&k);
                if !same && !self.is_new_object(v) && self.classes.subclassable[c as usize] {
                    self.b.add_proof_blocker(format!(
                        "a test passes a {} of exactly that class, never of a subclass",
                        self.classes.descs[c as usize].name
                    ));
                }
                same
            }
            _ => return None,
        };
        let is_null = match self.ty(v) {
            Ty::Str => self.emit(Op::Str(StrOp::IsNull, vec![v]), Ty::Bool, None),
            ty => {
                let null = self.emit(Op::Obj(ObjOp::Ref(0), vec![]), ty, None);
                self.bin(BinOp::Eq, v, null)
            }
        };
        let not_null = self.emit(Op::Unary(UnOp::Not, is_null), Ty::Bool, None);
        let same = self.konst(Const::Bool(same));
        Some(self.bin(BinOp::And, not_null, same))
    }

    /// Creates the memory variable of every array type the file mentions, so that every abstraction
    /// (loops, calls) covers all of them.
    fn declare_memories(&mut self) {
        let mut types = Vec::new();
        let mut stack = vec![self.file.tree.root_node()];
        while let Some(n) = stack.pop() {
            match n.kind() {
                "array_type" => types.extend(self.classes.arr_of(self.text(n), 0)),
                "variable_declarator" | "formal_parameter" => {
                    if let Some(d) = n.child_by_field_name("dimensions") {
                        let dims = self.text(d).matches('[').count();
                        let base = n
                            .parent()
                            .and_then(|p| p.child_by_field_name("type"))
                            .or_else(|| n.child_by_field_name("type"));
                        if let Some(b) = base {
                            types.extend(self.classes.arr_of(self.text(b), dims));
                        }
                    }
                }
                "array_creation_expression" => {
                    if let Some(ty) = n.child_by_field_name("type") {
                        let dims = self.text(n).matches('[').count();
                        types.extend(self.classes.arr_of(self.text(ty), dims));
                    }
                }
                _ => {}
            }
            stack.extend(named_children(n));
        }
        // Element arrays of arrays of arrays.
        let mut all = Vec::new();
        for t in types {
            for d in 1..=t.dims {
                all.push(ArrTy { leaf: t.leaf, dims: d });
            }
        }
        all.sort_by_key(|t| t.java_name());
        all.dedup();
        for c in 0..self.classes.descs.len() {
            for i in 0..self.classes.descs[c].fields.len() {
                self.field_mem(c as u16, i as u16);
            }
        }
        let entry = self.b.entry();
        for t in all {
            let var = self.b.new_var(&format!("$mem:{}", t.java_name()), Ty::Mem(t));
            let v = self.b.push(entry, Op::Arr(ArrOp::Init, vec![]), Ty::Mem(t), None);
            self.b.def_var(var, entry, v);
            self.mems.insert(t, var);
        }
    }

    /// The current memory of arrays of type `t`.
    fn mem(&mut self, t: ArrTy) -> ValueId {
        let var = match self.mems.get(&t) {
            Some(v) => *v,
            None => {
                // A type the scan missed (e.g. from a cast): start from the entry memory.
                let var = self.b.new_var(&format!("$mem:{}", t.java_name()), Ty::Mem(t));
                let entry = self.b.entry();
                let v = self.b.push(entry, Op::Arr(ArrOp::Init, vec![]), Ty::Mem(t), None);
                self.b.def_var(var, entry, v);
                self.mems.insert(t, var);
                var
            }
        };
        self.read(var)
    }

    fn set_mem(&mut self, t: ArrTy, m: ValueId) {
        let var = self.mems[&t];
        self.assign(var, m);
    }

    fn check_array_not_null(&mut self, a: ValueId, at: Node<'t>) {
        if let Op::Arr(ArrOp::Ref(id), _) = self.b.func().value(a).op {
            if id != 0 {
                return;
            }
        }
        let ty = self.ty(a);
        let null = self.emit(Op::Arr(ArrOp::Ref(0), vec![]), ty, None);
        let is_null = self.bin(BinOp::Eq, a, null);
        self.raise_if(is_null, "NullPointerException", at);
    }

    /// `a[i]` is valid: `a` not null, `0 <= i < a.length`.
    fn check_element(&mut self, a: ValueId, t: ArrTy, i: ValueId, at: Node<'t>) {
        self.check_array_not_null(a, at);
        let mem = self.mem(t);
        let len = self.emit(Op::Arr(ArrOp::Len, vec![mem, a]), Ty::Int, None);
        let zero = self.int(Ty::Int, 0);
        let neg = self.bin(BinOp::Lt, i, zero);
        let past = self.bin(BinOp::Ge, i, len);
        let bad = self.bin(BinOp::Or, neg, past);
        self.raise_if(bad, "ArrayIndexOutOfBoundsException", at);
    }

    /// The array and index of an `array_access`, checked.
    fn element(&mut self, e: Node<'t>) -> Option<(ValueId, ArrTy, ValueId)> {
        let (a, t, i) = self.element_operands(e)?;
        self.check_element(a, t, i, e);
        Some((a, t, i))
    }

    /// The array and the index of `a[i]`, evaluated in that order, not yet checked.
    fn element_operands(&mut self, e: Node<'t>) -> Option<(ValueId, ArrTy, ValueId)> {
        let (an, iname) = (e.child_by_field_name("array")?, e.child_by_field_name("index")?);
        let a = self.expr(an);
        let i = self.expr(iname);
        let Ty::Arr(t) = self.ty(a) else {
            self.unsupported(format!("indexing `{}`, whose type jreach does not know", self.text(an)));
            return None;
        };
        let i = {
            let p = Ty::promote1(self.ty(i));
            let i = self.convert(i, p);
            self.convert(i, Ty::Int)
        };
        Some((a, t, i))
    }

    fn array_load(&mut self, e: Node<'t>) -> ValueId {
        match self.element(e) {
            Some((a, t, i)) => {
                let mem = self.mem(t);
                self.emit(Op::Arr(ArrOp::Load, vec![mem, a, i]), t.elem(), Some(e))
            }
            None => self.opaque("an array element".into(), Ty::Ref, None),
        }
    }

    fn store(&mut self, t: ArrTy, a: ValueId, i: ValueId, v: ValueId) {
        if matches!(t.elem(), Ty::Ref | Ty::Obj(_) | Ty::Arr(_)) && !self.is_null_const(v) {
            // An array of references may be of a subclass's array type (JLS 10.5).
            self.may_throw_here("storing into an array of references (ArrayStoreException)");
        }
        // An array of untracked references holds untracked references: a string or object put
        // there is any value when read back.
        let v = if t.elem() == Ty::Ref && self.ty(v) != Ty::Ref {
            self.opaque("a reference jreach does not track".into(), Ty::Ref, None)
        } else {
            v
        };
        let mem = self.mem(t);
        let m = self.emit(Op::Arr(ArrOp::Store, vec![mem, a, i, v]), Ty::Mem(t), None);
        self.set_mem(t, m);
    }

    /// `a[i] = v` and `a[i] op= v`.
    fn array_assign(&mut self, l: Node<'t>, op: &str, r: Node<'t>, e: Node<'t>) -> ValueId {
        let Some((a, t, i)) = self.element_operands(l) else {
            return self.opaque("an array element".into(), Ty::Ref, None);
        };
        let elem = t.elem();
        let v = if op == "=" {
            // The right side runs before the null and bounds checks (JLS 15.26.1).
            let v = self.expr_as(r, Some(elem));
            let v = self.convert(v, elem);
            if self.cur.is_some() {
                self.check_element(a, t, i, l);
            }
            v
        } else {
            // A compound assignment reads the element first (JLS 15.26.2).
            self.check_element(a, t, i, l);
            let mem = self.mem(t);
            let old = self.emit(Op::Arr(ArrOp::Load, vec![mem, a, i]), elem, None);
            let rv = self.expr(r);
            let v = self.binop_values(op.trim_end_matches('='), old, rv, e);
            self.convert(v, elem)
        };
        if self.cur.is_some() {
            self.store(t, a, i, v);
        }
        v
    }

    /// `a[i]++` and friends.
    fn array_update(&mut self, target: Node<'t>, inc: bool, prefix: bool, e: Node<'t>) -> ValueId {
        let Some((a, t, i)) = self.element(target) else {
            return self.opaque("an array element".into(), Ty::Int, None);
        };
        let elem = t.elem();
        let mem = self.mem(t);
        let old = self.emit(Op::Arr(ArrOp::Load, vec![mem, a, i]), elem, Some(e));
        let new = self.stepped(old, elem, inc);
        self.store(t, a, i, new);
        if prefix {
            new
        } else {
            old
        }
    }

    /// A new array of `len` elements of type `t`.
    fn new_array(&mut self, t: ArrTy, len: ValueId, at: Node<'t>) -> ValueId {
        let zero = self.int(Ty::Int, 0);
        let neg = self.bin(BinOp::Lt, len, zero);
        self.raise_if(neg, "NegativeArraySizeException", at);
        let known = match self.b.func().value(len).op {
            Op::Const(Const::Int(_, n)) => Some(n),
            _ => None,
        };
        // HotSpot refuses arrays of `Integer.MAX_VALUE - 1` elements or more, whatever the heap.
        if known.is_none_or(|n| n >= VM_ARRAY_LIMIT as i64) {
            let limit = self.int(Ty::Int, VM_ARRAY_LIMIT as i64);
            let refused = self.bin(BinOp::Ge, len, limit);
            self.raise_if(refused, "OutOfMemoryError", at);
        }
        if self.synthesis() && known.is_none_or(|n| n > LARGEST_TEST_ARRAY as i64) {
            // Whether a large array fits depends on the heap: no test relies on it, and the
            // interpreter does not build it.
            let large = self.int(Ty::Int, LARGEST_TEST_ARRAY as i64);
            let too_large = self.bin(BinOp::Gt, len, large);
            let cut = self.b.create_block();
            let fits = self.b.create_block();
            self.branch(too_large, cut, fits, None);
            self.b.seal(cut);
            self.b.seal(fits);
            self.cur = Some(cut);
            self.unsupported(format!(
                "an array of more than {LARGEST_TEST_ARRAY} elements may not fit in the heap of a test run"
            ));
            self.cur = Some(fits);
        }
        let id = self.next_alloc;
        self.next_alloc -= 1;
        let r = self.emit(Op::Arr(ArrOp::Ref(id), vec![]), Ty::Arr(t), Some(at));
        let mem = self.mem(t);
        let m = self.emit(Op::Arr(ArrOp::New, vec![mem, r, len]), Ty::Mem(t), None);
        self.set_mem(t, m);
        r
    }

    /// `new int[n]`, `new int[] {…}`.
    fn array_creation(&mut self, e: Node<'t>) -> ValueId {
        let ty_text = e.child_by_field_name("type").map(|t| self.text(t)).unwrap_or("");
        let mut c = e.walk();
        let dims: Vec<Node<'t>> = e.children_by_field_name("dimensions", &mut c).collect();
        let total = dims.iter().map(|d| self.text(*d).matches('[').count()).sum::<usize>();
        let Some(t) = self.classes.arr_of(ty_text, total) else {
            self.unsupported(format!("arrays of {ty_text} are not modelled yet"));
            return self.opaque("an array".into(), Ty::Ref, None);
        };
        if let Some(init) = e.child_by_field_name("value") {
            return self.array_literal(init, t);
        }
        let sized: Vec<Node<'t>> = dims.iter().copied().filter(|d| d.kind() == "dimensions_expr").collect();
        if sized.len() != 1 {
            self.unsupported("multi-dimensional array creation is not modelled yet");
            return self.opaque("an array".into(), Ty::Arr(t), None);
        }
        let Some(n) = named_children(sized[0]).into_iter().next() else {
            return self.opaque("an array".into(), Ty::Arr(t), None);
        };
        let len = self.expr(n);
        let p = Ty::promote1(self.ty(len));
        let len = self.convert(len, p);
        let len = self.convert(len, Ty::Int);
        self.new_array(t, len, e)
    }

    /// `{a, b, c}` as an array of type `t`.
    fn array_literal(&mut self, e: Node<'t>, t: ArrTy) -> ValueId {
        let items = named_children(e);
        let elem = t.elem();
        let values: Vec<ValueId> = items
            .iter()
            .map(|i| {
                let v = self.expr_as(*i, Some(elem));
                self.convert(v, elem)
            })
            .collect();
        let len = self.int(Ty::Int, values.len() as i64);
        let r = self.new_array(t, len, e);
        for (k, v) in values.into_iter().enumerate() {
            let i = self.int(Ty::Int, k as i64);
            self.store(t, r, i, v);
        }
        r
    }

    /// `for (T x : array)`: unrolled (synthesis) or abstracted (over-approximation) over indices.
    fn array_for(&mut self, s: Node<'t>, arr: ValueId, t: ArrTy, label: Option<String>) {
        self.check_array_not_null(arr, s);
        let mem = self.mem(t);
        let len = self.emit(Op::Arr(ArrOp::Len, vec![mem, arr]), Ty::Int, None);
        let load = move |lw: &mut Self, i: ValueId| {
            let mem = lw.mem(t);
            lw.emit(Op::Arr(ArrOp::Load, vec![mem, arr, i]), t.elem(), None)
        };
        self.indexed_for(s, len, t.elem(), &load, None, label);
    }

    /// An enhanced for over `len` elements, element `i` given by `load`; `after_body` runs after
    /// each iteration's body.
    fn indexed_for(
        &mut self,
        s: Node<'t>,
        len: ValueId,
        elem_ty: Ty,
        load: &dyn Fn(&mut Self, ValueId) -> ValueId,
        after_body: Option<&dyn Fn(&mut Self)>,
        label: Option<String>,
    ) {
        self.scopes.push(HashMap::new());
        let idx = self.b.new_var("$index", Ty::Int);
        let zero = self.int(Ty::Int, 0);
        self.assign(idx, zero);
        let exit = self.b.create_block();
        let declared = s.child_by_field_name("type").map(|x| self.ty_of(self.text(x))).unwrap_or(elem_ty);
        // `var`, or a type name jreach does not know: the element's own type.
        let declared = if declared == Ty::Ref { elem_ty } else { declared };
        let name = s.child_by_field_name("name").map(|n| self.text(n).to_string()).unwrap_or_default();
        let body = s.child_by_field_name("body");
        let origin_text =
            format!("{name} in {}", s.child_by_field_name("value").map(|v| self.text(v)).unwrap_or("the array"));
        // One iteration: test the index, bind the element, run the body, step.
        let iteration = |lw: &mut Self, cut: bool| {
            let i = lw.read(idx);
            let more = lw.bin(BinOp::Lt, i, len);
            let body_b = lw.b.create_block();
            let origin = CondOrigin { span: s.byte_range(), text: origin_text.clone() };
            lw.branch(more, body_b, exit, Some(origin));
            lw.b.seal(body_b);
            lw.cur = Some(body_b);
            if cut {
                return;
            }
            let x = load(lw, i);
            let x = lw.convert(x, declared);
            let var = lw.declare(&name, declared);
            lw.assign(var, x);
            let cont = lw.b.create_block();
            lw.push_loop_target(label.clone(), exit, cont);
            if let Some(body) = body {
                lw.stmt(body);
            }
            lw.targets.pop();
            lw.jump(cont);
            lw.b.seal(cont);
            lw.cur = Some(cont);
            if let Some(after) = after_body {
                after(lw);
            }
            let i = lw.read(idx);
            let one = lw.int(Ty::Int, 1);
            let next = lw.bin(BinOp::Add, i, one);
            lw.assign(idx, next);
        };
        match self.opts.mode {
            LowerMode::Synthesis { unroll } => {
                let mut k = 0;
                while self.cur.is_some() {
                    if k >= unroll || self.too_big() {
                        iteration(self, true);
                        self.cutoff(if k >= unroll { CutoffKind::UnrollBound } else { CutoffKind::SizeLimit });
                        break;
                    }
                    iteration(self, false);
                    k += 1;
                }
            }
            LowerMode::OverApprox => {
                let head = self.b.create_block();
                self.jump(head);
                self.b.seal(head);
                self.cur = Some(head);
                let any = self.nondet(NondetKind::Havoc { what: "the loop index".into() }, Ty::Int, None);
                // The index of any iteration: 0 <= index (the loop test bounds it above).
                let zero = self.int(Ty::Int, 0);
                let neg = self.bin(BinOp::Lt, any, zero);
                let i0 = self.select(neg, zero, any);
                self.assign(idx, i0);
                self.havoc_assigned(s);
                iteration(self, false);
                self.cutoff(CutoffKind::LoopIteration);
            }
        }
        self.b.seal(exit);
        self.cur = Some(exit);
        self.scopes.pop();
    }
}

/// The file's classes whose objects jreach models, by name.
#[derive(Clone, Debug, Default)]
struct Classes {
    descs: Vec<ClassDesc>,
    /// By simple name and by dotted chain.
    by_name: HashMap<String, u16>,
    /// Per class: whether a test can create its objects through its own constructors, which
    /// jreach inlines (a concrete top-level or static class without instance initializer blocks
    /// whose superclass chain jreach sees, see `supers`).
    constructible: Vec<bool>,
    /// Per class: the byte range of its body.
    bodies: Vec<Option<std::ops::Range<usize>>>,
    /// Per class: whether it comes from another package, so that a test may use only its
    /// public members.
    foreign: Vec<bool>,
    /// Per class: whether `new C()` runs the implicit constructor (a constructible class that
    /// declares none: the superclass's constructor, then the field initializers).
    implicit_ctor: Vec<bool>,
    /// Per class: its superclass when jreach sees the whole chain above it (classes of the
    /// file, the last extending nothing, no instance initializer blocks, no field declared
    /// twice along it). The class's `fields` then start with the superclass's.
    supers: Vec<Option<u16>>,
    /// Per class: whether some class may extend it (it is not final, and a class of the file
    /// extends it or it has a constructor a subclass could call).
    subclassable: Vec<bool>,
    /// Per class: whether a test could make one by reflection if nothing else works: a concrete
    /// class (not abstract, enum or interface) it can name (top-level or static, not private;
    /// public if from another package) without a `final` field of primitive or String type
    /// that has an initializer (javac may inline such a field's value where it is read, so
    /// setting it would not change what the code sees).
    reflectable: Vec<bool>,
}

impl Classes {
    /// The enclosing chain (`["Outer", "Inner"]`) of the class the file declares under `name`
    /// (simple or dotted), if any; `None` for the JDK's classes jreach models and unknown names.
    fn declared_chain(&self, name: &str) -> Option<Vec<String>> {
        let c = *self.by_name.get(name)?;
        self.bodies[c as usize].as_ref()?;
        Some(self.descs[c as usize].name.split('.').map(str::to_string).collect())
    }

    /// The classes of `file`; those from `foreign_from` on come from other packages, and those
    /// from `own_end` on were appended to the file for synthesis (its own shadow their names).
    fn of(file: &SourceFile, foreign_from: Option<usize>, own_end: Option<usize>) -> Classes {
        let src = file.text.as_str();
        let mut decls = Vec::new();
        let mut stack = vec![file.tree.root_node()];
        while let Some(n) = stack.pop() {
            if matches!(n.kind(), "class_declaration" | "enum_declaration" | "interface_declaration") {
                decls.push(n);
            }
            stack.extend(named_children(n));
        }
        decls.sort_by_key(|n| n.start_byte());
        let mut out = Classes::default();
        let mut chains = Vec::new();
        // Names the file itself declares: code in it means its own types by them, whatever the
        // appended files declare (a member type shadows the package's).
        let mut own_names = std::collections::HashSet::new();
        for d in &decls {
            let mut chain = enclosing_classes(*d, src);
            chain.push(d.child_by_field_name("name").map(|n| text_of(n, src).to_string()).unwrap_or_default());
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
        for (k, d) in decls.iter().enumerate() {
            if d.kind() == "interface_declaration" {
                out.descs[k].lambda = single_abstract_method(*d, src, &out);
                if out.descs[k].lambda.is_none() && !has_modifier(*d, src, "private") {
                    out.descs[k].stub = stub_methods(*d, src, &out);
                }
                continue;
            }
            if d.kind() == "enum_declaration" || out.descs[k].boxes.is_some() {
                continue;
            }
            let Some(body) = d.child_by_field_name("body") else { continue };
            let mut fields = Vec::new();
            let mut buildable = chains[k].len() == 1 || has_modifier(*d, src, "static");
            buildable &= !has_modifier(*d, src, "private");
            // An abstract class: a test creates an anonymous subclass implementing its abstract
            // methods, when it can write them all.
            let is_abstract = has_modifier(*d, src, "abstract");
            if is_abstract {
                out.descs[k].stub = stub_methods(*d, src, &out);
                buildable &= !out.descs[k].stub.is_empty() && d.child_by_field_name("interfaces").is_none();
            }
            if out.foreign[k] {
                buildable &= has_modifier(*d, src, "public");
            }
            let mut reflectable = buildable && !is_abstract && d.kind() == "class_declaration";
            let mut constructible = buildable;
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
                    "block" => {
                        buildable = false;
                        constructible = false;
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
    fn ty_of(&self, name: &str) -> Ty {
        if let Some(a) = self.arr_of(name, 0) {
            return Ty::Arr(a);
        }
        let ty = Ty::of_java(name);
        if ty != Ty::Ref {
            return ty;
        }
        let name = name.trim();
        let name = name.split('<').next().unwrap_or(name).trim();
        match self.by_name.get(name) {
            Some(id) => Ty::Obj(*id),
            None => Ty::Ref,
        }
    }
}

impl Classes {
    /// Whether a test in the package of the file under test may call `m`, a method or
    /// constructor of class `c`: any non-private one of the file's package, only public ones of
    /// classes from other packages.
    fn test_may_call(&self, c: u16, m: &MethodInfo) -> bool {
        if self.foreign.get(c as usize).copied().unwrap_or(false) {
            m.is_public
        } else {
            !m.is_private
        }
    }

    /// The array type of a Java type as written, with `extra` more dimensions from a declarator:
    /// arrays of the file's classes are arrays of objects.
    fn arr_of(&self, name: &str, extra: usize) -> Option<ArrTy> {
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
/// value: an anonymous class implements them. Empty otherwise.
fn stub_methods(d: Node<'_>, src: &str, classes: &Classes) -> Vec<StubMethod> {
    if d.child_by_field_name("type_parameters").is_some() || d.child_by_field_name("extends_interfaces").is_some() {
        return vec![];
    }
    let interface = d.kind() == "interface_declaration";
    let Some(body) = d.child_by_field_name("body") else { return vec![] };
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
            return vec![];
        }
        if m.child_by_field_name("type_parameters").is_some() || m.child_by_field_name("dimensions").is_some() {
            return vec![];
        }
        let (Some(name), Some(ret_node)) = (m.child_by_field_name("name"), m.child_by_field_name("type")) else {
            return vec![];
        };
        let ret_text = text_of(ret_node, src);
        let ret = if ret_text == "void" { Ty::Void } else { classes.ty_of(ret_text) };
        // Returned values are literals: primitives, strings, enum constants, boxes.
        let literal = match ret {
            Ty::Void | Ty::Str => true,
            Ty::Obj(c) => classes.descs[c as usize].is_enum() || classes.descs[c as usize].boxes.is_some(),
            t => t.is_numeric() || t == Ty::Bool,
        };
        let Some(ret_java) = writable(ret_text).filter(|_| literal) else { return vec![] };
        let mut params = Vec::new();
        for p in m.child_by_field_name("parameters").map(named_children).unwrap_or_default() {
            if p.kind() != "formal_parameter" || p.child_by_field_name("dimensions").is_some() {
                return vec![];
            }
            let (Some(ty), Some(pname)) = (p.child_by_field_name("type"), p.child_by_field_name("name")) else {
                return vec![];
            };
            let Some(ty) = writable(text_of(ty, src)) else { return vec![] };
            params.push((ty, text_of(pname, src).to_string()));
        }
        out.push(StubMethod { name: text_of(name, src).to_string(), params, ret, ret_java });
    }
    // An interface with one method gets a lambda instead.
    if interface && out.len() < 2 {
        return vec![];
    }
    out
}

/// `K, V` (type arguments as written) split at the comma outside nested `<...>`, trimmed.
fn split_type_args(args: &str) -> Option<(&str, &str)> {
    let mut depth = 0;
    let (comma, _) = args.char_indices().find(|(_, ch)| {
        match ch {
            '<' => depth += 1,
            '>' => depth -= 1,
            _ => {}
        }
        *ch == ',' && depth == 0
    })?;
    Some((args[..comma].trim(), args[comma + 1..].trim()))
}

fn has_modifier(n: Node<'_>, src: &str, word: &str) -> bool {
    named_children(n)
        .into_iter()
        .any(|c| c.kind() == "modifiers" && text_of(c, src).split_whitespace().any(|w| w == word))
}

/// The least array length HotSpot refuses with `OutOfMemoryError: Requested array size exceeds VM
/// limit`, whatever the heap (`Integer.MAX_VALUE - 1`).
const VM_ARRAY_LIMIT: i32 = i32::MAX - 1;

/// The largest array a test may create (synthesis cuts paths that allocate more).
const LARGEST_TEST_ARRAY: i32 = 1 << 24;

/// Whether `e` is a constant expression (JLS 15.29) as far as the syntax tells: literals,
/// operators, parentheses, casts and names (which must denote constant variables themselves;
/// names that do not are read as the fields they are).
fn is_constant_expression(e: Node<'_>, src: &str, constant_name: &dyn Fn(&str) -> bool) -> bool {
    match e.kind() {
        "decimal_integer_literal" | "hex_integer_literal" | "octal_integer_literal" | "binary_integer_literal"
        | "decimal_floating_point_literal" | "hex_floating_point_literal" | "true" | "false" | "character_literal"
        | "string_literal" => true,
        "identifier" => constant_name(text_of(e, src)),
        "parenthesized_expression" | "unary_expression" | "binary_expression" | "ternary_expression" => {
            named_children(e).into_iter().all(|k| is_constant_expression(k, src, constant_name))
        }
        "cast_expression" => e.child_by_field_name("value").is_some_and(|v| is_constant_expression(v, src, constant_name)),
        "field_access" => e.child_by_field_name("object").is_some_and(|o| o.kind() == "identifier"),
        _ => false,
    }
}

/// The value of an `int` constant operand (for the typing of conditionals).
fn vb_const(lw: &Lowerer<'_>, v: ValueId) -> Option<i64> {
    match lw.b.func().value(v).op {
        Op::Const(Const::Int(Ty::Int, x)) => Some(x),
        _ => None,
    }
}

/// Whether `catch (class ...)` catches some error the virtual machine may throw anywhere.
fn catches_vm_error(class: &str) -> bool {
    ["OutOfMemoryError", "StackOverflowError", "InternalError"]
        .iter()
        .any(|e| crate::exceptions::is_subclass(e, class) == Some(true))
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

/// Return types of `String` methods jreach does not model.
fn string_method_return_type(name: &str) -> Option<Ty> {
    Some(match name {
        "length"
        | "size"
        | "indexOf"
        | "lastIndexOf"
        | "compareTo"
        | "compareToIgnoreCase"
        | "hashCode"
        | "intValue"
        | "ordinal"
        | "parseInt" => Ty::Int,
        "equals" | "isEmpty" | "contains" | "startsWith" | "endsWith" | "hasNext" | "equalsIgnoreCase"
        | "booleanValue" | "containsKey" | "isBlank" | "matches" => Ty::Bool,
        "charAt" => Ty::Char,
        "toString" | "substring" | "trim" | "strip" | "toLowerCase" | "toUpperCase" | "replace" | "name" | "concat"
        | "repeat" | "format" | "join" => Ty::Str,
        "longValue" | "parseLong" | "currentTimeMillis" | "nanoTime" => Ty::Long,
        "doubleValue" | "parseDouble" => Ty::Double,
        _ => return None,
    })
}

/// `Integer.MAX_VALUE` and friends.
fn jdk_constant(obj: &str, field: &str) -> Option<Const> {
    Some(match (obj, field) {
        ("Integer", "MAX_VALUE") => Const::int(Ty::Int, i32::MAX as i64),
        ("Integer", "MIN_VALUE") => Const::int(Ty::Int, i32::MIN as i64),
        ("Integer", "SIZE") => Const::int(Ty::Int, 32),
        ("Long", "MAX_VALUE") => Const::int(Ty::Long, i64::MAX),
        ("Long", "MIN_VALUE") => Const::int(Ty::Long, i64::MIN),
        ("Long", "SIZE") => Const::int(Ty::Int, 64),
        ("Short", "MAX_VALUE") => Const::int(Ty::Short, i16::MAX as i64),
        ("Short", "MIN_VALUE") => Const::int(Ty::Short, i16::MIN as i64),
        ("Byte", "MAX_VALUE") => Const::int(Ty::Byte, i8::MAX as i64),
        ("Byte", "MIN_VALUE") => Const::int(Ty::Byte, i8::MIN as i64),
        ("Character", "MAX_VALUE") => Const::int(Ty::Char, 0xffff),
        ("Character", "MIN_VALUE") => Const::int(Ty::Char, 0),
        ("Double", "NaN") => Const::f64(f64::NAN),
        ("Double", "POSITIVE_INFINITY") => Const::f64(f64::INFINITY),
        ("Double", "NEGATIVE_INFINITY") => Const::f64(f64::NEG_INFINITY),
        ("Double", "MAX_VALUE") => Const::f64(f64::MAX),
        ("Double", "MIN_VALUE") => Const::f64(f64::from_bits(1)),
        ("Float", "NaN") => Const::f32(f32::NAN),
        ("Float", "POSITIVE_INFINITY") => Const::f32(f32::INFINITY),
        ("Float", "NEGATIVE_INFINITY") => Const::f32(f32::NEG_INFINITY),
        ("Float", "MAX_VALUE") => Const::f32(f32::MAX),
        ("Float", "MIN_VALUE") => Const::f32(f32::from_bits(1)),
        _ => return None,
    })
}
