//! Java semantics as z3 terms, and the encoding of a function's slice with sharing.

use jreach_analysis::{edge_cond, EdgeCond, Slice};
use jreach_ir::{ArrOp, BinOp, BlockId, Const, Function, ObjOp, Op, Terminator, Ty, UnOp, ValueId};

/// One below the lowest id of an array or object `f` creates (-1 when it creates none).
fn alloc_floor(f: &Function) -> i64 {
    let lowest = f
        .values
        .iter()
        .filter_map(|v| match v.op {
            Op::Arr(ArrOp::Ref(id), _) | Op::Obj(ObjOp::Ref(id), _) => Some(id as i64),
            _ => None,
        })
        .min()
        .unwrap_or(0);
    lowest.min(0) - 1
}
use z3::ast::{Ast, Bool, Dynamic, Float, BV};

use crate::ffi::bv_to_fp_signed;
use crate::sorts::sort_of;

/// One function's encoding: a term per needed value and a guard per needed block.
pub struct Encoder<'f> {
    f: &'f Function,
    slice: Slice,
    vals: Vec<Option<Dynamic>>,
    guards: Vec<Option<Bool>>,
    /// Definitions of fresh terms and the domains of inputs; they hold whatever path is taken.
    side: Vec<Bool>,
    /// The lengths part of every array-memory value (its contents are in `vals`).
    lens: Vec<Option<z3::ast::Array>>,
    /// Every reference the function creates itself has an id above this (inputs have ids ≥ 0).
    alloc_floor: i64,
    /// The `length()` and `charAt(i)` of each string (and index) term encoded so far: one
    /// bit-vector per string, however often the code asks (a method inlined into itself asks
    /// again of the same parameter, and each fresh value tied to the string by an integer
    /// conversion slows the solver down). Strings do not change, so the answer is the same.
    string_reads: std::collections::HashMap<(bool, Vec<Dynamic>), Dynamic>,
}

fn rne() -> z3::ast::RoundingMode {
    z3::ast::RoundingMode::round_nearest_ties_to_even()
}

/// A fresh unknown of a type.
fn fresh(prefix: &str, ty: Ty) -> Dynamic {
    Dynamic::fresh_const(prefix, &sort_of(ty))
}

/// The name of parameter `i` in models.
pub fn param_name(i: u32) -> String {
    format!("param!{i}")
}

fn bv(d: &Dynamic) -> BV {
    d.as_bv().expect("a bit-vector term")
}

fn fl(d: &Dynamic) -> Float {
    d.as_float().expect("a floating-point term")
}

fn bo(d: &Dynamic) -> Bool {
    d.as_bool().expect("a boolean term")
}

/// Java's `(int)`/`(long)` of a float or double: round toward zero, saturate, NaN to zero.
fn fp_to_bv_saturating(x: &Float, bits: u32) -> BV {
    let (min, max) = if bits == 32 { (i32::MIN as i64, i32::MAX as i64) } else { (i64::MIN, i64::MAX) };
    let sort = x.get_sort();
    let min_f = Float::from_f64(min as f64).to_fp_with_rounding_mode(&rne(), &sort);
    let max_f = Float::from_f64(max as f64).to_fp_with_rounding_mode(&rne(), &sort);
    let conv = x.to_sbv_with_rounding_mode(&z3::ast::RoundingMode::round_towards_zero(), bits);
    x.is_nan().ite(
        &BV::from_i64(0, bits),
        &x.ge(&max_f).ite(&BV::from_i64(max, bits), &x.le(&min_f).ite(&BV::from_i64(min, bits), &conv)),
    )
}

/// Resizes an integral term from type `from` to `to` (sign- or zero-extension, or truncation).
fn resize(x: &BV, from: Ty, to: Ty) -> BV {
    let (fb, tb) = (from.bits().expect("integral"), to.bits().expect("integral"));
    if tb < fb {
        x.extract(tb - 1, 0)
    } else if tb > fb {
        if from.is_signed() {
            x.sign_ext(tb - fb)
        } else {
            x.zero_ext(tb - fb)
        }
    } else {
        x.clone()
    }
}

/// Java's primitive conversion of term `x` of type `from` to type `to`.
pub fn cast(x: &Dynamic, from: Ty, to: Ty) -> Dynamic {
    if from == to {
        return x.clone();
    }
    match (from.is_integral(), to.is_integral()) {
        (true, true) => Dynamic::from_ast(&resize(&bv(x), from, to)),
        (true, false) if to.is_floating() => {
            let wide = if from.bits() == Some(64) { bv(x) } else { resize(&bv(x), from, Ty::Int) };
            Dynamic::from_ast(&bv_to_fp_signed(&wide, &sort_of(to)))
        }
        (false, true) if from.is_floating() => {
            let bits = if to == Ty::Long { 64 } else { 32 };
            let wide = fp_to_bv_saturating(&fl(x), bits);
            let wide_ty = if bits == 64 { Ty::Long } else { Ty::Int };
            Dynamic::from_ast(&resize(&wide, wide_ty, to))
        }
        (false, false) if from.is_floating() && to.is_floating() => {
            Dynamic::from_ast(&fl(x).to_fp_with_rounding_mode(&rne(), &sort_of(to)))
        }
        _ => fresh("cast", to),
    }
}

/// `a op b` with Java semantics; `ty` is the operand type.
pub fn binary(op: BinOp, a: &Dynamic, b: &Dynamic, ty: Ty) -> Dynamic {
    if ty == Ty::Bool {
        let (x, y) = (bo(a), bo(b));
        let r = match op {
            BinOp::And => Bool::and(&[x, y]),
            BinOp::Or => Bool::or(&[x, y]),
            BinOp::Xor | BinOp::Ne => x.xor(&y),
            BinOp::Eq => x.iff(&y),
            _ => return fresh("bool_op", Ty::Bool),
        };
        return Dynamic::from_ast(&r);
    }
    if ty.is_floating() {
        let (x, y) = (fl(a), fl(b));
        let d = |f: Float| Dynamic::from_ast(&f);
        let bl = |f: Bool| Dynamic::from_ast(&f);
        return match op {
            BinOp::Add => d(x.add_with_rounding_mode(&y, &rne())),
            BinOp::Sub => d(x.sub_with_rounding_mode(&y, &rne())),
            BinOp::Mul => d(x.mul_with_rounding_mode(&y, &rne())),
            BinOp::Div => d(x.div_with_rounding_mode(&y, &rne())),
            BinOp::Eq => bl(x.eq_fpa(&y)),
            BinOp::Ne => bl(x.eq_fpa(&y).not()),
            BinOp::Lt => bl(x.lt(&y)),
            BinOp::Le => bl(x.le(&y)),
            BinOp::Gt => bl(x.gt(&y)),
            BinOp::Ge => bl(x.ge(&y)),
            // Java's floating `%` is fmod, which z3 lacks: an unknown (sound, and synthesis
            // replays the real value).
            _ => fresh("fmod", ty),
        };
    }
    let (x, y) = (bv(a), bv(b));
    let bits = ty.bits().unwrap_or(32);
    let d = |v: BV| Dynamic::from_ast(&v);
    let bl = |v: Bool| Dynamic::from_ast(&v);
    let signed = ty.is_signed();
    match op {
        BinOp::Add => d(x.bvadd(&y)),
        BinOp::Sub => d(x.bvsub(&y)),
        BinOp::Mul => d(x.bvmul(&y)),
        BinOp::Div => d(x.bvsdiv(&y)),
        BinOp::Rem => d(x.bvsrem(&y)),
        BinOp::And => d(x.bvand(&y)),
        BinOp::Or => d(x.bvor(&y)),
        BinOp::Xor => d(x.bvxor(&y)),
        BinOp::Shl | BinOp::Shr | BinOp::Ushr => {
            // The distance is an int, masked to the width of the shifted type.
            let dist = resize(&y, Ty::Int, if bits == 64 { Ty::Long } else { Ty::Int });
            let dist = dist.bvand(&BV::from_u64(if bits == 64 { 63 } else { 31 }, dist.get_size()));
            let dist = if dist.get_size() != bits { dist.extract(bits - 1, 0) } else { dist };
            match op {
                BinOp::Shl => d(x.bvshl(&dist)),
                BinOp::Shr => d(x.bvashr(&dist)),
                _ => d(x.bvlshr(&dist)),
            }
        }
        BinOp::Eq => bl(x.eq(&y)),
        BinOp::Ne => bl(x.eq(&y).not()),
        BinOp::Lt => bl(if signed { x.bvslt(&y) } else { x.bvult(&y) }),
        BinOp::Le => bl(if signed { x.bvsle(&y) } else { x.bvule(&y) }),
        BinOp::Gt => bl(if signed { x.bvsgt(&y) } else { x.bvugt(&y) }),
        BinOp::Ge => bl(if signed { x.bvsge(&y) } else { x.bvuge(&y) }),
    }
}

/// `op a` with Java semantics.
pub fn unary(op: UnOp, a: &Dynamic, ty: Ty) -> Dynamic {
    match (op, ty) {
        (UnOp::Not, _) => Dynamic::from_ast(&bo(a).not()),
        (UnOp::Neg, t) if t.is_floating() => Dynamic::from_ast(&fl(a).unary_neg()),
        (UnOp::Neg, _) => Dynamic::from_ast(&bv(a).bvneg()),
        (UnOp::BitNot, _) => Dynamic::from_ast(&bv(a).bvnot()),
    }
}

/// A constant as a term.
pub fn constant(c: &Const) -> Dynamic {
    match c {
        Const::Bool(b) => Dynamic::from_ast(&Bool::from_bool(*b)),
        Const::Int(t, v) => Dynamic::from_ast(&BV::from_i64(*v, t.bits().expect("integral"))),
        Const::Float(bits) => Dynamic::from_ast(&Float::from_f32(f32::from_bits(*bits))),
        Const::Double(bits) => Dynamic::from_ast(&Float::from_f64(f64::from_bits(*bits))),
        Const::Str(s) => Dynamic::from_ast(&crate::strings::literal(s)),
        Const::Null => fresh("ref", Ty::Ref),
    }
}

impl<'f> Encoder<'f> {
    /// Encodes what matters for reaching `targets`.
    pub fn new(f: &'f Function, targets: &[BlockId]) -> Encoder<'f> {
        let slice = Slice::for_targets(f, targets);
        let mut enc = Encoder {
            f,
            slice,
            vals: vec![None; f.values.len()],
            guards: vec![None; f.blocks.len()],
            side: vec![],
            lens: vec![None; f.values.len()],
            alloc_floor: alloc_floor(f),
            string_reads: Default::default(),
        };
        enc.encode_all();
        enc
    }

    pub fn function(&self) -> &Function {
        self.f
    }

    /// Blocks and values are in topological order, so one forward pass encodes everything. A
    /// needed value is encoded even in a block outside the slice: code after a cut-off path
    /// continues in a block without predecessors, which still reads values defined before the cut.
    fn encode_all(&mut self) {
        let f = self.f;
        for b in f.block_ids() {
            if !self.slice.has_block(b) {
                for v in &f.block(b).insts {
                    if self.slice.has_value(*v) {
                        let t = self.encode_value(*v, b);
                        self.vals[v.index()] = Some(t);
                    }
                }
                continue;
            }
            let g = if b == f.entry {
                Bool::from_bool(true)
            } else {
                let preds = &f.block(b).preds;
                let incoming: Vec<Bool> = preds.iter().map(|p| self.edge_guard(*p, b)).collect();
                match incoming.len() {
                    0 => Bool::from_bool(false),
                    1 => incoming[0].clone(),
                    _ => Bool::or(&incoming),
                }
            };
            self.guards[b.index()] = Some(g);
            for v in &f.block(b).insts {
                if self.slice.has_value(*v) {
                    let t = self.encode_value(*v, b);
                    self.vals[v.index()] = Some(t);
                }
            }
        }
    }

    fn val(&self, v: ValueId) -> Dynamic {
        self.vals[v.index()].clone().unwrap_or_else(|| panic!("{v} used before it was encoded"))
    }

    /// The guard of the edge `p → b`: `p` runs and its branch goes to `b`.
    pub fn edge_guard(&self, p: BlockId, b: BlockId) -> Bool {
        let gp = self.guards[p.index()].clone().unwrap_or_else(|| Bool::from_bool(false));
        match edge_cond(self.f, p, b) {
            EdgeCond::Always => gp,
            EdgeCond::If(c, flag) => {
                let c = bo(&self.val(c));
                let c = if flag { c } else { c.not() };
                Bool::and(&[gp, c])
            }
        }
    }

    fn mem(&self, v: ValueId) -> (z3::ast::Array, z3::ast::Array) {
        let contents = self.val(v).as_array().expect("an array memory");
        let lens = self.lens[v.index()].clone().unwrap_or_else(|| panic!("{v} has no lengths"));
        (contents, lens)
    }

    fn set_mem(&mut self, v: ValueId, m: (z3::ast::Array, z3::ast::Array)) -> Dynamic {
        self.lens[v.index()] = Some(m.1);
        Dynamic::from_ast(&m.0)
    }

    fn synthesis(&self) -> bool {
        matches!(self.f.mode, jreach_ir::LowerMode::Synthesis { .. })
    }

    fn encode_array(&mut self, v: ValueId, op: ArrOp, args: &[ValueId], ty: Ty) -> Dynamic {
        use crate::arrays as arr;
        let r = |enc: &Self, i: usize| enc.val(args[i]).as_bv().expect("a reference");
        match op {
            ArrOp::Init => {
                let Ty::Mem(t) = ty else { unreachable!("verified: arr.init is a memory") };
                let m = arr::init(t, &sort_of(t.elem()));
                self.set_mem(v, m)
            }
            ArrOp::Ref(id) => Dynamic::from_ast(&BV::from_i64(id as i64, 32)),
            ArrOp::New => {
                let Ty::Mem(t) = ty else { unreachable!("verified: arr.new is a memory") };
                let (c, l) = self.mem(args[0]);
                let len = self.val(args[2]).as_bv().expect("a length");
                let m = arr::new(&c, &l, &r(self, 1), &len, &arr::elem_default(t.elem()));
                self.set_mem(v, m)
            }
            ArrOp::Load => {
                let (c, _) = self.mem(args[0]);
                let i = self.val(args[2]).as_bv().expect("an index");
                let x = arr::load(&c, &r(self, 1), &i);
                self.enum_domain(ty, &x);
                if let (Some(x), true) = (x.as_bv(), matches!(ty, Ty::Arr(_) | Ty::Obj(_)) && self.synthesis()) {
                    // Synthesis: a reference read from memory is an input's or one the method
                    // created (negative ids, above the floor); other negative ids cannot exist.
                    self.side.push(x.bvsgt(&BV::from_i64(self.alloc_floor, 32)));
                }
                x
            }
            ArrOp::Store => {
                let (c, l) = self.mem(args[0]);
                let i = self.val(args[2]).as_bv().expect("an index");
                let c = arr::store(&c, &r(self, 1), &i, &self.val(args[3]));
                self.set_mem(v, (c, l))
            }
            ArrOp::Len => {
                let (_, l) = self.mem(args[0]);
                let (len, nonneg) = arr::len(&l, &r(self, 1));
                self.side.push(nonneg);
                Dynamic::from_ast(&len)
            }
        }
    }

    /// A value of an enum type is null (0) or one of its constants (1..=n): Java's semantics.
    fn enum_domain(&mut self, ty: Ty, x: &Dynamic) {
        if let (Ty::Obj(c), Some(x)) = (ty, x.as_bv()) {
            let n = self.f.classes[c as usize].constants.len() as i64;
            if n > 0 {
                self.side.push(Bool::and(&[x.bvsge(&BV::from_i64(0, 32)), x.bvsle(&BV::from_i64(n, 32))]));
            }
        }
    }

    fn encode_object(&mut self, op: ObjOp, args: &[ValueId], ty: Ty) -> Dynamic {
        match op {
            ObjOp::Init => {
                let Ty::Fields(c, i) = ty else { unreachable!("verified: obj.init is a field memory") };
                Dynamic::from_ast(&crate::arrays::field_init(c, i, &sort_of(self.f.field_ty(c, i))))
            }
            ObjOp::Ref(id) => Dynamic::from_ast(&BV::from_i64(id as i64, 32)),
            ObjOp::Get => {
                let mem = self.val(args[0]).as_array().expect("a field memory");
                let x = mem.select(&self.val(args[1]));
                self.enum_domain(ty, &x);
                if let (Some(r), true) = (x.as_bv(), matches!(ty, Ty::Obj(_)) && self.synthesis()) {
                    self.side.push(r.bvsgt(&BV::from_i64(self.alloc_floor, 32)));
                }
                x
            }
            ObjOp::Put => {
                let mem = self.val(args[0]).as_array().expect("a field memory");
                Dynamic::from_ast(&mem.store(&self.val(args[1]), &self.val(args[2])))
            }
        }
    }

    fn encode_value(&mut self, v: ValueId, b: BlockId) -> Dynamic {
        let vd = self.f.value(v);
        if let (Ty::Fields(c, i), Op::Nondet(_)) = (vd.ty, &vd.op) {
            let sort = sort_of(self.f.field_ty(c, i));
            return Dynamic::from_ast(&z3::ast::Array::fresh_const("fields", &crate::sorts::ref_sort(), &sort));
        }
        if let Op::Obj(op, args) = &vd.op {
            let args = args.clone();
            return self.encode_object(*op, &args, vd.ty);
        }
        if let (Ty::Mem(t), Op::Phi(_) | Op::Select(..) | Op::Nondet(_)) = (vd.ty, &vd.op) {
            return self.encode_mem_choice(v, b, t);
        }
        match &vd.op {
            Op::Arr(op, args) => {
                let args = args.clone();
                self.encode_array(v, *op, &args, vd.ty)
            }
            Op::Param(i) => {
                let p = Dynamic::new_const(param_name(*i), &sort_of(vd.ty));
                if let (Ty::Arr(_) | Ty::Obj(_), true, Some(x)) = (vd.ty, self.synthesis(), p.as_bv()) {
                    self.side.push(x.bvsge(&BV::from_i64(0, 32)));
                }
                if let (Ty::Obj(c), true, Some(x)) = (vd.ty, self.synthesis(), p.as_bv()) {
                    let d = &self.f.classes[c as usize];
                    if !d.buildable && !d.reflective && !d.is_immutable() {
                        // Tests cannot build it yet: null only (the lowering records the blocker).
                        self.side.push(x.eq(&BV::from_i64(0, 32)));
                    }
                }
                self.enum_domain(vd.ty, &p);
                if let Some(s) = p.as_string() {
                    let synthesis = matches!(self.f.mode, jreach_ir::LowerMode::Synthesis { .. });
                    self.side.push(crate::strings::input_domain(&s, synthesis));
                }
                p
            }
            Op::Str(op, args) => {
                let terms: Vec<Dynamic> = args.iter().map(|a| self.val(*a)).collect();
                let tys: Vec<Ty> = args.iter().map(|a| self.f.value(*a).ty).collect();
                let read = match op {
                    jreach_ir::StrOp::Length | jreach_ir::StrOp::CharAt => {
                        Some((*op == jreach_ir::StrOp::Length, terms.clone()))
                    }
                    _ => None,
                };
                if let Some(known) = read.as_ref().and_then(|k| self.string_reads.get(k)) {
                    return known.clone();
                }
                let term = crate::strings::encode(*op, &terms, &tys, &mut self.side);
                if let Some(k) = read {
                    self.string_reads.insert(k, term.clone());
                }
                term
            }
            Op::Const(c) => constant(c),
            Op::Unary(op, a) => unary(*op, &self.val(*a), vd.ty),
            // A product of two unknowns is a constant of its own, equal to it: z3's rewriter
            // flattens nested products into one, and a value squared in an unrolled loop
            // (`b *= b`) became a multiplication of 2^k factors that z3 could not allocate (it
            // crashed the process).
            Op::Binary(BinOp::Mul, a, c)
                if self.f.value(*a).ty.is_integral()
                    && !matches!(self.f.value(*a).op, Op::Const(_))
                    && !matches!(self.f.value(*c).op, Op::Const(_)) =>
            {
                let product = binary(BinOp::Mul, &self.val(*a), &self.val(*c), self.f.value(*a).ty);
                let named = Dynamic::fresh_const("product", &product.get_sort());
                self.side.push(named.eq(&product));
                named
            }
            Op::Binary(op, a, c) => binary(*op, &self.val(*a), &self.val(*c), self.f.value(*a).ty),
            Op::Cast(a) => cast(&self.val(*a), self.f.value(*a).ty, vd.ty),
            Op::Select(c, a, e) => bo(&self.val(*c)).ite(&self.val(*a), &self.val(*e)),
            Op::Phi(ins) => {
                // ite over the incoming edges; the last one is the default.
                let mut it = ins.iter().rev();
                let Some((_, last)) = it.next() else { return fresh("phi", vd.ty) };
                let mut acc = self.val(*last);
                for (p, x) in it {
                    acc = self.edge_guard(*p, b).ite(&self.val(*x), &acc);
                }
                acc
            }
            Op::Nondet(_) => fresh(&format!("nondet!{}", v.0), vd.ty),
            // The solver has no model of these functions: any double (`gen` then searches for
            // arguments on the interpreter, see `ide::gen`).
            Op::Math(..) => fresh(&format!("math!{}", v.0), vd.ty),
            Op::Obj(..) => unreachable!("objects are encoded above"),
        }
    }

    /// φ, select and unknowns of array memories: both parts chosen together.
    fn encode_mem_choice(&mut self, v: ValueId, b: BlockId, t: jreach_ir::ArrTy) -> Dynamic {
        use crate::arrays as arr;
        let vd = self.f.value(v);
        let m = match &vd.op {
            Op::Select(c, a, e) => arr::ite(&bo(&self.val(*c)), &self.mem(*a), &self.mem(*e)),
            Op::Phi(ins) if !ins.is_empty() => {
                let mut it = ins.iter().rev();
                let (_, last) = it.next().expect("non-empty");
                let mut acc = self.mem(*last);
                for (p, x) in it {
                    acc = arr::ite(&self.edge_guard(*p, b), &self.mem(*x), &acc);
                }
                acc
            }
            _ => arr::fresh(t, &sort_of(t.elem())),
        };
        self.set_mem(v, m)
    }

    /// The condition under which block `b` runs (false for blocks outside the slice).
    pub fn guard(&self, b: BlockId) -> Bool {
        self.guards[b.index()].clone().unwrap_or_else(|| Bool::from_bool(false))
    }

    /// The term of a value in the slice.
    pub fn value(&self, v: ValueId) -> Option<Dynamic> {
        self.vals[v.index()].clone()
    }

    /// Constraints that hold on every path: definitions of fresh terms, domains of inputs.
    pub fn side_conditions(&self) -> &[Bool] {
        &self.side
    }

    /// The condition under which any of `targets` runs.
    pub fn reach(&self, targets: &[BlockId]) -> Bool {
        let gs: Vec<Bool> = targets.iter().map(|t| self.guard(*t)).collect();
        match gs.len() {
            0 => Bool::from_bool(false),
            1 => gs[0].clone(),
            _ => Bool::or(&gs),
        }
    }

    /// Whether the function ends in a path that matters (used by tests of the encoding).
    pub fn is_exit(&self, b: BlockId) -> bool {
        matches!(self.f.block(b).term, Terminator::Return(_) | Terminator::Throw { .. })
    }
}
