//! A stable, readable text form of a [`Function`], for snapshot tests and debugging.
//!
//! ```text
//! fn Lichman.fig4(a: int) -> int [synthesis, unroll 4]
//! b0:
//!   ; stmt line 3
//!   v0 = param 0 (a): int
//!   v1 = const 0: int
//!   v2 = lt v0, v1: boolean
//!   branch v2 ? b1 : b2  ; a < 0
//! b1: <- b0
//!   v3 = neg v0: int
//!   jump b2
//! b2: <- b0, b1
//!   v4 = phi [b0 v0] [b1 v3]: int
//!   return v4
//! proof blockers: (none)
//! ```
//!
//! Statement marks and throw sites are shown as 1-based line numbers when a [`LineIndex`] is given,
//! as byte offsets (`@123`) otherwise. Only values listed in a block are shown (the arena may hold
//! φs the builder removed).

use std::fmt::Write;

use jreach_syntax::LineIndex;

use crate::func::*;
use crate::types::Ty;

/// The text form of `f`.
pub fn dump(f: &Function, lines: Option<&LineIndex>) -> String {
    let mut out = String::new();
    let params: Vec<String> = f.params.iter().map(|p| format!("{}: {}", p.name, param_ty(p))).collect();
    let mode = match f.mode {
        LowerMode::Synthesis { unroll } => format!("synthesis, unroll {unroll}"),
        LowerMode::OverApprox => "over-approximation".to_string(),
    };
    let _ = writeln!(out, "fn {}({}) -> {} [{mode}]", f.name, params.join(", "), ty_name(f.return_ty));
    let at = |offset: usize| match lines {
        Some(idx) => format!("line {}", idx.line_of(offset) + 1),
        None => format!("@{offset}"),
    };
    for b in f.block_ids() {
        let blk = f.block(b);
        let entry = if b == f.entry && b.index() != 0 { "  ; entry" } else { "" };
        if blk.preds.is_empty() {
            let _ = writeln!(out, "{b}:{entry}");
        } else {
            let preds: Vec<String> = blk.preds.iter().map(|p| p.to_string()).collect();
            let _ = writeln!(out, "{b}: <- {}{entry}", preds.join(", "));
        }
        for &s in &blk.stmts {
            let _ = writeln!(out, "  ; stmt {}", at(s));
        }
        for &v in &blk.insts {
            match f.values.get(v.index()) {
                Some(vd) => {
                    let _ = writeln!(out, "  {v} = {}: {}", op_text(f, &vd.op), ty_name(vd.ty));
                }
                None => {
                    let _ = writeln!(out, "  {v} = <missing>");
                }
            }
        }
        let term = match &blk.term {
            Terminator::Jump(t) => format!("jump {t}"),
            Terminator::Branch { cond, then_to, else_to, origin } => {
                let mut s = format!("branch {cond} ? {then_to} : {else_to}");
                if let Some(o) = origin {
                    let _ = write!(s, "  ; {}", one_line(&o.text));
                }
                s
            }
            Terminator::Return(None) => "return".to_string(),
            Terminator::Return(Some(v)) => format!("return {v}"),
            Terminator::Throw { class, span } => match span {
                Some(sp) => format!("throw {class}  ; {}", at(sp.start)),
                None => format!("throw {class}"),
            },
            Terminator::Cutoff(k) => format!("cutoff {}: {k}", cutoff_tag(k)),
            Terminator::Unterminated => "unterminated".to_string(),
        };
        let _ = writeln!(out, "  {term}");
    }
    if f.proof_blockers.is_empty() {
        out.push_str("proof blockers: (none)\n");
    } else {
        out.push_str("proof blockers:\n");
        for p in &f.proof_blockers {
            let _ = writeln!(out, "  - {}", one_line(&p.to_string()));
        }
    }
    out
}

fn op_text(f: &Function, op: &Op) -> String {
    match op {
        Op::Param(i) => match f.params.get(*i as usize) {
            Some(p) => format!("param {i} ({})", p.name),
            None => format!("param {i}"),
        },
        Op::Const(c) => format!("const {c}"),
        Op::Unary(op, a) => {
            let name = match op {
                UnOp::Neg => "neg",
                UnOp::BitNot => "bitnot",
                UnOp::Not => "not",
            };
            format!("{name} {a}")
        }
        Op::Binary(op, a, b) => format!("{} {a}, {b}", binop_name(*op)),
        Op::Cast(a) => match f.values.get(a.index()) {
            Some(vd) => format!("cast {a} from {}", ty_name(vd.ty)),
            None => format!("cast {a}"),
        },
        Op::Select(c, a, b) => format!("select {c} ? {a} : {b}"),
        Op::Obj(op, args) => {
            let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            format!("{} {}", op.name(), args.join(", ")).trim_end().to_string()
        }
        Op::Arr(op, args) => {
            let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            format!("{} {}", op.name(), args.join(", ")).trim_end().to_string()
        }
        Op::Str(op, args) => {
            let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            format!("{} {}", op.name(), args.join(", ")).trim_end().to_string()
        }
        Op::Math(op, args) => {
            let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            format!("math.{} {}", op.name(), args.join(", "))
        }
        Op::Phi(ins) => {
            let mut s = "phi".to_string();
            for (p, v) in ins {
                let _ = write!(s, " [{p} {v}]");
            }
            s
        }
        Op::Nondet(k) => {
            let kind = match k {
                NondetKind::CallResult { .. } => "call-result",
                NondetKind::Havoc { .. } => "havoc",
                NondetKind::CallThrows { .. } => "call-throws",
                NondetKind::Opaque { .. } => "opaque",
            };
            format!("nondet {kind} ({})", one_line(&k.to_string()))
        }
    }
}

fn binop_name(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "add",
        BinOp::Sub => "sub",
        BinOp::Mul => "mul",
        BinOp::Div => "div",
        BinOp::Rem => "rem",
        BinOp::Shl => "shl",
        BinOp::Shr => "shr",
        BinOp::Ushr => "ushr",
        BinOp::And => "and",
        BinOp::Or => "or",
        BinOp::Xor => "xor",
        BinOp::Eq => "eq",
        BinOp::Ne => "ne",
        BinOp::Lt => "lt",
        BinOp::Le => "le",
        BinOp::Gt => "gt",
        BinOp::Ge => "ge",
    }
}

fn cutoff_tag(k: &CutoffKind) -> &'static str {
    match k {
        CutoffKind::UnrollBound => "unroll-bound",
        CutoffKind::InlineDepth => "inline-depth",
        CutoffKind::SizeLimit => "size-limit",
        CutoffKind::Unsupported(_) => "unsupported",
        CutoffKind::LoopIteration => "loop-iteration",
        CutoffKind::EndsJvm(_) => "ends-jvm",
        CutoffKind::Unwinding => "unwinding",
        CutoffKind::InvariantBroken(_) => "invariant-broken",
        CutoffKind::ClassInvariantBroken(_) => "class-invariant-broken",
        CutoffKind::Assumed => "assumed",
    }
}

/// IR types by their Java names, except references, which the IR does not tell apart.
fn ty_name(t: Ty) -> &'static str {
    match t {
        Ty::Ref => "ref",
        Ty::Str => "String",
        Ty::Arr(_) => "array",
        Ty::Mem(_) => "memory",
        Ty::Obj(_) => "object",
        Ty::Fields(..) => "fields",
        t => t.java_name(),
    }
}

/// A parameter's type: the Java spelling for references, the IR type otherwise.
fn param_ty(p: &ParamInfo) -> String {
    if p.ty == Ty::Ref && !p.java_ty.trim().is_empty() {
        one_line(&p.java_ty)
    } else {
        ty_name(p.ty).to_string()
    }
}

/// `s` with every run of whitespace (newlines included) collapsed to one space.
pub(crate) fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::*;
    use crate::builder::FunctionBuilder;
    use crate::types::Const;

    fn param(name: &str, ty: Ty, java_ty: &str) -> ParamInfo {
        ParamInfo { name: name.into(), ty, java_ty: java_ty.into() }
    }

    const SRC: &str = "class Lichman {\n  int fig4(int a) {\n    if (a < 0)\n      a = -a;\n    return a;\n  }\n}\n";

    /// `fig4` from SRC, lowered by hand.
    fn fig4() -> Function {
        let off = |needle: &str| SRC.find(needle).unwrap();
        let mut fb = FunctionBuilder::new(
            "Lichman.fig4".into(),
            vec![param("a", Ty::Int, "int")],
            Ty::Int,
            LowerMode::Synthesis { unroll: 4 },
        );
        let var = fb.new_var("a", Ty::Int);
        let e = fb.entry();
        fb.mark_stmt(e, off("if"));
        let p = fb.push(e, Op::Param(0), Ty::Int, None);
        fb.def_var(var, e, p);
        let zero = fb.push(e, Op::Const(Const::int(Ty::Int, 0)), Ty::Int, None);
        let c = fb.push(e, Op::Binary(BinOp::Lt, p, zero), Ty::Bool, None);
        let t = fb.create_block();
        let join = fb.create_block();
        let origin = CondOrigin { span: off("a < 0")..off("a < 0") + 5, text: "a < 0".into(), note: None };
        fb.terminate(e, Terminator::Branch { cond: c, then_to: t, else_to: join, origin: Some(origin) });
        fb.seal(t);
        fb.mark_stmt(t, off("a = -a"));
        let a = fb.use_var(var, t);
        let neg = fb.push(t, Op::Unary(UnOp::Neg, a), Ty::Int, None);
        fb.def_var(var, t, neg);
        fb.terminate(t, Terminator::Jump(join));
        fb.seal(join);
        fb.mark_stmt(join, off("return"));
        let r = fb.use_var(var, join);
        fb.terminate(join, Terminator::Return(Some(r)));
        fb.finish()
    }

    #[test]
    fn dumps_with_line_numbers() {
        let idx = LineIndex::new(SRC);
        expect![[r#"
            fn Lichman.fig4(a: int) -> int [synthesis, unroll 4]
            b0:
              ; stmt line 3
              v0 = param 0 (a): int
              v1 = const 0: int
              v2 = lt v0, v1: boolean
              branch v2 ? b1 : b2  ; a < 0
            b1: <- b0
              ; stmt line 4
              v3 = neg v0: int
              jump b2
            b2: <- b0, b1
              ; stmt line 5
              v4 = phi [b0 v0] [b1 v3]: int
              return v4
            proof blockers: (none)
        "#]]
        .assert_eq(&dump(&fig4(), Some(&idx)));
    }

    #[test]
    fn dumps_offsets_nondets_cutoffs_and_throws() {
        let mut fb = FunctionBuilder::new(
            "T.m".into(),
            vec![param("s", Ty::Ref, "String"), param("x", Ty::Double, "double")],
            Ty::Void,
            LowerMode::OverApprox,
        );
        let e = fb.entry();
        fb.mark_stmt(e, 17);
        let x = fb.push(e, Op::Param(1), Ty::Double, None);
        let i = fb.push(e, Op::Cast(x), Ty::Int, None);
        let kind = NondetKind::CallThrows { callee: "Foo.bar".into() };
        let thr = fb.push(e, Op::Nondet(kind), Ty::Bool, None);
        let h = fb.push(
            e,
            Op::Nondet(NondetKind::Havoc { what: "i after any number of loop iterations".into() }),
            Ty::Int,
            None,
        );
        let _ = fb.push(e, Op::Select(thr, i, h), Ty::Int, None);
        let s = fb.push(e, Op::Const(Const::Str("a\"b".into())), Ty::Str, None);
        let _ = fb.push(e, Op::Const(Const::int(Ty::Long, -3)), Ty::Long, None);
        let _ = fb.push(e, Op::Const(Const::f32(0.5)), Ty::Float, None);
        let _ = fb.push(e, Op::Binary(BinOp::Ushr, i, h), Ty::Int, None);
        let _ = fb.push(e, Op::Unary(UnOp::Not, thr), Ty::Bool, None);
        let _ = s;
        let (t, el) = (fb.create_block(), fb.create_block());
        fb.terminate(e, Terminator::Branch { cond: thr, then_to: t, else_to: el, origin: None });
        fb.terminate(t, Terminator::Throw { class: "ArithmeticException".into(), span: Some(40..45) });
        fb.terminate(el, Terminator::Cutoff(CutoffKind::Unsupported("a switch on enums".into())));
        fb.add_proof_blocker(Blocker::Unsupported("a call to Foo.bar\n  may throw".into()));
        expect![[r#"
            fn T.m(s: String, x: double) -> void [over-approximation]
            b0:
              ; stmt @17
              v0 = param 1 (x): double
              v1 = cast v0 from double: int
              v2 = nondet call-throws (whether Foo.bar throws): boolean
              v3 = nondet havoc (i after any number of loop iterations): int
              v4 = select v2 ? v1 : v3: int
              v5 = const "a\"b": String
              v6 = const -3L: long
              v7 = const 0.5f: float
              v8 = ushr v1, v3: int
              v9 = not v2: boolean
              branch v2 ? b1 : b2
            b1: <- b0
              throw ArithmeticException  ; @40
            b2: <- b0
              cutoff unsupported: a switch on enums
            proof blockers:
              - a call to Foo.bar may throw
        "#]]
        .assert_eq(&dump(&fb.finish(), None));
    }

    #[test]
    fn dump_is_stable() {
        let f = fig4();
        assert_eq!(dump(&f, None), dump(&f.clone(), None));
        assert!(dump(&f, None).contains("; stmt @"));
    }
}
