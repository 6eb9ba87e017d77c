//! Expressions: conditions as branches (`&&`, `||`, `!`), literals, operators with Java's
//! promotions, assignments and increments, conditionals (typed as JLS 15.25 says) and field
//! accesses.

use super::*;

impl<'t> Lowerer<'t> {
    /// Lowers a boolean expression as control flow to `t` or `f`.
    pub(super) fn cond(&mut self, e: Node<'t>, t: BlockId, f: BlockId) {
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
        let origin = CondOrigin { span: e.byte_range(), text: self.text(e).to_string(), note: None };
        self.branch(v, t, f, Some(origin));
    }

    pub(super) fn expr(&mut self, e: Node<'t>) -> ValueId {
        self.expr_as(e, None)
    }

    /// Lowers an expression; `hint` is the type the context expects (for switch expressions).
    pub(super) fn expr_as(&mut self, e: Node<'t>, hint: Option<Ty>) -> ValueId {
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
                let units = s.encode_utf16().count();
                if units > MAX_STRING_LITERAL {
                    // z3's time and memory grow faster than the literal (10,000 characters took
                    // 1.2 GB, 200,000 more than 20 GB): an unknown string instead.
                    return self.opaque(format!("a string literal of {units} characters"), Ty::Str, None);
                }
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
                    && self
                        .text_builder_class(e.child_by_field_name("type").map(|t| self.text(t)).unwrap_or(""))
                        .is_some() =>
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
                _ => self.untyped_array_literal(e, hint),
            },
            other => {
                self.unsupported(format!("`{other}` expressions are not modelled yet"));
                self.opaque(format!("`{}`", self.text(e)), hint.unwrap_or(Ty::Ref), None)
            }
        }
    }

    pub(super) fn identifier(&mut self, e: Node<'t>) -> ValueId {
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

    pub(super) fn field_access(&mut self, e: Node<'t>) -> ValueId {
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

    pub(super) fn unary(&mut self, e: Node<'t>) -> ValueId {
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

    pub(super) fn binary(&mut self, e: Node<'t>) -> ValueId {
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
    pub(super) fn binop_values(&mut self, op: &str, a: ValueId, b: ValueId, e: Node<'t>) -> ValueId {
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
            return self.opaque_from(&[a, b], if bin.is_comparison() { Ty::Bool } else { Ty::Int }, e);
        }
        if matches!(bin, BinOp::Eq | BinOp::Ne) {
            // `x == null` of a parameter of a JDK type a test writes a value of.
            let present = match (self.is_null_const(a), self.is_null_const(b)) {
                (false, true) => self.presence_of(a),
                (true, false) => self.presence_of(b),
                _ => None,
            };
            if let Some(present) = present {
                return match bin {
                    BinOp::Ne => present,
                    _ => self.emit(Op::Unary(UnOp::Not, present), Ty::Bool, Some(e)),
                };
            }
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
            return self.opaque_from(&[a, b], ty, e);
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

    pub(super) fn assignment(&mut self, e: Node<'t>) -> ValueId {
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

    pub(super) fn update(&mut self, e: Node<'t>) -> ValueId {
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

    pub(super) fn ternary(&mut self, e: Node<'t>, hint: Option<Ty>) -> ValueId {
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
        } else if self.is_null_const(vb) && matches!(ta, Ty::Obj(_) | Ty::Arr(_)) {
            // `c ? obj : null`: the object's type, null converted to it.
            ta
        } else if self.is_null_const(va) && matches!(tb, Ty::Obj(_) | Ty::Arr(_)) {
            tb
        } else if ta == Ty::Ref || tb == Ty::Ref {
            Ty::Ref
        } else {
            ta
        };
        let tmp = self.b.new_var("$ternary", ty);
        let join = self.b.create_block();
        for (end, v) in [(end_a, va), (end_b, vb)] {
            let Some(end) = end else { continue };
            self.cur = Some(end);
            let v = self.convert(v, ty);
            // A tracked object or array meeting an untracked reference: untracked too.
            let v = if ty == Ty::Ref && self.ty(v) != Ty::Ref {
                self.opaque("a reference jreach does not track".into(), Ty::Ref, None)
            } else {
                v
            };
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
    pub(super) fn numeric_conditional_type(&self, ta: Ty, ca: Option<i64>, tb: Ty, cb: Option<i64>) -> Ty {
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
}

/// The value of an `int` constant operand (for the typing of conditionals).
pub(super) fn vb_const(lw: &Lowerer<'_>, v: ValueId) -> Option<i64> {
    match lw.b.func().value(v).op {
        Op::Const(Const::Int(Ty::Int, x)) => Some(x),
        _ => None,
    }
}

/// The longest string literal (in UTF-16 units) the solver sees; a longer one is an unknown.
const MAX_STRING_LITERAL: usize = 1_024;
