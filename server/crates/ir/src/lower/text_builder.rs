//! `StringBuilder` and `StringBuffer`: objects of the class table (`func::TEXT_BUILDER_CLASSES`)
//! whose one field holds their contents as a string. Being objects in the field memories, a
//! builder shared by two locals, passed to a callee, stored in a field or changed by a call jreach
//! cannot see is changed for every reference to it, and the abstractions of loops and unseen
//! calls (`Lowerer::havoc_memories`) cover it like any other object.
//!
//! A builder local that never escapes (`Lowerer::scalar_builder`: declared with `new
//! StringBuilder(..)`, and only ever the receiver of the modelled methods, in chains, or an
//! operand of string concatenation) cannot be shared: its contents are then the local's own value,
//! a string, which the solver handles much faster than a field memory of strings. The
//! abstraction of a loop havocs such a local when the loop names it
//! (`Lowerer::havoc_assigned`).
//!
//! The methods that change the contents (`append`, `insert`, `reverse`, `setLength`, `delete`,
//! `deleteCharAt`, `setCharAt`, `replace`) store the new contents; the reading ones (`length`,
//! `charAt`, `indexOf`, `substring`, `toString`, ...) are the `String` methods on the contents.
//! Any other method leaves the contents unknown.

use jreach_syntax::Node;

use super::{named_children, unparen, Local, Lowerer};
use crate::func::*;
use crate::types::{Const, Ty};

/// Where a builder's contents live.
#[derive(Copy, Clone, Debug)]
pub(super) enum BuilderPlace {
    /// A builder local that does not escape: the local's value is the contents.
    Scalar(Local),
    /// An object of builder class `c` in the field memories.
    Heap(ValueId, u16),
}

/// The methods of a builder whose result is the builder itself.
const CHAINING: &[&str] = &["append", "insert", "reverse", "delete", "deleteCharAt", "replace"];

/// The methods of a builder the lowering models (see `text_builder_call`).
const MODELLED: &[&str] = &[
    "append",
    "insert",
    "reverse",
    "delete",
    "deleteCharAt",
    "replace",
    "setLength",
    "setCharAt",
    "length",
    "charAt",
    "indexOf",
    "lastIndexOf",
    "substring",
    "toString",
    "isEmpty",
    "ensureCapacity",
    "trimToSize",
];

impl<'t> Lowerer<'t> {
    /// Whether the builder local declared by `declarator` (in a `local_variable_declaration`)
    /// can be kept as its contents: initialized with `new StringBuilder(..)`, and every later
    /// mention of it in its block the receiver of a modelled method whose result is dropped,
    /// read or the receiver of the next modelled call, an operand of `+`, or the left side of an
    /// assignment of another `new StringBuilder(..)`.
    pub(super) fn scalar_builder(&self, declarator: Node<'t>) -> bool {
        let Some(init) = declarator.child_by_field_name("value").map(unparen) else { return false };
        if !self.is_new_text_builder(init) {
            return false;
        }
        let Some(name) = declarator.child_by_field_name("name").map(|n| self.text(n)) else { return false };
        let Some(scope) = declarator.parent().and_then(|d| d.parent()) else { return false };
        let decl_name = declarator.child_by_field_name("name").map_or(0, |d| d.id());
        // (node, inside a lambda or a class body: any mention there may run at another time)
        let mut stack = vec![(scope, false)];
        while let Some((n, closure)) = stack.pop() {
            if n.kind() == "identifier" && self.text(n) == name && n.id() != decl_name {
                if closure || !self.builder_use_is_local(n) {
                    return false;
                }
            }
            let closure = closure || matches!(n.kind(), "lambda_expression" | "class_body");
            stack.extend(named_children(n).into_iter().map(|k| (k, closure)));
        }
        true
    }

    /// `new StringBuilder(..)` (or `StringBuffer`), without a class body.
    fn is_new_text_builder(&self, e: Node<'t>) -> bool {
        e.kind() == "object_creation_expression"
            && e.child_by_field_name("body").is_none()
            && self.text_builder_class(e.child_by_field_name("type").map(|t| self.text(t)).unwrap_or("")).is_some()
    }

    /// Whether the mention `n` of a builder local keeps the builder to the method (see
    /// [`Self::scalar_builder`]).
    fn builder_use_is_local(&self, n: Node<'t>) -> bool {
        let mut at = n;
        loop {
            let Some(p) = at.parent() else { return false };
            match p.kind() {
                "parenthesized_expression" => at = p,
                "method_invocation" if p.child_by_field_name("object").is_some_and(|o| o.id() == at.id()) => {
                    let name = p.child_by_field_name("name").map(|m| self.text(m)).unwrap_or("");
                    if !MODELLED.contains(&name) {
                        return false;
                    }
                    if !CHAINING.contains(&name) {
                        // A value (a length, a character, a string) or nothing.
                        return true;
                    }
                    // The builder itself again: where it goes next decides.
                    at = p;
                    match at.parent().map(|q| q.kind()) {
                        Some("expression_statement") => return true,
                        Some("parenthesized_expression" | "method_invocation") => continue,
                        _ => return false,
                    }
                }
                "binary_expression" => {
                    return p.child_by_field_name("operator").is_some_and(|o| self.text(o) == "+");
                }
                "assignment_expression" => {
                    return p.child_by_field_name("left").is_some_and(|l| l.id() == at.id())
                        && self.text(p.child_by_field_name("operator").unwrap_or(p)) == "="
                        && p.child_by_field_name("right").is_some_and(|r| self.is_new_text_builder(unparen(r)));
                }
                _ => return false,
            }
        }
    }

    /// The scalar builder local a receiver expression ultimately refers to (`sb`, `(sb)`,
    /// `sb.append(x)`, ...).
    pub(super) fn scalar_builder_root(&self, o: Node<'t>) -> Option<Local> {
        match o.kind() {
            "identifier" => self.lookup(self.text(o)).filter(|l| l.scalar_builder),
            "parenthesized_expression" => {
                named_children(o).into_iter().next().and_then(|i| self.scalar_builder_root(i))
            }
            "method_invocation" => {
                let name = o.child_by_field_name("name").map(|n| self.text(n))?;
                if CHAINING.contains(&name) {
                    self.scalar_builder_root(o.child_by_field_name("object")?)
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    /// The class of a string builder type as written (`StringBuilder`, `java.lang.StringBuffer`),
    /// when the file does not declare a class of that name.
    pub(super) fn text_builder_class(&self, java_ty: &str) -> Option<u16> {
        match self.ty_of(java_ty) {
            Ty::Obj(c) if self.classes.descs[c as usize].is_text_builder() => Some(c),
            _ => None,
        }
    }

    /// `new StringBuilder()`, `new StringBuilder(String or CharSequence)`, `new
    /// StringBuilder(int capacity)` as an object of class `c`.
    pub(super) fn new_text_builder(&mut self, c: u16, e: Node<'t>) -> ValueId {
        let contents = self.new_text_builder_contents(e);
        let r = self.new_object(c, e);
        self.object_put(r, c, 0, contents);
        r
    }

    /// The contents a `new StringBuilder(..)` starts with (its argument evaluated and checked).
    pub(super) fn new_text_builder_contents(&mut self, e: Node<'t>) -> ValueId {
        let args: Vec<ValueId> = e
            .child_by_field_name("arguments")
            .map(named_children)
            .unwrap_or_default()
            .into_iter()
            .map(|a| self.expr(a))
            .collect();
        match args.as_slice() {
            [] => self.konst(Const::Str(String::new())),
            [n] if self.ty(*n).is_integral() && self.ty(*n) != Ty::Long => {
                // `new StringBuilder('a')` is the capacity constructor too (char widens to int).
                let zero = self.int(Ty::Int, 0);
                let n = self.convert(*n, Ty::Int);
                let neg = self.bin(BinOp::Lt, n, zero);
                self.raise_if(neg, "NegativeArraySizeException", e);
                self.konst(Const::Str(String::new()))
            }
            [a] if self.is_null_const(*a) => {
                self.raise("NullPointerException", Some(e));
                self.konst(Const::Str(String::new()))
            }
            [a] => match self.string_argument(*a, e) {
                Some(t) => t,
                None => self.opaque("the contents of a new string builder".into(), Ty::Str, Some(e)),
            },
            _ => self.opaque("the contents of a new string builder".into(), Ty::Str, Some(e)),
        }
    }

    /// The contents of the builder at `place` (an object known not to be null).
    fn place_contents(&mut self, place: BuilderPlace) -> ValueId {
        match place {
            BuilderPlace::Scalar(l) => self.read(l.var),
            BuilderPlace::Heap(r, c) => self.text_builder_contents(r, c),
        }
    }

    /// Stores `v` as the contents of the builder at `place`.
    fn set_place_contents(&mut self, place: BuilderPlace, v: ValueId) {
        if self.cur.is_none() {
            return;
        }
        match place {
            BuilderPlace::Scalar(l) => self.assign(l.var, v),
            BuilderPlace::Heap(r, c) => self.object_put(r, c, 0, v),
        }
    }

    /// The contents of builder `r` (of class `c`), known not to be null.
    pub(super) fn text_builder_contents(&mut self, r: ValueId, c: u16) -> ValueId {
        let mem = self.field_mem(c, 0);
        if let Some(v) = self.stored_value(mem, r) {
            return v;
        }
        self.emit(Op::Obj(ObjOp::Get, vec![mem, r]), Ty::Str, None)
    }

    /// `String.valueOf(builder)`: `"null"` for null, else its contents.
    pub(super) fn text_builder_text(&mut self, r: ValueId, c: u16) -> ValueId {
        if let Op::Obj(ObjOp::Ref(id), _) = self.b.func().value(r).op {
            if id != 0 {
                return self.text_builder_contents(r, c);
            }
        }
        let null = self.emit(Op::Obj(ObjOp::Ref(0), vec![]), Ty::Obj(c), None);
        let is_null = self.bin(BinOp::Eq, r, null);
        // The contents are read only where `r` is not null: the null object has none.
        self.diamond(is_null, Ty::Str, |lw| lw.konst(Const::Str("null".into())), |lw| lw.text_builder_contents(r, c))
    }

    /// A call `name(args)` on the builder at `place`. A chaining method returns the builder: the
    /// object, or for a scalar builder its new contents (which only a further call on it reads).
    pub(super) fn text_builder_call(
        &mut self,
        place: BuilderPlace,
        name: &str,
        args: &[ValueId],
        e: Node<'t>,
        hint: Option<Ty>,
    ) -> ValueId {
        if let BuilderPlace::Heap(r, _) = place {
            self.check_object_not_null(r, e);
        }
        if self.cur.is_none() {
            return self.opaque(format!("result of {name}"), hint.unwrap_or(Ty::Ref), None);
        }
        let tys: Vec<Ty> = args.iter().map(|a| self.ty(*a)).collect();
        let s = self.place_contents(place);
        let str_op = |lw: &mut Self, op: StrOp, xs: Vec<ValueId>| lw.emit(Op::Str(op, xs), op.result_ty(), Some(e));
        // The value of a chaining call.
        let itself = |lw: &mut Self| match place {
            BuilderPlace::Heap(r, _) => r,
            BuilderPlace::Scalar(_) => lw.place_contents(place),
        };
        let set = |lw: &mut Self, v: ValueId| lw.set_place_contents(place, v);
        match (name, args.len()) {
            ("append", 1) => {
                let t = self.appended_text(args[0]);
                let v = str_op(self, StrOp::Concat, vec![s, t]);
                set(self, v);
                return itself(self);
            }
            ("insert", 2) if tys[0].is_integral() && tys[0] != Ty::Long => {
                let i = self.convert(args[0], Ty::Int);
                let len = str_op(self, StrOp::Length, vec![s]);
                self.check_index(i, len, true, e);
                let t = self.appended_text(args[1]);
                let v = str_op(self, StrOp::Insert, vec![s, i, t]);
                set(self, v);
                return itself(self);
            }
            ("reverse", 0) => {
                let v = str_op(self, StrOp::Reverse, vec![s]);
                set(self, v);
                return itself(self);
            }
            ("setLength", 1) if tys[0].is_integral() && tys[0] != Ty::Long => {
                let n = self.convert(args[0], Ty::Int);
                let zero = self.int(Ty::Int, 0);
                let neg = self.bin(BinOp::Lt, n, zero);
                self.raise_if(neg, "StringIndexOutOfBoundsException", e);
                let len = str_op(self, StrOp::Length, vec![s]);
                let shorter = self.bin(BinOp::Le, n, len);
                // Growing pads with '\0' characters, which are not modelled.
                let v = self.diamond(
                    shorter,
                    Ty::Str,
                    |lw| str_op(lw, StrOp::Substring, vec![s, zero, n]),
                    |lw| lw.opaque("the contents of a builder grown by setLength".into(), Ty::Str, Some(e)),
                );
                set(self, v);
                return itself(self);
            }
            ("deleteCharAt", 1) if tys[0].is_integral() && tys[0] != Ty::Long => {
                let i = self.convert(args[0], Ty::Int);
                let len = str_op(self, StrOp::Length, vec![s]);
                self.check_index(i, len, false, e);
                let zero = self.int(Ty::Int, 0);
                let one = self.int(Ty::Int, 1);
                let next = self.bin(BinOp::Add, i, one);
                let head = str_op(self, StrOp::Substring, vec![s, zero, i]);
                let tail = str_op(self, StrOp::Substring, vec![s, next, len]);
                let v = str_op(self, StrOp::Concat, vec![head, tail]);
                set(self, v);
                return itself(self);
            }
            ("delete", 2) | ("replace", 3) if tys[..2].iter().all(|t| t.is_integral() && *t != Ty::Long) => {
                let start = self.convert(args[0], Ty::Int);
                let end = self.convert(args[1], Ty::Int);
                let len = str_op(self, StrOp::Length, vec![s]);
                let zero = self.int(Ty::Int, 0);
                let neg = self.bin(BinOp::Lt, start, zero);
                let past = self.bin(BinOp::Gt, start, len);
                let crossed = self.bin(BinOp::Gt, start, end);
                let bad = self.bin(BinOp::Or, neg, past);
                let bad = self.bin(BinOp::Or, bad, crossed);
                self.raise_if(bad, "StringIndexOutOfBoundsException", e);
                let beyond = self.bin(BinOp::Gt, end, len);
                let end = self.select(beyond, len, end);
                let head = str_op(self, StrOp::Substring, vec![s, zero, start]);
                let tail = str_op(self, StrOp::Substring, vec![s, end, len]);
                let head = if name == "replace" {
                    let Some(t) = self.string_argument(args[2], e) else {
                        return self.unknown_text_builder_call(place, name, e, hint);
                    };
                    str_op(self, StrOp::Concat, vec![head, t])
                } else {
                    head
                };
                let v = str_op(self, StrOp::Concat, vec![head, tail]);
                set(self, v);
                return itself(self);
            }
            ("setCharAt", 2) if tys[0].is_integral() && tys[0] != Ty::Long && tys[1] == Ty::Char => {
                let i = self.convert(args[0], Ty::Int);
                let len = str_op(self, StrOp::Length, vec![s]);
                self.check_index(i, len, false, e);
                let zero = self.int(Ty::Int, 0);
                let one = self.int(Ty::Int, 1);
                let next = self.bin(BinOp::Add, i, one);
                let head = str_op(self, StrOp::Substring, vec![s, zero, i]);
                let mid = str_op(self, StrOp::FromChar, vec![args[1]]);
                let tail = str_op(self, StrOp::Substring, vec![s, next, len]);
                let v = str_op(self, StrOp::Concat, vec![head, mid]);
                let v = str_op(self, StrOp::Concat, vec![v, tail]);
                set(self, v);
                return itself(self);
            }
            ("equals", 1) => {
                // Builders do not override `equals`: identity.
                return match (place, tys[0]) {
                    (BuilderPlace::Heap(r, _), Ty::Obj(_)) => self.bin(BinOp::Eq, r, args[0]),
                    _ if self.is_null_const(args[0]) => self.konst(Const::Bool(false)),
                    _ => self.opaque(format!("`{}`", self.text(e)), Ty::Bool, Some(e)),
                };
            }
            // The capacity is not observable but through `capacity()`.
            ("ensureCapacity" | "trimToSize", _) => return itself(self),
            ("length" | "charAt" | "indexOf" | "lastIndexOf" | "substring" | "toString" | "isEmpty", _) => {
                return self.string_method(s, name, args, e, hint);
            }
            _ => {}
        }
        self.unknown_text_builder_call(place, name, e, hint)
    }

    /// A builder method jreach does not model: the contents become unknown, and the call is an
    /// unseen one in every other respect.
    fn unknown_text_builder_call(&mut self, place: BuilderPlace, name: &str, e: Node<'t>, hint: Option<Ty>) -> ValueId {
        let callee = format!("StringBuilder.{name}");
        if self.synthesis() {
            self.unsupported(format!("{callee} is not modelled"));
            return self.opaque(format!("result of {callee}"), hint.unwrap_or(Ty::Ref), None);
        }
        let v = self.opaque(format!("the contents of a builder after {name}"), Ty::Str, Some(e));
        self.set_place_contents(place, v);
        self.unknown_call_throws(&callee);
        self.nondet(NondetKind::CallResult { callee }, hint.unwrap_or(Ty::Ref), Some(e))
    }

    /// The text `append(v)` / `insert(i, v)` adds: `String.valueOf(v)`, and for a builder or a
    /// string its contents (`"null"` for null).
    fn appended_text(&mut self, v: ValueId) -> ValueId {
        self.to_str_value(v)
    }

    /// A `String` or `CharSequence` argument's text, with its null check; `None` for other types.
    fn string_argument(&mut self, a: ValueId, e: Node<'t>) -> Option<ValueId> {
        match self.ty(a) {
            Ty::Str => {
                self.check_not_null(a, e);
                Some(a)
            }
            Ty::Obj(c) if self.classes.descs[c as usize].is_text_builder() => {
                self.check_object_not_null(a, e);
                Some(self.text_builder_contents(a, c))
            }
            _ => None,
        }
    }
}
