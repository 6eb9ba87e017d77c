//! The text feature (see the module doc of [`super`]): a `String` parameter of `m` and `String`
//! locals, read and made by the `String` methods jreach models as string terms (`length`,
//! `charAt`, `isEmpty`, `equals`, `equalsIgnoreCase`, `startsWith`, `endsWith`, `contains`,
//! `indexOf`, `lastIndexOf`, `substring`, `trim`, `toUpperCase`, `toLowerCase`, `concat`,
//! `compareTo`, `+`, `String.valueOf`, `Integer.parseInt`) and by `Integer`'s and `Long`'s
//! `compare`, `signum` and `bitCount`. Conditions on the same text meet (`t.startsWith("ab")`,
//! then `t.length() < 2`), so some are dead by the strings' meaning alone: what proofs over the
//! string theory decide, and where a wrong encoding would claim live code dead. The parameter
//! may be null and a call on it then throws, as `charAt` and `substring` out of range and
//! `parseInt` of a non-number do; `try` blocks catch those exceptions too.

use super::{paren_neg, Gen, JTy, Rng};

/// The literals the feature writes and the inputs it draws from: empty, letters in both cases,
/// blanks, digits, signs.
pub(super) const LITERALS: [&str; 12] = ["", "a", "ab", "ba", "b", " a", "a ", "0", "12", "-3", "aB", "A"];

/// The literals of [`Gen::text_meet`]'s conditions: few, so that two conditions on one text
/// often speak of the same one.
const MEET: [&str; 4] = ["", "a", "ab", "b"];

/// The characters of random input strings.
const ALPHABET: [char; 8] = ['a', 'b', 'A', ' ', '0', '1', '-', 'x'];

/// An input for a `String` parameter: null, one of the literals, or a short random string.
pub(super) fn input(rng: &mut Rng) -> Option<String> {
    match rng.below(10) {
        0 => None,
        1..=5 => Some(rng.pick(&LITERALS).to_string()),
        _ => Some((0..rng.below(5)).map(|_| *rng.pick(&ALPHABET)).collect()),
    }
}

/// A string literal of [`LITERALS`], quoted.
fn quoted(rng: &mut Rng) -> String {
    format!("\"{}\"", rng.pick(&LITERALS))
}

impl Gen<'_> {
    /// Whether the feature is on and a `String` variable is readable here (not in the bodies of
    /// the shadowing feature's classes, say).
    pub(super) fn text_here(&self) -> bool {
        self.text && self.vars.iter().any(|v| v.1 == JTy::Str)
    }

    /// A `String` variable readable here (the parameter, or a local).
    fn text_var(&mut self) -> String {
        self.var_of(JTy::Str, false).expect("the text feature's parameter")
    }

    /// A `String` expression of depth at most `d`.
    pub(super) fn str_expr(&mut self, d: u32) -> String {
        if d == 0 || self.rng.pct(45) {
            return if self.rng.pct(75) { self.text_var() } else { quoted(self.rng) };
        }
        let v = self.str_expr(d - 1);
        match self.rng.below(11) {
            0 => format!("{v}.trim()"),
            1 => format!("{v}.toUpperCase()"),
            2 => format!("{v}.toLowerCase()"),
            3 => format!("{v}.substring({})", self.small_index(d - 1)),
            4 => format!("{v}.substring({}, {})", self.small_index(d - 1), self.small_index(d - 1)),
            5 => format!("{v}.concat({})", quoted(self.rng)),
            6 => format!("({v} + {})", quoted(self.rng)),
            7 => format!("({v} + {})", self.int_expr(d - 1)),
            8 => format!("String.valueOf({})", self.int_expr(d - 1)),
            9 => format!("String.valueOf((char) ({}))", self.int_expr(d - 1)),
            _ => format!("({} ? {v} : {})", self.bool_expr(d - 1), self.str_expr(d - 1)),
        }
    }

    /// An index into a short text: mostly a small constant, sometimes an `int` of the method.
    fn small_index(&mut self, d: u32) -> String {
        if self.rng.pct(70) {
            self.rng.range(0, 3).to_string()
        } else {
            self.int_expr(d)
        }
    }

    /// An `int` read from text, or computed by `Integer`'s and `Long`'s modelled methods.
    pub(super) fn text_int(&mut self, d: u32) -> String {
        let v = self.text_var();
        match self.rng.below(12) {
            0 | 1 => format!("{v}.length()"),
            2 => format!("{v}.indexOf('{}')", self.rng.pick(&['a', 'b', ' ', '1'])),
            3 => format!("{v}.indexOf({})", quoted(self.rng)),
            4 => format!("{v}.lastIndexOf('{}')", self.rng.pick(&['a', 'b', ' '])),
            5 => format!("{v}.charAt({})", self.small_index(d)),
            6 => format!("Integer.signum({v}.compareTo({}))", self.str_expr(d)),
            7 => format!("Integer.parseInt({v})"),
            8 => format!("{}.length()", self.str_expr(d.max(1))),
            9 => format!("Integer.compare({}, {})", self.int_expr(d), self.int_expr(d)),
            10 => format!("Long.compare({}, {})", self.long_expr(d), self.long_expr(d)),
            _ => match self.rng.below(2) {
                0 => format!("Integer.signum({})", self.int_expr(d)),
                _ => format!("Integer.bitCount({})", self.int_expr(d)),
            },
        }
    }

    /// A condition on text.
    pub(super) fn text_cond(&mut self, d: u32) -> String {
        let v = self.text_var();
        match self.rng.below(11) {
            0 => format!("{v}.isEmpty()"),
            1 => format!("{v}.equals({})", if self.rng.pct(70) { quoted(self.rng) } else { self.str_expr(d) }),
            2 => format!("{v}.equalsIgnoreCase({})", quoted(self.rng)),
            3 => format!("{v}.startsWith({})", quoted(self.rng)),
            4 => format!("{v}.endsWith({})", quoted(self.rng)),
            5 => format!("{v}.contains({})", quoted(self.rng)),
            6 => format!("({v} {} null)", self.rng.pick(&["==", "!="])),
            7 => format!(
                "({}.length() {} {})",
                self.str_expr(d),
                self.rng.pick(&["<", "<=", ">", "==", "!="]),
                self.rng.range(0, 3)
            ),
            8 => format!(
                "({v}.length() > {k} && {v}.charAt({k}) {} '{}')",
                self.rng.pick(&["==", "!=", "<", ">="]),
                self.rng.pick(&['a', 'b', 'A', ' ', '0']),
                k = self.rng.range(0, 2)
            ),
            9 => format!(
                "({v}.indexOf({}) {} {})",
                quoted(self.rng),
                self.rng.pick(&["<", ">", "==", ">="]),
                paren_neg(self.rng.range(-1, 2).to_string())
            ),
            _ => format!("({v}.compareTo({}) {} 0)", quoted(self.rng), self.rng.pick(&["<", ">", "==", "!="])),
        }
    }

    /// A condition of [`Gen::text_meet`] on `v`: what the string theory decides.
    fn meet_cond(&mut self, v: &str) -> String {
        let l = format!("\"{}\"", self.rng.pick(&MEET));
        let c = match self.rng.below(12) {
            0 => format!("{v}.startsWith({l})"),
            1 => format!("{v}.endsWith({l})"),
            2 => format!("{v}.contains({l})"),
            3 => format!("{v}.equals({l})"),
            4 => format!("{v}.isEmpty()"),
            5 | 6 => {
                format!("{v}.length() {} {}", self.rng.pick(&["<", "<=", ">", ">=", "==", "!="]), self.rng.range(0, 3))
            }
            7 => format!(
                "{v}.indexOf({l}) {} {}",
                self.rng.pick(&["<", ">", "==", ">="]),
                paren_neg(self.rng.range(-1, 2).to_string())
            ),
            8 => format!("{v}.equalsIgnoreCase({})", l.to_uppercase()),
            9 => format!("{v}.trim().isEmpty()"),
            10 => format!("{v}.toUpperCase().startsWith({})", l.to_uppercase()),
            _ => format!("{v}.concat({l}).length() {} {}", self.rng.pick(&["<", ">", "=="]), self.rng.range(0, 4)),
        };
        if self.rng.pct(25) {
            format!("!({c})")
        } else {
            c
        }
    }

    /// Two conditions on one text, one inside the other (`if (t.startsWith("ab")) { if
    /// (t.length() < 2) { ... } }`): the inner one contradicts the outer one, follows from it, or
    /// neither, by the strings' meaning alone. The statement `id` already begun.
    pub(super) fn text_meet(&mut self, depth: usize, id: usize) {
        let v = self.text_var();
        let guard = if self.rng.pct(50) { format!("{v} != null && ") } else { String::new() };
        let outer = self.meet_cond(&v);
        self.w(&format!("if ({guard}{outer}) {{\n"));
        self.indent(depth + 1);
        let inner_id = self.begin();
        let inner = self.meet_cond(&v);
        self.w(&format!("if ({inner}) {{\n"));
        self.block(depth + 2, 2);
        self.indent(depth + 1);
        self.w("}");
        self.end(inner_id);
        self.w("\n");
        self.indent(depth);
        self.w("}");
        self.end(id);
        self.w("\n");
    }

    /// A statement of the feature: a new `String` local, or an assignment to one.
    pub(super) fn text_stmt(&mut self) -> String {
        match self.var_of(JTy::Str, true).filter(|_| self.rng.pct(60)) {
            Some(v) => {
                let e = self.str_expr(2);
                format!("{v} = {e};")
            }
            None => {
                let n = self.name("u");
                let e = self.str_expr(2);
                self.vars.push((n.clone(), JTy::Str, true));
                format!("String {n} = {e};")
            }
        }
    }
}
