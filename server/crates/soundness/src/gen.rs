//! A generator of small random Java classes over the subset jreach models: `int`, `long`,
//! `boolean` and `String` parameters and locals, arithmetic with `/`, `%` and shifts, casts, `if`/`else`,
//! `&&`/`||`/`!`, `?:`, bounded `for`/`while`/`do` loops with `break`/`continue` (also labeled),
//! counted loops whose result a later condition tests (what proofs with exact loops decide),
//! longer loops whose result keeps a parity or a bound (what loop invariants decide),
//! `switch` with fall-through, `try`/`catch (ArithmeticException)`/`finally`, early `return`s and
//! calls to generated static helpers. Half the classes also hold state that loops, callees and
//! calls jreach cannot see change (the places where proofs once went wrong): `StringBuilder`s
//! (appended to, aliased, passed to a helper that appends), an object's field changed in place and
//! by a helper (the object made as `new Box()` runs its field initializers, initializer block and
//! constructors), a static field changed by a helper, an `int[]`, a `java.util.ArrayList` (which
//! jreach does not model), a lambda that writes a captured object when run, and an `Integer`
//! local that is stepped (`bi++`), compound-assigned and read into the `int`s, also through
//! `compareTo`, `equals`, `intValue` and `hashCode`.
//!
//! About a third of the classes (module `text`) give `m` a `String` parameter, last, which may
//! be null, and `String` locals, read and made by the `String` methods jreach models as string
//! terms, with conditions on one text nested in each other (dead or live by the strings'
//! meaning), and `Integer`'s and `Long`'s `compare`, `signum` and `bitCount`.
//!
//! About a quarter of the classes (module `shadow`) declare a constant `static final int lim` and,
//! at the end of `m`, an anonymous or local class whose method reads `lim` where the name denotes
//! something else: a local of `m` the object captured, the parameter of a static method `op`
//! that returns the object, or the field `lim` the class inherits from the class's `abstract
//! static class Base` (JLS 6.4.1); `m` calls the method. The condition on `lim`, written in the
//! method or in a helper method of the class it calls, is false for the constant and true for
//! what the name denotes.
//!
//! About a third of the classes (module `nested`) hold a nested `static` class for class invariants: a
//! `Pool` (`used`, `cap`), `Span` (`lo`, `hi`), `Latch` (`on`, `level`, sometimes `count`) or
//! `Cursor` (`lo`, `pos`, `hi`), never extending anything, whose 2 or 3 `private` instance fields
//! (`int`, and `boolean`) only its own constructors and instance methods write. Its 1 or 2
//! constructors assign every field (`this.f = ...`, clamped or not) from their `int` parameters
//! and literals, without calling a method or passing `this`; 2 to 4 mutators write the fields
//! (`f++`, `f -= k`, `f = g`, `this.f += x`) under guards over the fields and their `int`
//! parameters, some throwing `IllegalStateException`, some returning early, and keep an invariant
//! (`0 <= used && used <= cap`, `lo <= hi`, `on ==> level > 0`, `lo <= pos && pos <= hi`), or one
//! of them, a near twin, breaks it for some arguments or states (an off-by-one guard, a missing
//! overflow check); an unclamped constructor breaks it from the start for some arguments, and a
//! mutator may call a JDK method jreach cannot see into, sometimes while the invariant is broken
//! for a moment. The checkers (`int check()`, `int probe(int k)`) guard statements with the
//! invariant's negation (`if (used > cap) { ... }`, dead when it holds), with conditions that hold
//! in some states, and with a few that only look dead (`hi - lo < 0` wraps). The method under test
//! makes one or two objects from its `int`s, calls their methods in statements, conditions,
//! `try`/`catch (IllegalStateException)` and loops of at most 4 iterations the inputs decide, and
//! calls every checker before it returns. Nothing else reads or writes the fields, and the file
//! uses no reflection. In about half of them the class's own methods call each other while the
//! invariant is broken (`step(int k)` breaks it for some `k` and calls `settle()`, private or
//! not, which puts it right; `audit(int k)` calls a checker in between), `m` calls those on an
//! argument its inputs decide, and some mutators are `private`. In about two in five the class
//! also keeps a `java.util.List<Integer>` in a private field that its mutators append to and
//! its checkers test (`log == null`, `log.size() > 2`).
//!
//! Every class compiles with `javac`: locals are initialised where declared, `return`, `break` and
//! `continue` only end the block of an `if` without `else` (so no statement is unreachable in the
//! sense of JLS 14.22), and loop conditions always read a counter (never a constant expression).
//! Loops terminate: each has a counter that only the loop itself advances.
//!
//! The class is written twice at once: as is, and instrumented with a `hit(N);` call before the
//! N-th statement of the method under test or of the nested class's constructors and methods, for
//! runs on the JVM.

use std::ops::Range;

mod nested;
mod shadow;
mod text;

/// SplitMix64: small, fast, and reproducible from a seed.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// True with probability `p` percent.
    pub fn pct(&mut self, p: u64) -> bool {
        self.below(100) < p
    }

    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len() as u64) as usize]
    }

    /// A small integer in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
}

/// Types of generated parameters and locals.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum JTy {
    Int,
    Long,
    Bool,
    /// `String` (the text feature's parameter and locals: module `text`).
    Str,
}

impl JTy {
    pub fn java(self) -> &'static str {
        match self {
            JTy::Int => "int",
            JTy::Long => "long",
            JTy::Bool => "boolean",
            JTy::Str => "String",
        }
    }
}

/// An input for a `String` parameter (null, a literal of the text feature, or a short random
/// string).
pub fn text_input(rng: &mut Rng) -> Option<String> {
    text::input(rng)
}

/// One generated class.
#[derive(Clone, Debug)]
pub struct Generated {
    /// Class name.
    pub class: String,
    /// The class as written.
    pub source: String,
    /// The same class with `hit(i);` before statement `i` of `m` and a `HIT` array.
    pub instrumented: String,
    /// Byte ranges in `source` of the statements of `m` and of the nested class's constructors
    /// and methods, by instrumentation id.
    pub stmts: Vec<Range<usize>>,
    /// The parameter types of `m`.
    pub params: Vec<JTy>,
    /// The byte range in `source` of the nested class of the class-invariant feature, if any.
    pub nested: Option<Range<usize>>,
    /// The byte ranges in `source` of the classes of the shadowing feature (and of `op`, which
    /// returns one): code that `m`'s lowering does not follow (it runs when the object's method
    /// is called), so only the JVM runs its statements.
    pub unfollowed: Vec<Range<usize>>,
}

impl Generated {
    /// Whether the statement starting at byte `offset` is in the nested class of the
    /// class-invariant feature (in one of its constructors or methods).
    pub fn in_nested(&self, offset: usize) -> bool {
        self.nested.as_ref().is_some_and(|r| r.contains(&offset))
    }

    /// Whether the statement starting at byte `offset` is in code of the shadowing feature that
    /// `m`'s lowering does not follow.
    pub fn in_unfollowed(&self, offset: usize) -> bool {
        self.unfollowed.iter().any(|r| r.contains(&offset))
    }
}

struct Gen<'r> {
    rng: &'r mut Rng,
    plain: String,
    instr: String,
    stmts: Vec<Range<usize>>,
    /// Variables readable here, by type: (name, assignable).
    vars: Vec<(String, JTy, bool)>,
    fresh: u32,
    /// Enclosing loops (labels) and switches: for `break`/`continue`.
    loops: Vec<Option<String>>,
    switches: u32,
    helpers: Vec<String>,
    budget: i32,
    instrument: bool,
    /// Whether the method holds the state of [`STATE_DECLS`] (and the class its helpers).
    state: bool,
    /// The `StringBuilder` locals readable here.
    builders: Vec<String>,
    /// The nested class of the class-invariant feature, if the class has one.
    nested: Option<nested::Nested>,
    /// The method's locals holding objects of the nested class (once declared).
    objects: Vec<String>,
    /// See [`Generated::unfollowed`].
    unfollowed: Vec<Range<usize>>,
    /// Whether the method has the text feature's `String` parameter ([`text`]).
    text: bool,
}

/// The state a method of a stateful class declares first (see the module doc).
const STATE_DECLS: &str = "StringBuilder s0 = new StringBuilder(); Box bx = new Box(); int[] arr = new int[3]; \
java.util.List<Integer> list = new java.util.ArrayList<>(); F = 0; Integer bi = 0;";

/// The members a stateful class adds after its `Box` ([`box_class`]): the static field and the
/// helpers that change state behind the method's back.
const STATE_MEMBERS: &str = "    static int F;
    static void grow(StringBuilder s, int n) {
        if (n > 0) {
            s.append('x');
        }
    }
    static void bump(Box b) {
        b.v++;
    }
    static void bumpStatic() {
        F += 2;
    }
";

/// The object type of a stateful class: `Box` with an `int v` that `new Box()` sets through
/// what Java runs for it (JLS 12.5): field initializers and an instance initializer block in
/// textual order, an initializer reading a field its constructor's parameter shadows, and a
/// constructor delegating with `this(...)`, each present or not. The class is private or not
/// (the method's own `new Box()` runs its constructor either way).
fn box_class(rng: &mut Rng) -> String {
    let private = if rng.pct(50) { "private " } else { "" };
    let mut out = format!("    {private}static class Box {{\n");
    let k = |rng: &mut Rng| rng.range(-4, 9);
    if rng.pct(50) {
        out.push_str(&format!("        int v = {};\n", k(rng)));
    } else {
        out.push_str("        int v;\n");
    }
    if rng.pct(50) {
        out.push_str(&format!("        {{\n            v += {};\n        }}\n", k(rng)));
    }
    let reads = rng.pct(50);
    if reads {
        out.push_str(&format!("        int u = v + {};\n", k(rng)));
    }
    match rng.below(3) {
        0 => {}
        1 => out.push_str(&format!("        Box() {{\n            v *= {};\n        }}\n", k(rng))),
        _ => {
            let extra = if reads { " + u" } else { "" };
            out.push_str(&format!(
                "        Box() {{\n            this({});\n        }}\n        Box(int v) {{\n            this.v += v{extra};\n        }}\n",
                k(rng)
            ));
        }
    }
    out.push_str("    }\n");
    out
}

impl Gen<'_> {
    fn w(&mut self, s: &str) {
        self.plain.push_str(s);
        self.instr.push_str(s);
    }

    fn indent(&mut self, depth: usize) {
        let s = "    ".repeat(depth);
        self.w(&s);
    }

    /// Starts statement number `id` at the current position; returns the id.
    fn begin(&mut self) -> usize {
        let id = self.stmts.len();
        self.stmts.push(self.plain.len()..self.plain.len());
        if self.instrument {
            self.instr.push_str(&format!("hit({id}); "));
        }
        id
    }

    fn end(&mut self, id: usize) {
        self.stmts[id].end = self.plain.len();
    }

    fn name(&mut self, prefix: &str) -> String {
        self.fresh += 1;
        format!("{prefix}{}", self.fresh)
    }

    fn var_of(&mut self, ty: JTy, assignable: bool) -> Option<String> {
        let c: Vec<&(String, JTy, bool)> = self.vars.iter().filter(|v| v.1 == ty && (!assignable || v.2)).collect();
        if c.is_empty() {
            None
        } else {
            Some(self.rng.pick(&c).0.clone())
        }
    }

    // ---- expressions -------------------------------------------------------------------

    fn int_const(&mut self) -> String {
        match self.rng.below(10) {
            0 => "Integer.MAX_VALUE".into(),
            1 => "Integer.MIN_VALUE".into(),
            2 => self.rng.range(-1000, 1000).to_string(),
            _ => self.rng.range(-5, 9).to_string(),
        }
    }

    fn int_expr(&mut self, d: u32) -> String {
        if d > 0 && self.text_here() && self.rng.pct(12) {
            return self.text_int(d - 1);
        }
        if d == 0 || self.rng.pct(30) {
            return match self.var_of(JTy::Int, false) {
                Some(v) if self.rng.pct(70) => v,
                _ => paren_neg(self.int_const()),
            };
        }
        match self.rng.below(14) {
            0..=5 => {
                let op =
                    *self.rng.pick(&["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", ">>>", "+", "-", "/", "%"]);
                format!("({} {op} {})", self.int_expr(d - 1), self.int_expr(d - 1))
            }
            6 => format!("(-{})", self.int_expr(d - 1)),
            7 => format!("(~{})", self.int_expr(d - 1)),
            8 => format!("((int) {})", self.long_expr(d - 1)),
            9 => format!("(({}) {})", self.rng.pick(&["byte", "short", "char"]), self.int_expr(d - 1)),
            10 => format!("({} ? {} : {})", self.bool_expr(d - 1), self.int_expr(d - 1), self.int_expr(d - 1)),
            11 if !self.helpers.is_empty() => {
                let h = self.rng.pick(&self.helpers).clone();
                format!("{h}({}, {})", self.int_expr(d - 1), self.int_expr(d - 1))
            }
            12 => {
                let f = *self.rng.pick(&["Math.abs", "Math.max", "Math.min", "Math.floorMod"]);
                if f == "Math.abs" {
                    format!("{f}({})", self.int_expr(d - 1))
                } else {
                    format!("{f}({}, {})", self.int_expr(d - 1), self.int_expr(d - 1))
                }
            }
            // JDK methods the lowering models as IR: the overflow checks of `Math`, and
            // `Character`'s code point arithmetic and digits.
            _ => match self.rng.below(10) {
                0 => {
                    let f = *self.rng.pick(&["Math.addExact", "Math.subtractExact", "Math.multiplyExact"]);
                    format!("{f}({}, {})", self.int_expr(d - 1), self.int_expr(d - 1))
                }
                1 => {
                    let f = *self.rng.pick(&["Math.negateExact", "Math.incrementExact", "Math.decrementExact"]);
                    format!("{f}({})", self.int_expr(d - 1))
                }
                2 => format!("Math.toIntExact({})", self.long_expr(d - 1)),
                3 => format!("Character.charCount({})", self.int_expr(d - 1)),
                4 => {
                    let f = *self.rng.pick(&[
                        "Character.isHighSurrogate",
                        "Character.isLowSurrogate",
                        "Character.isSurrogate",
                    ]);
                    format!(
                        "({f}((char) {}) ? {} : {})",
                        self.int_expr(d - 1),
                        self.int_expr(d - 1),
                        self.int_expr(d - 1)
                    )
                }
                5 => format!("Character.compare((char) {}, (char) {})", self.int_expr(d - 1), self.int_expr(d - 1)),
                6 => format!("Character.toUpperCase((char) {})", self.int_expr(d - 1)),
                7 => {
                    let radix = match self.rng.below(3) {
                        0 => self.int_expr(d - 1),
                        _ => self.rng.pick(&["2", "10", "16", "36"]).to_string(),
                    };
                    format!("Character.digit((char) {}, {radix})", self.int_expr(d - 1))
                }
                8 => format!("Character.forDigit({}, {})", self.int_expr(d - 1), self.int_expr(d - 1)),
                _ => self.int_expr(d - 1),
            },
        }
    }

    fn long_expr(&mut self, d: u32) -> String {
        if d == 0 || self.rng.pct(30) {
            return match self.var_of(JTy::Long, false) {
                Some(v) if self.rng.pct(70) => v,
                _ => match self.rng.below(8) {
                    0 => "Long.MAX_VALUE".into(),
                    1 => "Long.MIN_VALUE".into(),
                    2 => format!("{}L", self.rng.range(0, 5_000_000_000)),
                    _ => format!("{}L", self.rng.range(0, 9)),
                },
            };
        }
        match self.rng.below(8) {
            0..=3 => {
                let op = *self.rng.pick(&["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", ">>>"]);
                let rhs = if matches!(op, "<<" | ">>" | ">>>") && self.rng.pct(50) {
                    self.int_expr(d - 1)
                } else {
                    self.long_expr(d - 1)
                };
                format!("({} {op} {rhs})", self.long_expr(d - 1))
            }
            4 => format!("((long) {})", self.int_expr(d - 1)),
            5 => format!("(-{})", self.long_expr(d - 1)),
            6 => format!("({} ? {} : {})", self.bool_expr(d - 1), self.long_expr(d - 1), self.long_expr(d - 1)),
            _ => self.long_expr(d - 1),
        }
    }

    fn bool_expr(&mut self, d: u32) -> String {
        if d == 0 || self.rng.pct(20) {
            return match self.var_of(JTy::Bool, false) {
                Some(v) if self.rng.pct(80) => v,
                _ => self.cmp(0),
            };
        }
        match self.rng.below(8) {
            0..=3 => self.cmp(d - 1),
            4 => format!("({} && {})", self.bool_expr(d - 1), self.bool_expr(d - 1)),
            5 => format!("({} || {})", self.bool_expr(d - 1), self.bool_expr(d - 1)),
            6 => format!("(!{})", self.bool_expr(d - 1)),
            // Floating-point tests the lowering models as IR, on quotients that may be NaN or
            // infinite (`0.0 / 0`, `1.0 / 0`).
            _ if self.rng.pct(25) => {
                let (x, y) = (self.int_expr(d - 1), self.int_expr(d - 1));
                match self.rng.below(4) {
                    0 => {
                        let f = *self.rng.pick(&["Double.isNaN", "Double.isInfinite", "Double.isFinite"]);
                        format!("{f}((double) {x} / {y})")
                    }
                    1 => {
                        let f = *self.rng.pick(&["Float.isNaN", "Float.isInfinite", "Float.isFinite"]);
                        format!("{f}((float) {x} / {y})")
                    }
                    _ => {
                        let f = *self.rng.pick(&["Math.max", "Math.min"]);
                        let op = *self.rng.pick(&["<", "<=", ">", ">=", "==", "!="]);
                        let z = self.int_expr(d - 1);
                        format!("({f}((double) {x}, (double) {y} / {z}) {op} {x})")
                    }
                }
            }
            _ => format!(
                "({} {} {})",
                self.bool_expr(d - 1),
                self.rng.pick(&["==", "!=", "^", "&", "|"]),
                self.bool_expr(d - 1)
            ),
        }
    }

    /// A comparison, mostly of a variable against a small constant (so that conditions on the same
    /// variable meet and sometimes contradict each other).
    fn cmp(&mut self, d: u32) -> String {
        if self.text_here() && self.rng.pct(25) {
            return self.text_cond(d.saturating_sub(1));
        }
        let op = *self.rng.pick(&["<", "<=", ">", ">=", "==", "!="]);
        if !self.objects.is_empty() && self.rng.pct(10) {
            // A checker of the nested class called in a condition of the method under test.
            let n = self.nested.clone().expect("a nested class");
            let q = self.rng.pick(&self.objects).clone();
            let (name, np) = self.rng.pick(&n.checkers).clone();
            let arg = if np == 0 { String::new() } else { self.var_of(JTy::Int, false).unwrap_or_else(|| "a0".into()) };
            let c = self.rng.range(-1, 4);
            return format!("({q}.{name}({arg}) {op} {})", paren_neg(c.to_string()));
        }
        if self.state && self.rng.pct(35) {
            let c = self.rng.range(-1, 4);
            let read = match self.rng.below(7) {
                0 | 1 => format!("{}.length()", self.rng.pick(&self.builders).clone()),
                // A character of a builder's text (its length and characters asked again
                // elsewhere of the same text).
                6 => {
                    let b = self.rng.pick(&self.builders).clone();
                    let k = self.rng.below(3);
                    format!("({b}.length() > {k} ? {b}.toString().charAt({k}) - 'a' : -1)")
                }
                2 => "bx.v".to_string(),
                3 => "F".to_string(),
                4 => format!("arr[{}]", self.rng.below(3)),
                _ => "list.size()".to_string(),
            };
            return format!("({read} {op} {})", paren_neg(c.to_string()));
        }
        if self.rng.pct(60) {
            let c = self.rng.range(-3, 6);
            if let Some(v) = self.var_of(JTy::Int, false).filter(|_| self.rng.pct(75)) {
                return format!("({v} {op} {})", paren_neg(c.to_string()));
            }
            if let Some(v) = self.var_of(JTy::Long, false) {
                return format!("({v} {op} {})", paren_neg(format!("{c}L")));
            }
        }
        if self.rng.pct(70) {
            format!("({} {op} {})", self.int_expr(d), self.int_expr(d))
        } else {
            format!("({} {op} {})", self.long_expr(d), self.long_expr(d))
        }
    }

    // ---- statements --------------------------------------------------------------------

    fn block(&mut self, depth: usize, n: u32) {
        let saved = self.vars.len();
        let saved_builders = self.builders.len();
        let count = 1 + self.rng.below(n as u64) as u32;
        for _ in 0..count {
            if self.budget <= 0 {
                break;
            }
            self.stmt(depth);
        }
        // An early exit, only ever as the last statement of an `if` without `else`.
        if self.rng.pct(15) {
            self.indent(depth);
            let id = self.begin();
            let c = self.bool_expr(2);
            self.w(&format!("if ({c}) {{\n"));
            self.indent(depth + 1);
            let id2 = self.begin();
            let exits = self.exit_stmt();
            self.w(&exits);
            self.end(id2);
            self.w("\n");
            self.indent(depth);
            self.w("}");
            self.end(id);
            self.w("\n");
        }
        self.vars.truncate(saved);
        self.builders.truncate(saved_builders);
    }

    fn exit_stmt(&mut self) -> String {
        let mut options = vec![0];
        if !self.loops.is_empty() {
            options.extend([1, 2]);
        }
        if self.switches > 0 || !self.loops.is_empty() {
            options.push(3);
        }
        match *self.rng.pick(&options) {
            0 => format!("return {};", self.int_expr(2)),
            1 => match self.loops.iter().rev().find_map(|l| l.clone()).filter(|_| self.rng.pct(40)) {
                Some(l) => format!("continue {l};"),
                None => "continue;".into(),
            },
            2 => match self.loops.iter().rev().find_map(|l| l.clone()).filter(|_| self.rng.pct(40)) {
                Some(l) => format!("break {l};"),
                None => "break;".into(),
            },
            _ => "break;".into(),
        }
    }

    /// `int acc = start;` (the statement `id` already begun), a loop `header` whose body is `step`,
    /// and `if (cond) { ... }`: a loop's result tested after it. `acc` stays a variable of the
    /// method.
    #[allow(clippy::too_many_arguments)]
    fn loop_then_test(&mut self, depth: usize, id: usize, acc: &str, start: i64, header: &str, step: &str, cond: &str) {
        self.w(&format!("int {acc} = {start};"));
        self.end(id);
        self.w("\n");
        self.indent(depth);
        let id2 = self.begin();
        self.w(&format!("{header} {{\n"));
        self.indent(depth + 1);
        let id3 = self.begin();
        self.w(step);
        self.end(id3);
        self.w("\n");
        self.indent(depth);
        self.w("}");
        self.end(id2);
        self.w("\n");
        self.indent(depth);
        let id4 = self.begin();
        self.w(&format!("if ({cond}) {{\n"));
        self.block(depth + 1, 2);
        self.indent(depth);
        self.w("}");
        self.end(id4);
        self.w("\n");
        self.vars.push((acc.to_string(), JTy::Int, true));
    }

    fn stmt(&mut self, depth: usize) {
        self.budget -= 1;
        self.indent(depth);
        let nested = depth < 5 && self.budget > 2;
        let kind = if nested { self.rng.below(22) } else { self.rng.below(6) };
        let id = self.begin();
        if self.state && self.rng.pct(30) {
            self.state_stmt();
            self.end(id);
            self.w("\n");
            return;
        }
        if !self.objects.is_empty() && self.rng.pct(30) {
            self.nested_stmt(depth, id);
            return;
        }
        if nested && self.text_here() && self.rng.pct(8) {
            self.text_meet(depth, id);
            return;
        }
        if self.text_here() && self.rng.pct(12) {
            let t = self.text_stmt();
            self.w(&t);
            self.end(id);
            self.w("\n");
            return;
        }
        match kind {
            0..=2 => {
                let ty = *self.rng.pick(&[JTy::Int, JTy::Int, JTy::Long, JTy::Bool]);
                match self.var_of(ty, true) {
                    Some(v) => {
                        let op = match ty {
                            JTy::Bool => *self.rng.pick(&["=", "&=", "|=", "^="]),
                            _ => *self.rng.pick(&[
                                "=", "=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", ">>>=", "&=", "|=", "^=",
                            ]),
                        };
                        let e = match ty {
                            JTy::Int if self.rng.pct(20) => {
                                let l = self.long_expr(2);
                                if op == "=" {
                                    format!("(int) {l}")
                                } else {
                                    l
                                }
                            }
                            JTy::Int => self.int_expr(3),
                            JTy::Long => self.long_expr(3),
                            JTy::Bool => self.bool_expr(2),
                            JTy::Str => self.str_expr(2),
                        };
                        self.w(&format!("{v} {op} {e};"));
                    }
                    None => self.w(";"),
                }
            }
            3 => {
                let v = self.var_of(JTy::Int, true).unwrap_or_else(|| "a0".into());
                let op = *self.rng.pick(&["++", "--"]);
                self.w(&format!("{v}{op};"));
            }
            4 => {
                let n = self.name("t");
                let e = self.int_expr(3);
                self.w(&format!("int {n} = {e};"));
                self.vars.push((n, JTy::Int, true));
            }
            5 => {
                let v = self.var_of(JTy::Int, true).unwrap_or_else(|| "a0".into());
                let h = if self.helpers.is_empty() { None } else { Some(self.rng.pick(&self.helpers).clone()) };
                match h {
                    Some(h) => {
                        let (x, y) = (self.int_expr(2), self.int_expr(2));
                        self.w(&format!("{v} = {h}({x}, {y});"))
                    }
                    None => self.w(&format!("{v} = {v} / 2;")),
                }
            }
            6..=8 => {
                let c = self.bool_expr(3);
                self.w(&format!("if ({c}) {{\n"));
                self.block(depth + 1, 3);
                self.indent(depth);
                if self.rng.pct(50) {
                    self.w("} else {\n");
                    self.block(depth + 1, 3);
                    self.indent(depth);
                }
                self.w("}");
            }
            9..=10 => {
                let i = self.name("i");
                let n = self.rng.range(0, 4);
                let label = self.rng.pct(25).then(|| self.name("L"));
                if let Some(l) = &label {
                    self.w(&format!("{l}: "));
                }
                self.w(&format!("for (int {i} = 0; {i} < {n}; {i}++) {{\n"));
                self.vars.push((i.clone(), JTy::Int, false));
                self.loops.push(label);
                self.block(depth + 1, 3);
                self.loops.pop();
                self.vars.retain(|v| v.0 != i);
                self.indent(depth);
                self.w("}");
            }
            11 => {
                // The counter is declared by the statement before the loop.
                let w = self.name("w");
                let n = self.rng.range(0, 4);
                self.w(&format!("int {w} = 0;"));
                self.end(id);
                self.w("\n");
                self.indent(depth);
                let id2 = self.begin();
                let c = self.bool_expr(2);
                let is_do = self.rng.pct(40);
                if is_do {
                    self.w("do {\n");
                } else {
                    self.w(&format!("while ({w} < {n} && {c}) {{\n"));
                }
                self.indent(depth + 1);
                let id3 = self.begin();
                self.w(&format!("{w}++;"));
                self.end(id3);
                self.w("\n");
                self.vars.push((w.clone(), JTy::Int, false));
                self.loops.push(None);
                self.block(depth + 1, 3);
                self.loops.pop();
                self.indent(depth);
                if is_do {
                    self.w(&format!("}} while ({w} < {n} && {c});"));
                } else {
                    self.w("}");
                }
                self.end(id2);
                self.w("\n");
                return;
            }
            12..=13 => {
                // The selector may be a `char` (a conditional of chars), whose case labels cannot be
                // negative: switch on its int value.
                let sel = self.int_expr(2);
                self.w(&format!("switch ((int) ({sel})) {{\n"));
                let mut cases: Vec<i64> = (0..1 + self.rng.below(4)).map(|_| self.rng.range(-2, 5)).collect();
                cases.sort();
                cases.dedup();
                let default_at = self.rng.pct(60).then(|| self.rng.below(cases.len() as u64 + 1) as usize);
                self.switches += 1;
                for i in 0..=cases.len() {
                    if default_at == Some(i) {
                        self.indent(depth + 1);
                        self.w("default:\n");
                        self.switch_group(depth);
                    }
                    if let Some(c) = cases.get(i) {
                        self.indent(depth + 1);
                        self.w(&format!("case {c}:\n"));
                        self.switch_group(depth);
                    }
                }
                self.switches -= 1;
                self.indent(depth);
                self.w("}");
            }
            14..=16 => {
                let e = self.name("e");
                self.w("try {\n");
                self.block(depth + 1, 3);
                self.indent(depth);
                let fin = self.rng.pct(25);
                if !fin || self.rng.pct(70) {
                    // A null builder's text would throw NullPointerException: jreach knows
                    // a builder's text is never null, so its handler is dead unless a call
                    // it cannot see throws.
                    let class = if self.text_here() && self.rng.pct(50) {
                        // What the text feature's calls throw.
                        *self.rng.pick(&[
                            "NumberFormatException",
                            "StringIndexOutOfBoundsException",
                            "NullPointerException",
                            "IllegalArgumentException",
                        ])
                    } else if self.rng.pct(25) {
                        "NullPointerException"
                    } else {
                        "ArithmeticException"
                    };
                    self.w(&format!("}} catch ({class} {e}) {{\n"));
                    self.block(depth + 1, 2);
                    self.indent(depth);
                }
                if fin {
                    self.w("} finally {\n");
                    // No early exits from finally (they would swallow exceptions: legal, but
                    // javac warns).
                    let saved = (std::mem::take(&mut self.loops), self.switches);
                    self.switches = 0;
                    self.block(depth + 1, 2);
                    self.loops = saved.0;
                    self.switches = saved.1;
                    self.indent(depth);
                }
                self.w("}");
            }
            17 => {
                let c = self.bool_expr(3);
                let v = self.var_of(JTy::Int, true).unwrap_or_else(|| "a0".into());
                let (x, y) = (self.int_expr(2), self.int_expr(2));
                self.w(&format!("{v} = {c} ? {x} : {y};"));
            }
            18 => {
                // Arrays jreach does not track element by element: their lengths and elements
                // still run, and a negative length (or an element dividing by zero) throws.
                let (x, y) = (self.int_expr(2), self.int_expr(2));
                if self.rng.pct(50) {
                    let g = self.name("g");
                    self.w(&format!("int[][] {g} = new int[Math.floorMod({x}, 4) - 1][Math.floorMod({y}, 3)];"));
                } else {
                    let r = self.name("r");
                    self.w(&format!("java.util.Random[] {r} = {{new java.util.Random({x}), null}};"));
                }
            }
            19 => {
                // A counted loop whose effect only exact loops know (`acc` after `n` additions
                // of `c`: proofs unroll bounded loops), then a condition on it that holds or not
                // by construction.
                let (acc, k) = (self.name("acc"), self.name("k"));
                let (n, c) = (self.rng.range(0, 5), self.rng.range(-3, 3));
                let rhs = n * c + if self.rng.pct(50) { 0 } else { self.rng.range(-1, 1) };
                let op = *self.rng.pick(&["==", "!=", "<", ">", "<=", ">="]);
                let header = format!("for (int {k} = 0; {k} < {n}; {k}++)");
                self.loop_then_test(
                    depth,
                    id,
                    &acc,
                    0,
                    &header,
                    &format!("{acc} += {c};"),
                    &format!("{acc} {op} {rhs}"),
                );
                return;
            }
            20 => {
                // A loop too long to unroll whose result keeps a parity or a bound (loop
                // invariants), then a condition on it that holds or not by construction.
                let (acc, k) = (self.name("acc"), self.name("k"));
                let start = self.rng.range(-3, 3);
                let step = *self.rng.pick(&[2, 4, -2, 3, 0, 1, 6]);
                let cond = match self.rng.below(6) {
                    0 => format!("({acc} & 1) == {}", self.rng.range(0, 1)),
                    1 => format!("{acc} % 2 != 0"),
                    2 => format!("{acc} < {start}"),
                    3 => format!("{acc} > {start}"),
                    4 => format!("{acc} == {}", start + self.rng.range(-1, 1)),
                    _ => format!("({acc} & 3) == {}", self.rng.range(0, 3)),
                };
                let header = format!("for (int {k} = 0; {k} < Math.floorMod(a0, 20); {k}++)");
                self.loop_then_test(depth, id, &acc, start, &header, &format!("{acc} += {step};"), &cond);
                return;
            }
            _ => {
                self.w("{\n");
                self.block(depth + 1, 3);
                self.indent(depth);
                self.w("}");
            }
        }
        self.end(id);
        self.w("\n");
    }

    /// A statement that changes the method's state (see [`STATE_DECLS`]).
    fn state_stmt(&mut self) {
        let b = self.rng.pick(&self.builders).clone();
        let text = match self.rng.below(20) {
            0 | 1 => format!("{b}.append({});", self.int_expr(1)),
            2 => format!("{b}.append('{}');", *self.rng.pick(&["a", "b", "}"])),
            3 => format!("{b}.setLength(0);"),
            4 => format!("{b}.insert(0, 'z').append(true);"),
            5 => format!("grow({b}, {});", self.int_expr(1)),
            6 => {
                let n = self.name("s");
                self.builders.push(n.clone());
                format!("StringBuilder {n} = {b};")
            }
            7 => format!("bx.v += {};", self.int_expr(1)),
            8 => "bump(bx);".to_string(),
            9 => "bumpStatic();".to_string(),
            10 => format!("F = {};", self.int_expr(1)),
            11 => format!("arr[Math.floorMod({}, 3)] = {};", self.int_expr(1), self.int_expr(1)),
            12 => format!("list.add((int) ({}));", self.int_expr(1)),
            13 => "list.clear();".to_string(),
            14 => "((Runnable) () -> bx.v += 3).run();".to_string(),
            15 => self.rng.pick(&["bi++;", "bi--;", "++bi;", "--bi;"]).to_string(),
            16 => {
                // `bi = (short) x` would not compile: assignment boxes only an `int`.
                match *self.rng.pick(&["+=", "-=", "*=", "="]) {
                    "=" => format!("bi = (int) ({});", self.int_expr(1)),
                    op => format!("bi {op} {};", self.int_expr(1)),
                }
            }
            17 => {
                // Read through the box's own methods too (the lowering models them).
                let v = self.var_of(JTy::Int, true).unwrap_or_else(|| "a0".into());
                match self.rng.below(6) {
                    0 => format!("{v} = bi.compareTo((int) ({}));", self.int_expr(1)),
                    1 => format!("{v} = bi.equals((int) ({})) ? 1 : 0;", self.int_expr(1)),
                    2 => format!("{v} = bi.compareTo(Integer.valueOf({}));", self.int_expr(1)),
                    3 => format!("{v} = bi.intValue() + bi.hashCode();"),
                    4 => format!("{v} = bi.equals(bi) ? bi.compareTo(bi) : 7;"),
                    _ => format!("{v} = bi;"),
                }
            }
            18 => {
                // A builder's text, read after whatever changed it (never null).
                let v = self.var_of(JTy::Int, true).unwrap_or_else(|| "a0".into());
                format!("{v} = {b}.toString().length();")
            }
            _ => format!("arr[{}]++;", self.rng.below(3)),
        };
        self.w(&text);
    }

    fn switch_group(&mut self, depth: usize) {
        let n = self.rng.below(3);
        let saved = self.vars.len();
        let saved_builders = self.builders.len();
        for _ in 0..n {
            if self.budget > 0 {
                self.stmt(depth + 2);
            }
        }
        self.vars.truncate(saved);
        self.builders.truncate(saved_builders);
        if self.rng.pct(65) {
            self.indent(depth + 2);
            let id = self.begin();
            self.w("break;");
            self.end(id);
            self.w("\n");
        }
    }
}

/// `-3` as `(-3)`, so that it can follow any operator.
fn paren_neg(s: String) -> String {
    if s.starts_with('-') {
        format!("({s})")
    } else {
        s
    }
}

/// Generates class `class` with static helpers and a method `m` of about `size` statements.
pub fn generate(rng: &mut Rng, class: &str, size: i32) -> Generated {
    let nparams = 1 + rng.below(3) as usize;
    let mut params: Vec<JTy> = (0..nparams).map(|_| *rng.pick(&[JTy::Int, JTy::Int, JTy::Long, JTy::Bool])).collect();
    // Drawn on a side stream, as the other features below.
    let text = Rng::new(rng.clone().next_u64() ^ 0x7465_7874).pct(35);
    if text {
        params.push(JTy::Str);
    }
    let mut g = Gen {
        rng,
        plain: String::new(),
        instr: String::new(),
        stmts: Vec::new(),
        vars: Vec::new(),
        fresh: 0,
        loops: Vec::new(),
        switches: 0,
        helpers: Vec::new(),
        budget: 0,
        instrument: false,
        state: false,
        builders: vec!["s0".to_string()],
        nested: None,
        objects: Vec::new(),
        unfollowed: Vec::new(),
        text: false,
    };
    let state = g.rng.pct(50);
    // Drawn on a side stream, so that a class without the nested class is the one earlier
    // versions generated from the same seed.
    let with_nested = Rng::new(g.rng.clone().next_u64() ^ 0x6E65_7374_6564).pct(30);
    let with_shadow = Rng::new(g.rng.clone().next_u64() ^ 0x7368_6164_6F77).pct(25);
    g.w(&format!("class {class} {{\n"));
    if state {
        let b = box_class(g.rng);
        g.w(&b);
        g.w(STATE_MEMBERS);
    }
    g.instr.push_str("    static boolean[] HIT = new boolean[4096];\n    static void hit(int i) { HIT[i] = true; }\n");
    // Helpers: small, loop-free, possibly dividing by zero.
    let nh = g.rng.below(3);
    for k in 0..nh {
        let h = format!("h{k}");
        g.vars = vec![("a".into(), JTy::Int, true), ("b".into(), JTy::Int, true)];
        g.w(&format!("    static int {h}(int a, int b) {{\n"));
        g.budget = 3;
        let c = g.bool_expr(2);
        let (x, y) = (g.int_expr(2), g.int_expr(2));
        g.w(&format!("        if ({c}) {{\n            return {x};\n        }}\n        return {y};\n    }}\n"));
        g.helpers.push(h);
    }
    // The members of the shadowing feature.
    let shadow = with_shadow.then(|| g.shadow_members());
    // The nested class of the class-invariant feature.
    let mut nested_range = None;
    if with_nested {
        let start = g.plain.len();
        let n = g.nested_class();
        nested_range = Some(start..g.plain.len());
        g.nested = Some(n);
    }
    // The method under test.
    let names: Vec<String> = (0..params.len()).map(|i| format!("p{i}")).collect();
    let sig: Vec<String> = params.iter().zip(&names).map(|(t, n)| format!("{} {n}", t.java())).collect();
    g.w(&format!("    static int m({}) {{\n", sig.join(", ")));
    g.vars = params.iter().zip(&names).map(|(t, n)| (n.clone(), *t, true)).collect();
    g.instrument = true;
    let locals = [("a0", JTy::Int), ("a1", JTy::Int), ("b0", JTy::Long), ("c0", JTy::Bool)];
    for (n, t) in locals {
        g.indent(2);
        let id = g.begin();
        let e = match t {
            JTy::Int => g.int_expr(1),
            JTy::Long => g.long_expr(1),
            JTy::Bool => g.bool_expr(1),
            JTy::Str => unreachable!("the fixed locals are numbers and a boolean"),
        };
        g.w(&format!("{} {n} = {e};", t.java()));
        g.end(id);
        g.w("\n");
        g.vars.push((n.to_string(), t, true));
    }
    if text {
        g.text = true;
        g.indent(2);
        let id = g.begin();
        let t = g.text_stmt();
        g.w(&t);
        g.end(id);
        g.w("\n");
    }
    if state {
        g.indent(2);
        let id = g.begin();
        g.w(STATE_DECLS);
        g.end(id);
        g.w("\n");
        g.state = true;
    }
    if let Some(n) = g.nested.clone() {
        // One or two objects, then calls on them all through the method, and every checker
        // called at the end.
        for k in 0..1 + g.rng.below(2) {
            let q = format!("q{k}");
            g.indent(2);
            let id = g.begin();
            let e = g.nested_new();
            g.w(&format!("{} {q} = {e};", n.class));
            g.end(id);
            g.w("\n");
            g.objects.push(q);
        }
    }
    g.budget = size;
    while g.budget > 0 {
        g.stmt(2);
    }
    if let Some(n) = g.nested.clone() {
        // A few more calls, so that every run that gets here changes the objects, then every
        // checker.
        for _ in 0..1 + g.rng.below(3) {
            g.indent(2);
            let id = g.begin();
            g.nested_stmt(2, id);
        }
        // The methods that call the class's own methods, on an argument the inputs decide
        // (from a class without them, nothing is drawn).
        for (name, _, _) in n.methods.iter().filter(|m| nested::OWN_CALLERS.contains(&m.0.as_str())) {
            let q = g.rng.pick(&g.objects).clone();
            let arg = g.var_of(JTy::Int, false).unwrap_or_else(|| "a0".into());
            g.indent(2);
            let id = g.begin();
            g.w(&format!("{q}.{name}({arg});"));
            g.end(id);
            g.w("\n");
        }
        for (name, np) in &n.checkers {
            let q = g.rng.pick(&g.objects).clone();
            let arg = if *np == 0 { String::new() } else { g.var_of(JTy::Int, false).unwrap_or_else(|| "a0".into()) };
            g.indent(2);
            let id = g.begin();
            g.w(&format!("a0 += {q}.{name}({arg});"));
            g.end(id);
            g.w("\n");
        }
    }
    if let Some(s) = shadow {
        g.shadow_stmt(2, s);
    }
    g.indent(2);
    let id = g.begin();
    g.w("return (int) (a0 + a1 + b0) + (c0 ? 1 : 0);");
    g.end(id);
    g.w("\n    }\n}\n");
    Generated {
        class: class.to_string(),
        source: g.plain,
        instrumented: g.instr,
        stmts: g.stmts,
        params,
        nested: nested_range,
        unfollowed: g.unfollowed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn some_classes_hold_state() {
        let stateful =
            (0..20).map(|s| generate(&mut Rng::new(s), "G", 12)).filter(|g| g.source.contains("StringBuilder"));
        assert!(stateful.count() >= 3, "about half the classes hold state");
    }

    #[test]
    fn about_a_quarter_of_the_classes_shadow_their_constant_in_code_m_hands_on() {
        let gs: Vec<Generated> = (0..200).map(|s| generate(&mut Rng::new(s), "G", 12)).collect();
        let with: Vec<&Generated> = gs.iter().filter(|g| g.source.contains("static final int lim = ")).collect();
        assert!((30..=70).contains(&with.len()), "{} of 200", with.len());
        for shape in [
            "a0 += new java.util.function.IntUnaryOperator() {",
            "a0 += new Base() {",
            "class Local extends Base {",
            "static java.util.function.IntUnaryOperator op(int lim) {",
            "if (over()) {",
        ] {
            assert!(with.iter().any(|g| g.source.contains(shape)), "no class writes {shape}");
        }
        for g in &with {
            // The code reading `lim` is what the lowering does not follow, and is instrumented.
            let [r] = &g.unfollowed[..] else { panic!("one class of the feature: {:?}", g.unfollowed) };
            assert!(g.source[r.clone()].contains("return lim > ") || g.source[r.clone()].contains("if (lim > "));
            assert!(g.stmts.iter().any(|s| r.contains(&s.start)), "{}", g.source);
            if g.source.contains(" op(int lim)") {
                // `op`'s statements run on the JVM like `m`'s, so they are instrumented too.
                assert!(g.instrumented.contains("); return new java.util.function.IntUnaryOperator() {"));
                assert!(g.source.contains("a0 += op(a1).applyAsInt(a0);"));
            }
        }
        assert!(gs.iter().filter(|g| !g.source.contains("lim")).all(|g| g.unfollowed.is_empty()));
    }

    #[test]
    fn the_integer_local_is_read_through_its_methods() {
        let sources: Vec<String> = (0..200).map(|s| generate(&mut Rng::new(s), "G", 12).source).collect();
        for call in ["bi.compareTo(", "bi.equals(", "bi.intValue()"] {
            assert!(sources.iter().any(|s| s.contains(call)), "no class calls {call}");
        }
    }

    #[test]
    fn some_classes_make_arrays_jreach_does_not_track() {
        let sources: Vec<String> = (0..200).map(|s| generate(&mut Rng::new(s), "G", 12).source).collect();
        for shape in ["new int[Math.floorMod(", "java.util.Random[] r"] {
            assert!(sources.iter().filter(|s| s.contains(shape)).count() >= 5, "few classes write {shape}");
        }
    }

    #[test]
    fn about_a_third_of_the_classes_have_a_nested_class_only_it_writes() {
        let all: Vec<Generated> = (0..300).map(|s| generate(&mut Rng::new(s), "G", 12)).collect();
        let with: Vec<&Generated> = all.iter().filter(|g| g.nested.is_some()).collect();
        assert!((60..=120).contains(&with.len()), "{} of 300 classes have a nested class", with.len());
        let fields = ["used", "cap", "lo", "hi", "pos", "on", "level", "count"];
        for g in &with {
            let r = g.nested.clone().expect("a nested class");
            let (inside, outside) = (&g.source[r.clone()], format!("{}{}", &g.source[..r.start], &g.source[r.end..]));
            assert!(inside.contains("        private int "), "{inside}");
            // `this` never escapes (nor is the class a subclass).
            for escape in ["(this)", "(this,", " this)", " this,", "= this;", "extends"] {
                assert!(!inside.contains(escape), "{inside}");
            }
            assert!(g.stmts.iter().any(|s| r.contains(&s.start)), "the nested class's statements have ids");
            // Only the nested class reads or writes its fields; `m` makes objects and calls.
            for f in fields {
                for q in ["q0.", "q1."] {
                    assert!(!outside.contains(&format!("{q}{f} ")), "{}", g.source);
                }
            }
            assert!(outside.contains("q0 = new ") && outside.contains("a0 += q"), "{}", g.source);
        }
        let sources: Vec<&str> = with.iter().map(|g| g.source.as_str()).collect();
        for shape in [
            "class Pool",
            "class Span",
            "class Latch",
            "class Cursor",
            "private boolean on;",
            "private int count;",
            "throw new IllegalStateException();",
            "throw new IllegalArgumentException();",
            "return;",
            "java.util.Objects.hash(",
            "this.used += ",
            "catch (IllegalStateException",
            "< Math.floorMod(",
            "int probe(int k)",
            "int check()",
        ] {
            assert!(sources.iter().any(|s| s.contains(shape)), "no nested class has `{shape}`");
        }
        // Near twins break the invariant in some classes only.
        let twins = sources.iter().filter(|s| s.contains("k > cap - used + 1") || s.contains("if (lo <= hi)")).count();
        assert!(twins >= 1 && twins < with.len(), "{twins} twins");
    }

    #[test]
    fn some_nested_classes_call_their_own_methods_while_the_invariant_is_broken() {
        let all: Vec<Generated> = (0..300).map(|s| generate(&mut Rng::new(s), "G", 12)).collect();
        let with: Vec<&str> = all.iter().filter(|g| g.nested.is_some()).map(|g| g.source.as_str()).collect();
        let own: Vec<&&str> = with.iter().filter(|s| s.contains("void settle() {")).collect();
        assert!(own.len() >= with.len() / 4 && own.len() < with.len(), "{} of {}", own.len(), with.len());
        for s in &own {
            // `step` breaks the invariant for some `k`, then calls `settle`; `m` calls `step` on
            // an argument the inputs decide.
            assert!(s.contains("void step(int k) {"), "{s}");
            assert!(s.contains("settle();"), "{s}");
            assert!(s.contains("q0.step(") || s.contains("q1.step("), "{s}");
        }
        for shape in [
            "private void settle() {",
            "    void settle() {",
            "this.settle();",
            "void audit(int k) {",
            "int r = check();",
            "private void ",
        ] {
            assert!(own.iter().any(|s| s.contains(shape)), "no class with own calls has `{shape}`");
        }
    }

    #[test]
    fn some_nested_classes_keep_a_list_in_a_field() {
        let all: Vec<Generated> = (0..300).map(|s| generate(&mut Rng::new(s), "G", 12)).collect();
        let with: Vec<&str> = all.iter().filter(|g| g.nested.is_some()).map(|g| g.source.as_str()).collect();
        let logs: Vec<&&str> = with.iter().filter(|s| s.contains("private java.util.List<Integer> log")).collect();
        assert!(logs.len() >= with.len() / 5 && logs.len() < with.len(), "{} of {}", logs.len(), with.len());
        for shape in [
            "private java.util.List<Integer> log = new java.util.ArrayList<>();",
            "private java.util.List<Integer> log;",
            "log = new java.util.ArrayList<>();",
            "log.add(",
            "void forget() {",
            "log.clear();",
            "if (log == null) {",
            "log.size() > 2",
            "log.get(0) > 3",
        ] {
            assert!(logs.iter().any(|s| s.contains(shape)), "no class with a list field has `{shape}`");
        }
        // Every constructor makes the list when no initializer does.
        for s in logs.iter().filter(|s| s.contains("List<Integer> log;")) {
            let ctors = s.matches("        Pool(").count()
                + s.matches("        Span(").count()
                + s.matches("        Latch(").count()
                + s.matches("        Cursor(").count();
            assert_eq!(s.matches("log = new java.util.ArrayList<>();").count(), ctors, "{s}");
        }
    }

    #[test]
    fn about_a_third_of_the_classes_read_and_make_text() {
        let all: Vec<Generated> = (0..300).map(|s| generate(&mut Rng::new(s), "G", 12)).collect();
        let with: Vec<&Generated> = all.iter().filter(|g| g.params.contains(&JTy::Str)).collect();
        assert!((70..=140).contains(&with.len()), "{} of 300 classes have a String parameter", with.len());
        for g in &with {
            assert_eq!(g.params.last(), Some(&JTy::Str), "the parameter comes last");
            assert!(g.source.contains(&format!("String p{}", g.params.len() - 1)), "{}", g.source);
        }
        let sources: Vec<&str> = with.iter().map(|g| g.source.as_str()).collect();
        for shape in [
            ".length()",
            ".charAt(",
            ".isEmpty()",
            ".equals(",
            ".startsWith(",
            ".endsWith(",
            ".contains(",
            ".indexOf(",
            ".substring(",
            ".trim()",
            ".toUpperCase()",
            ".concat(",
            "String.valueOf(",
            "Integer.parseInt(",
            "Integer.signum(",
            "Long.compare(",
            "catch (NumberFormatException",
            " != null && ",
        ] {
            assert!(sources.iter().any(|s| s.contains(shape)), "no class has `{shape}`");
        }
        // Conditions on one text inside each other.
        let meets = sources.iter().filter(|s| s.contains(" != null && ")).count();
        assert!(meets >= 5, "{meets}");
        // The other classes are the ones earlier versions generated: no text anywhere.
        assert!(all.iter().filter(|g| !g.params.contains(&JTy::Str)).all(|g| !g.source.contains("String p")));
    }

    #[test]
    fn text_inputs_are_null_literals_or_short_strings() {
        let mut rng = Rng::new(3);
        let xs: Vec<Option<String>> = (0..200).map(|_| text_input(&mut rng)).collect();
        assert!(xs.iter().any(|x| x.is_none()));
        assert!(xs.iter().any(|x| x.as_deref() == Some("")));
        assert!(xs.iter().flatten().all(|x| x.chars().count() <= 4));
        assert!(xs.iter().flatten().any(|x| !text::LITERALS.contains(&x.as_str())), "random strings too");
    }

    #[test]
    fn same_seed_same_class() {
        let a = generate(&mut Rng::new(7), "G", 12);
        let b = generate(&mut Rng::new(7), "G", 12);
        assert_eq!(a.source, b.source);
        assert!(!a.stmts.is_empty());
        for r in &a.stmts {
            assert!(r.start < r.end && r.end <= a.source.len());
        }
    }
}
