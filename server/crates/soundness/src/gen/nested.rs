//! The nested class of the class-invariant feature (see the module doc of [`super`]): a `static`
//! class whose `private` instance fields only its own constructors and instance methods write,
//! the methods that keep (or, in a near twin, break for some arguments) an invariant over them,
//! and the statements guarded by conditions the invariant makes false, or not.
//!
//! Four shapes, each with its invariant:
//!
//! | class | fields | invariant |
//! |---|---|---|
//! | `Pool` | `int used, cap` | `0 <= used && used <= cap` |
//! | `Span` | `int lo, hi` | `lo <= hi` |
//! | `Latch` | `boolean on; int level` (and `int count`) | `on ==> level > 0` (and `count >= 0`) |
//! | `Cursor` | `int lo, pos, hi` | `lo <= pos && pos <= hi` |
//!
//! Constructors assign every field with `this.f = ...` from their `int` parameters and literals,
//! clamped or not (an unclamped one breaks the invariant for some arguments from the start); they
//! never call an instance method nor pass `this` anywhere. Mutators write the fields under guards
//! that read the fields and their `int` parameters, some throwing `IllegalStateException`, some
//! returning early; at most one of them is the near twin that breaks the invariant for some
//! arguments or states (an off-by-one guard, an overflow check left out). Sometimes a mutator
//! calls a JDK method jreach cannot see into (`java.util.Objects.hash`), possibly while the
//! invariant is broken for a moment. The checkers (`check()`, `probe(int k)`) guard statements
//! with conditions over the fields: the invariant's negation (dead when it holds), conditions that
//! hold in some states (live), and a few that only look dead (`hi - lo < 0` wraps).
//!
//! In about half the classes the class's own methods call each other ([`own_calls`]):
//! `settle()` puts any state right (its guards are the invariant's negation, live only when a
//! caller broke it), `step(int k)` breaks the invariant for some `k` ([`Shape::nudge`]) and calls
//! it, `audit(int k)` calls a checker before `settle()`; some mutators are `private`. In about
//! two in five a private `java.util.List<Integer> log` field is appended to by the mutators and
//! tested by the checkers ([`with_log`]).

use super::{Gen, Rng};

/// A statement of the nested class's bodies, before it is written.
enum S {
    /// A simple statement (`used += k;`, `return r;`).
    Line(String),
    /// `if (cond) { then }`, with an `else` block or not.
    If(String, Vec<S>, Option<Vec<S>>),
}

fn line(s: impl Into<String>) -> S {
    S::Line(s.into())
}

fn iff(c: impl Into<String>, then: Vec<S>) -> S {
    S::If(c.into(), then, None)
}

fn if_else(c: impl Into<String>, then: Vec<S>, els: Vec<S>) -> S {
    S::If(c.into(), then, Some(els))
}

const ISE: &str = "throw new IllegalStateException();";
const IAE: &str = "throw new IllegalArgumentException();";

/// A constructor (named after the class) or an instance method.
struct Member {
    name: String,
    /// The names of its `int` parameters.
    params: Vec<&'static str>,
    returns_int: bool,
    body: Vec<S>,
    /// Declared `private` (the outer class's method may still call it).
    private: bool,
}

impl Member {
    fn void(name: &str, params: &[&'static str], body: Vec<S>) -> Member {
        Member { name: name.to_string(), params: params.to_vec(), returns_int: false, body, private: false }
    }
}

/// A condition over the fields, and whether it reads the checker's parameter `k`.
type Cond = (&'static str, bool);

/// One shape of nested class, its members chosen and written.
struct Shape {
    class: &'static str,
    /// (Java type, name).
    fields: Vec<(&'static str, &'static str)>,
    ctors: Vec<Member>,
    mutators: Vec<Member>,
    /// Conditions the invariant makes false (or that only look so).
    bad: Vec<Cond>,
    /// Conditions that hold in some states the invariant allows.
    live: Vec<Cond>,
    /// Statements that put a broken object right.
    repairs: Vec<&'static str>,
    /// `int` expressions over the fields for the checkers' results.
    exprs: Vec<&'static str>,
    /// A write of the fields that breaks the invariant for some `k` (the first statement of
    /// the members that call the class's own methods: [`own_calls`]).
    nudge: &'static str,
    /// Statements that put any state of the fields right (`settle()`'s body).
    settle: Vec<S>,
}

/// What the method under test can do with the nested class.
#[derive(Clone, Debug)]
pub(super) struct Nested {
    pub class: String,
    /// The constructors, by their number of `int` parameters.
    pub ctors: Vec<usize>,
    /// The instance methods: name, number of `int` parameters, whether it returns an `int`.
    pub methods: Vec<(String, usize, bool)>,
    /// The methods among them whose statements are guarded by conditions over the fields.
    pub checkers: Vec<(String, usize)>,
}

/// Picks `n` distinct indices below `len`, in increasing order.
fn distinct(rng: &mut Rng, len: usize, n: usize) -> Vec<usize> {
    let mut all: Vec<usize> = (0..len).collect();
    for i in 0..len {
        let j = i + rng.below((len - i) as u64) as usize;
        all.swap(i, j);
    }
    let mut out: Vec<usize> = all.into_iter().take(n.min(len)).collect();
    out.sort();
    out
}

/// The mutators of a shape: `pick(rng, which, broken)` writes option `which` (its near twin when
/// `broken`); `twins` lists the options that have one.
fn mutators(
    rng: &mut Rng,
    count: usize,
    twins: &[usize],
    pick: impl Fn(&mut Rng, usize, bool) -> Member,
) -> Vec<Member> {
    let n = 2 + rng.below(3) as usize;
    let chosen = distinct(rng, count, n);
    let with_twin: Vec<usize> = chosen.iter().copied().filter(|c| twins.contains(c)).collect();
    let broken = (!with_twin.is_empty() && rng.pct(45)).then(|| *rng.pick(&with_twin));
    chosen.into_iter().map(|w| pick(rng, w, broken == Some(w))).collect()
}

fn pool(rng: &mut Rng) -> Shape {
    let mut ctors = Vec::new();
    let mut c1 = match rng.below(4) {
        0 => vec![line("this.cap = c < 0 ? 0 : c;")],
        1 => vec![iff("c < 0", vec![line("c = 0;")]), line("this.cap = c;")],
        2 => vec![iff("c < 0", vec![line(IAE)]), line("this.cap = c;")],
        // Not clamped: a negative capacity breaks the invariant from the start.
        _ => vec![line("this.cap = c;")],
    };
    c1.push(line("this.used = 0;"));
    ctors.push(Member::void("Pool", &["c"], c1));
    if rng.pct(50) {
        let mut c2 = vec![line(if rng.pct(80) { "this.cap = Math.max(c, 0);" } else { "this.cap = c;" })];
        match rng.below(3) {
            0 => c2.push(line("this.used = Math.min(Math.max(u, 0), this.cap);")),
            1 => {
                c2.push(iff("u < 0 || u > this.cap", vec![line(IAE)]));
                c2.push(line("this.used = u;"));
            }
            _ => c2.push(line("this.used = u;")),
        }
        ctors.push(Member::void("Pool", &["c", "u"], c2));
    }
    let mutators = mutators(rng, 7, &[0, 1, 2, 3, 4, 6], |_, w, broken| match w {
        0 => Member::void(
            "take",
            &["k"],
            vec![
                iff("k <= 0", vec![line("return;")]),
                iff(if broken { "k > cap - used + 1" } else { "k > cap - used" }, vec![line(ISE)]),
                line("used += k;"),
            ],
        ),
        1 => Member::void(
            "release",
            &[],
            vec![iff(if broken { "used >= 0" } else { "used > 0" }, vec![line("used--;")])],
        ),
        2 => Member::void(
            "give",
            &["k"],
            vec![iff(if broken { "k < -1" } else { "k < 0" }, vec![line(ISE)]), line("used -= Math.min(k, used);")],
        ),
        3 => Member::void(
            "grow",
            &["k"],
            vec![iff(if broken { "k > 0" } else { "k > 0 && cap <= Integer.MAX_VALUE - k" }, vec![line("cap += k;")])],
        ),
        4 => Member::void(
            "shrink",
            &["k"],
            vec![iff(
                if broken { "k > 0 && cap - k >= used - 1" } else { "k > 0 && cap - k >= used" },
                vec![line("cap -= k;")],
            )],
        ),
        5 => Member::void("reset", &[], vec![line("used = 0;")]),
        // Broken for a moment around a call jreach cannot see into, then put right or undone.
        _ => Member::void(
            "add",
            &["k"],
            vec![
                line("used += k;"),
                line("int h = java.util.Objects.hash(used, cap);"),
                iff(if broken { "used > cap" } else { "used > cap || used < 0" }, vec![line("used -= k;"), line(ISE)]),
            ],
        ),
    });
    Shape {
        class: "Pool",
        fields: vec![("int", "used"), ("int", "cap")],
        ctors,
        mutators,
        bad: vec![
            ("used > cap", false),
            ("used < 0", false),
            ("cap < 0", false),
            ("cap < used", false),
            ("used > cap && k > 0", true),
            ("!(used <= cap)", false),
        ],
        live: vec![
            ("used == cap", false),
            ("used > 0", false),
            ("cap > 10", false),
            ("k > cap - used", true),
            ("used == k", true),
        ],
        repairs: vec!["used = cap;", "used = 0;"],
        exprs: vec!["cap - used", "used", "cap"],
        nudge: "used += k;",
        settle: vec![iff("used > cap", vec![line("used = cap;")]), iff("used < 0", vec![line("used = 0;")])],
    }
}

fn span(rng: &mut Rng) -> Shape {
    let mut ctors = Vec::new();
    let c1 = match rng.below(4) {
        0 => vec![line("this.lo = Math.min(a, b);"), line("this.hi = Math.max(a, b);")],
        1 => vec![if_else(
            "a <= b",
            vec![line("this.lo = a;"), line("this.hi = b;")],
            vec![line("this.lo = b;"), line("this.hi = a;")],
        )],
        2 => vec![iff("a > b", vec![line(IAE)]), line("this.lo = a;"), line("this.hi = b;")],
        _ => vec![line("this.lo = a;"), line("this.hi = b;")],
    };
    ctors.push(Member::void("Span", &["a", "b"], c1));
    if rng.pct(50) {
        let c2 = match rng.below(3) {
            0 => vec![line("this.lo = a;"), line("this.hi = a;")],
            1 => vec![line("this.lo = 0;"), line("this.hi = a < 0 ? 0 : a;")],
            _ => vec![line("this.lo = 0;"), line("this.hi = a;")],
        };
        ctors.push(Member::void("Span", &["a"], c2));
    }
    let mutators = mutators(rng, 7, &[0, 1, 2, 3], |_, w, broken| match w {
        0 => {
            let mut body = vec![iff("d < 0", vec![line(ISE)])];
            if !broken {
                body.push(iff("hi > Integer.MAX_VALUE - d", vec![line("return;")]));
            }
            body.push(line("hi += d;"));
            Member::void("widen", &["d"], body)
        }
        1 => Member::void("narrow", &[], vec![iff(if broken { "lo <= hi" } else { "lo < hi" }, vec![line("lo++;")])]),
        2 => Member::void(
            "shift",
            &["d"],
            vec![iff(
                if broken { "d > 0" } else { "d > 0 && hi <= Integer.MAX_VALUE - d" },
                vec![line("lo += d;"), line("hi += d;")],
            )],
        ),
        3 => Member::void(
            "setLo",
            &["v"],
            vec![iff(if broken { "v - 1 > hi" } else { "v > hi" }, vec![line(ISE)]), line("lo = v;")],
        ),
        4 => Member::void(
            "include",
            &["v"],
            vec![iff("v < lo", vec![line("lo = v;")]), iff("v > hi", vec![line("hi = v;")])],
        ),
        5 => Member::void("collapse", &[], vec![line("hi = lo;")]),
        _ => Member::void(
            "sort",
            &[],
            vec![iff("lo > hi", vec![line("int t = lo;"), line("lo = hi;"), line("hi = t;")])],
        ),
    });
    Shape {
        class: "Span",
        fields: vec![("int", "lo"), ("int", "hi")],
        ctors,
        mutators,
        bad: vec![
            ("lo > hi", false),
            ("hi < lo", false),
            ("lo > hi && k > 0", true),
            ("!(lo <= hi)", false),
            // Only look dead: `hi - lo` and `lo - 1` wrap.
            ("hi - lo < 0", false),
            ("lo - 1 >= hi", false),
        ],
        live: vec![("lo == hi", false), ("k < lo", true), ("k > hi", true), ("hi - lo > 3", false), ("lo < 0", false)],
        repairs: vec!["hi = lo;", "lo = hi;"],
        exprs: vec!["hi - lo", "lo", "hi"],
        nudge: "lo += k;",
        settle: vec![iff("lo > hi", vec![line("hi = lo;")])],
    }
}

fn latch(rng: &mut Rng) -> Shape {
    let count = rng.pct(40);
    let mut ctors = Vec::new();
    let mut c1 = match rng.below(4) {
        0 => vec![line("this.level = v;"), line("this.on = v > 0;")],
        1 => vec![line("this.level = v;"), line("this.on = false;")],
        2 => vec![iff("v <= 0", vec![line(IAE)]), line("this.level = v;"), line("this.on = true;")],
        _ => vec![line("this.level = v;"), line("this.on = true;")],
    };
    if count {
        c1.push(line("this.count = 0;"));
    }
    ctors.push(Member::void("Latch", &["v"], c1));
    if rng.pct(40) {
        let mut c2 = vec![line("this.on = false;"), line("this.level = 0;")];
        if count {
            c2.push(line("this.count = 0;"));
        }
        ctors.push(Member::void("Latch", &[], c2));
    }
    let mutators = mutators(rng, 6, &[0, 1, 3, 4, 5], |_, w, broken| match w {
        0 => {
            let mut body = vec![
                iff(if broken { "v < 0" } else { "v <= 0" }, vec![line(ISE)]),
                line("level = v;"),
                line("on = true;"),
            ];
            if count {
                body.push(iff("count < Integer.MAX_VALUE", vec![line("count++;")]));
            }
            Member::void("arm", &["v"], body)
        }
        1 => Member::void(
            "tick",
            &[],
            vec![if_else(
                if broken { "level > 0" } else { "level > 1" },
                vec![line("level--;")],
                vec![line("on = false;")],
            )],
        ),
        2 => Member::void("off", &[], vec![line("on = false;")]),
        3 => Member::void(
            "set",
            &["v"],
            vec![line("level = v;"), iff(if broken { "v < 0" } else { "v <= 0" }, vec![line("on = false;")])],
        ),
        4 => Member::void(
            "bump",
            &["k"],
            vec![iff(
                if broken { "on && k > 0" } else { "on && k > 0 && level <= Integer.MAX_VALUE - k" },
                vec![line("level += k;")],
            )],
        ),
        _ => Member::void(
            "toggle",
            &[],
            vec![iff(if broken { "level >= 0" } else { "level > 0" }, vec![line("on = !on;")])],
        ),
    });
    let mut fields = vec![("boolean", "on"), ("int", "level")];
    let mut bad = vec![
        ("on && level <= 0", false),
        ("on && level < 1", false),
        ("level <= 0 && on", false),
        ("on && level == 0", false),
        ("on && level < k && k <= 1", true),
    ];
    if count {
        fields.push(("int", "count"));
        bad.push(("count < 0", false));
    }
    Shape {
        class: "Latch",
        fields,
        ctors,
        mutators,
        bad,
        live: vec![
            ("on", false),
            ("!on && level <= 0", false),
            ("level > k", true),
            ("on && level > 1", false),
            ("!on", false),
        ],
        repairs: vec!["on = false;", "level = 1;"],
        exprs: vec!["level", "level - 1", "on ? level : 0"],
        nudge: "level -= k;",
        settle: vec![iff("on && level <= 0", vec![line("on = false;")])],
    }
}

fn cursor(rng: &mut Rng) -> Shape {
    let mut ctors = Vec::new();
    let c1 = match rng.below(3) {
        0 => vec![line("this.lo = Math.min(a, b);"), line("this.hi = Math.max(a, b);"), line("this.pos = this.lo;")],
        1 => vec![iff("a > b", vec![line(IAE)]), line("this.lo = a;"), line("this.hi = b;"), line("this.pos = b;")],
        _ => vec![line("this.lo = a;"), line("this.hi = b;"), line("this.pos = a;")],
    };
    ctors.push(Member::void("Cursor", &["a", "b"], c1));
    if rng.pct(40) {
        let hi = if rng.pct(70) { "this.hi = n < 0 ? 0 : n;" } else { "this.hi = n;" };
        ctors.push(Member::void("Cursor", &["n"], vec![line("this.lo = 0;"), line(hi), line("this.pos = 0;")]));
    }
    let mutators = mutators(rng, 6, &[0, 1, 2, 3, 5], |_, w, broken| match w {
        0 => Member::void("next", &[], vec![iff(if broken { "pos <= hi" } else { "pos < hi" }, vec![line("pos++;")])]),
        1 => Member::void(
            "prev",
            &[],
            vec![iff(if broken { "pos < lo" } else { "pos == lo" }, vec![line(ISE)]), line("pos--;")],
        ),
        2 => Member::void(
            "seek",
            &["p"],
            vec![iff(if broken { "p < lo" } else { "p < lo || p > hi" }, vec![line("return;")]), line("pos = p;")],
        ),
        3 => Member::void(
            "extend",
            &["k"],
            vec![iff(if broken { "k > 0" } else { "k > 0 && hi <= Integer.MAX_VALUE - k" }, vec![line("hi += k;")])],
        ),
        4 => Member::void("rewind", &[], vec![line("pos = lo;")]),
        _ => {
            if broken {
                Member::void("trim", &[], vec![iff("pos > lo", vec![line("hi = pos - 1;")])])
            } else {
                Member::void("trim", &[], vec![iff("pos < hi", vec![line("hi = pos;")])])
            }
        }
    });
    Shape {
        class: "Cursor",
        fields: vec![("int", "lo"), ("int", "pos"), ("int", "hi")],
        ctors,
        mutators,
        bad: vec![
            ("pos > hi", false),
            ("pos < lo", false),
            ("lo > hi", false),
            ("pos < lo || pos > hi", false),
            ("pos > hi && k > 0", true),
        ],
        live: vec![
            ("pos == hi", false),
            ("pos == lo", false),
            ("pos > k", true),
            ("hi - pos > 2", false),
            ("pos < k", true),
        ],
        repairs: vec!["pos = lo;", "pos = hi;"],
        exprs: vec!["hi - pos", "pos", "lo"],
        nudge: "pos += k;",
        settle: vec![iff("pos < lo", vec![line("pos = lo;")]), iff("pos > hi", vec![line("pos = hi;")])],
    }
}

/// A checker: `int check()` or `int probe(int k)`, 1 to 3 statements guarded by conditions over
/// the fields (the invariant's negation more often than not), then `return r;`.
fn checker(rng: &mut Rng, shape: &Shape, with_param: bool) -> Member {
    let usable = |cs: &[Cond]| -> Vec<&'static str> { cs.iter().filter(|c| with_param || !c.1).map(|c| c.0).collect() };
    let (bad, live) = (usable(&shape.bad), usable(&shape.live));
    let mut body = vec![line(format!("int r = {};", rng.pick(&shape.exprs)))];
    for _ in 0..1 + rng.below(3) {
        let is_bad = rng.pct(60);
        let cond = *rng.pick(if is_bad { &bad } else { &live });
        let mut then = Vec::new();
        if is_bad && rng.pct(20) {
            then.push(line(ISE));
            body.push(iff(cond, then));
            continue;
        }
        for _ in 0..1 + rng.below(2) {
            then.push(match rng.below(4) {
                0 => line(format!("r = {};", rng.pick(&shape.exprs))),
                1 => line(format!("r += {};", rng.range(1, 9))),
                2 if with_param => line("r ^= k;"),
                2 => line("r--;"),
                _ if is_bad && rng.pct(50) => line(*rng.pick(&shape.repairs)),
                _ => line(format!("r -= {};", rng.pick(&shape.exprs))),
            });
        }
        if rng.pct(30) {
            then.push(line(if rng.pct(50) {
                "return r;".to_string()
            } else {
                format!("return {};", rng.range(-3, 9))
            }));
        }
        if rng.pct(20) {
            body.push(if_else(cond, then, vec![line("r++;")]));
        } else {
            body.push(iff(cond, then));
        }
    }
    body.push(line("return r;"));
    let (name, params): (&str, &[&'static str]) = if with_param { ("probe", &["k"]) } else { ("check", &[]) };
    Member { name: name.to_string(), params: params.to_vec(), returns_int: true, body, private: false }
}

/// The type of the collection field of [`with_log`].
const LOG_TYPE: &str = "java.util.List<Integer>";

/// A field of collection type, `log`, that the class's own code alone writes: made empty by
/// its initializer or by every constructor, appended to by some mutators (their `int`
/// argument), cleared or, rarely, set to null by another, and read by the checkers in
/// conditions (`log == null`, dead unless it is ever set so; `log.size() > 2`;
/// `!log.isEmpty() && log.get(0) > 3`). jreach does not model the list: no invariant may speak
/// of its contents, and a proof must not take a state of the list for granted. Returns the
/// field's initializer (`" = new java.util.ArrayList<>()"`, or empty when the constructors assign it).
fn with_log(rng: &mut Rng, shape: &mut Shape, checkers: &mut [Member]) -> &'static str {
    let make = "new java.util.ArrayList<>()";
    let init = if rng.pct(50) {
        " = new java.util.ArrayList<>()"
    } else {
        for c in &mut shape.ctors {
            let this = if rng.pct(50) { "this." } else { "" };
            c.body.insert(0, line(format!("{this}log = {make};")));
        }
        ""
    };
    for m in &mut shape.mutators {
        if rng.pct(50) {
            let arg = m.params.first().copied().unwrap_or("1");
            m.body.push(line(format!("log.add({arg});")));
        }
    }
    let body = if rng.pct(15) { "log = null;" } else { "log.clear();" };
    shape.mutators.push(Member::void("forget", &[], vec![line(body)]));
    for c in checkers {
        let at = c.body.len() - 1;
        let read = match rng.below(4) {
            0 => iff("log == null", vec![line("r = -7;")]),
            1 => iff("log.size() > 2", vec![line("r += log.size();")]),
            2 => iff("!log.isEmpty() && log.get(0) > 3", vec![line("r--;")]),
            _ => if_else("log.isEmpty()", vec![line("r++;")], vec![line("r -= 2;")]),
        };
        c.body.insert(at, read);
    }
    init
}

/// The name of the method that puts any state right ([`Shape::settle`]).
const SETTLE: &str = "settle";

/// The methods [`own_calls`] adds that `m` calls: they call `settle` and the checkers.
pub(super) const OWN_CALLERS: [&str; 2] = ["step", "audit"];

/// Methods of the class called by the class's own methods, while the invariant may be broken:
/// `settle()` (private or not) puts any state right, `step(int k)` breaks the invariant for
/// some `k` and calls it, and sometimes `audit(int k)` calls a checker between the two (its
/// statements under the invariant's negation run then, unless the checker throws first, which
/// leaves the object broken for the method's callers). Some mutators become `private` (the
/// outer class calls them all the same).
fn own_calls(rng: &mut Rng, shape: &mut Shape, checkers: &[Member]) -> Vec<Member> {
    for m in &mut shape.mutators {
        m.private = rng.pct(15);
    }
    let call = |rng: &mut Rng, name: &str, args: &str| {
        let this = if rng.pct(40) { "this." } else { "" };
        format!("{this}{name}({args})")
    };
    let mut settle = Member::void(SETTLE, &[], std::mem::take(&mut shape.settle));
    settle.private = rng.pct(70);
    let step =
        Member::void(OWN_CALLERS[0], &["k"], vec![line(shape.nudge), line(format!("{};", call(rng, SETTLE, "")))]);
    let mut out = vec![settle, step];
    if rng.pct(50) {
        let c = rng.pick(checkers);
        let args = if c.params.is_empty() { "" } else { "k" };
        let name = c.name.clone();
        let audit = Member::void(
            OWN_CALLERS[1],
            &["k"],
            vec![
                line(shape.nudge),
                line(format!("int r = {};", call(rng, &name, args))),
                line(format!("{};", call(rng, SETTLE, ""))),
            ],
        );
        out.push(audit);
    }
    out
}

/// `text` with some reads and writes of the fields written `this.f` (each with probability 30%).
fn this_prefix(rng: &mut Rng, text: &str, fields: &[(&str, &str)]) -> String {
    let mut out = String::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < b.len() && ((b[i] as char).is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let word = &text[start..i];
            let after_dot = start > 0 && b[start - 1] == b'.';
            let call = i < b.len() && b[i] == b'(';
            if !after_dot && !call && fields.iter().any(|f| f.1 == word) && rng.pct(30) {
                out.push_str("this.");
            }
            out.push_str(word);
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn prefix_all(rng: &mut Rng, body: &mut [S], fields: &[(&str, &str)]) {
    for s in body {
        match s {
            S::Line(t) => *t = this_prefix(rng, t, fields),
            S::If(c, then, els) => {
                *c = this_prefix(rng, c, fields);
                prefix_all(rng, then, fields);
                if let Some(e) = els {
                    prefix_all(rng, e, fields);
                }
            }
        }
    }
}

impl Gen<'_> {
    /// Writes the nested class (instrumented: its statements get ids like `m`'s) at depth 1 and
    /// returns what the method under test may call.
    pub(super) fn nested_class(&mut self) -> Nested {
        let mut shape = match self.rng.below(4) {
            0 => pool(self.rng),
            1 => span(self.rng),
            2 => latch(self.rng),
            _ => cursor(self.rng),
        };
        // Sometimes a mutator calls a method jreach cannot see into.
        if self.rng.pct(15) {
            let k = self.rng.below(shape.mutators.len() as u64) as usize;
            let m = &mut shape.mutators[k];
            if !m.body.iter().any(|s| matches!(s, S::Line(t) if t.contains("Objects.hash"))) {
                let at = self.rng.below(m.body.len() as u64 + 1) as usize;
                let args: Vec<&str> = shape.fields.iter().map(|f| f.1).collect();
                m.body.insert(at, line(format!("int h = java.util.Objects.hash({});", args.join(", "))));
            }
        }
        let mut checkers = Vec::new();
        match self.rng.below(3) {
            0 => checkers.push(checker(self.rng, &shape, false)),
            1 => checkers.push(checker(self.rng, &shape, true)),
            _ => {
                checkers.push(checker(self.rng, &shape, false));
                checkers.push(checker(self.rng, &shape, true));
            }
        }
        // Drawn on a side stream, so that a class without them is the one earlier versions
        // generated from the same seed.
        let mut side = Rng::new(self.rng.clone().next_u64() ^ 0x6F77_6E63_616C_6C73);
        let mut own = if side.pct(45) { own_calls(&mut side, &mut shape, &checkers) } else { Vec::new() };
        let mut side = Rng::new(self.rng.clone().next_u64() ^ 0x6C6F_6773);
        let log = side.pct(40).then(|| with_log(&mut side, &mut shape, &mut checkers));
        let fields = shape.fields.clone();
        for m in shape.mutators.iter_mut().chain(checkers.iter_mut()).chain(own.iter_mut()) {
            prefix_all(self.rng, &mut m.body, &fields);
        }
        let saved = self.instrument;
        self.instrument = true;
        let modifier = *self.rng.pick(&["static", "static", "private static", "static final"]);
        self.w(&format!("    {modifier} class {} {{\n", shape.class));
        for (ty, name) in &shape.fields {
            self.w(&format!("        private {ty} {name};\n"));
        }
        if let Some(init) = log {
            self.w(&format!("        private {LOG_TYPE} log{init};\n"));
        }
        for c in &shape.ctors {
            self.member(shape.class, c, true);
        }
        // Mutators and checkers in a random order.
        let mut members: Vec<&Member> = shape.mutators.iter().chain(checkers.iter()).collect();
        for i in 0..members.len() {
            let j = i + self.rng.below((members.len() - i) as u64) as usize;
            members.swap(i, j);
        }
        for m in members.iter().copied().chain(own.iter()) {
            self.member(shape.class, m, false);
        }
        self.w("    }\n");
        // What `m` may call: not `settle`, which only the class's own methods call.
        let callable = own.iter().filter(|m| m.name != SETTLE);
        self.instrument = saved;
        Nested {
            class: shape.class.to_string(),
            ctors: shape.ctors.iter().map(|c| c.params.len()).collect(),
            methods: members
                .iter()
                .copied()
                .chain(callable)
                .map(|m| (m.name.clone(), m.params.len(), m.returns_int))
                .collect(),
            checkers: checkers.iter().map(|m| (m.name.clone(), m.params.len())).collect(),
        }
    }

    fn member(&mut self, class: &str, m: &Member, ctor: bool) {
        let params: Vec<String> = m.params.iter().map(|p| format!("int {p}")).collect();
        let head = if ctor {
            format!("{class}({})", params.join(", "))
        } else {
            let private = if m.private { "private " } else { "" };
            format!("{private}{} {}({})", if m.returns_int { "int" } else { "void" }, m.name, params.join(", "))
        };
        self.w(&format!("        {head} {{\n"));
        for s in &m.body {
            self.nested_s(3, s);
        }
        self.w("        }\n");
    }

    fn nested_s(&mut self, depth: usize, s: &S) {
        self.indent(depth);
        let id = self.begin();
        match s {
            S::Line(t) => self.w(t),
            S::If(c, then, els) => {
                self.w(&format!("if ({c}) {{\n"));
                for t in then {
                    self.nested_s(depth + 1, t);
                }
                self.indent(depth);
                if let Some(e) = els {
                    self.w("} else {\n");
                    for t in e {
                        self.nested_s(depth + 1, t);
                    }
                    self.indent(depth);
                }
                self.w("}");
            }
        }
        self.end(id);
        self.w("\n");
    }

    /// A call on one of the method's objects of the nested class, as a statement: `q0.take(x);`
    /// or, for a method returning an `int`, often `v += q0.check();`.
    fn nested_call(&mut self) -> String {
        let n = self.nested.clone().expect("a nested class");
        let q = self.rng.pick(&self.objects).clone();
        // Mostly mutators: `m` calls every checker at its end anyway.
        let mutators: Vec<&(String, usize, bool)> =
            n.methods.iter().filter(|m| !n.checkers.iter().any(|c| c.0 == m.0)).collect();
        let (name, np, ret) =
            if self.rng.pct(75) { (*self.rng.pick(&mutators)).clone() } else { self.rng.pick(&n.methods).clone() };
        let args: Vec<String> = (0..np).map(|_| self.nested_arg()).collect();
        let call = format!("{q}.{name}({})", args.join(", "));
        if ret && self.rng.pct(75) {
            let v = self.var_of(super::JTy::Int, true).unwrap_or_else(|| "a0".into());
            let op = *self.rng.pick(&["=", "+=", "^=", "-="]);
            format!("{v} {op} {call};")
        } else {
            format!("{call};")
        }
    }

    /// An argument of a call on the nested class: small numbers move objects a step at a time.
    fn nested_arg(&mut self) -> String {
        match self.rng.below(5) {
            0 | 1 => super::paren_neg(self.rng.range(-2, 5).to_string()),
            2 => match self.var_of(super::JTy::Int, false) {
                Some(v) => v,
                None => "a0".into(),
            },
            _ => self.int_expr(1),
        }
    }

    /// `new C(args)` of a constructor of the nested class.
    pub(super) fn nested_new(&mut self) -> String {
        let n = self.nested.clone().expect("a nested class");
        let np = *self.rng.pick(&n.ctors);
        let args: Vec<String> = (0..np).map(|_| self.nested_arg()).collect();
        format!("new {}({})", n.class, args.join(", "))
    }

    /// A statement of the method under test that drives the objects of the nested class (the
    /// statement `id` already begun): a call, calls inside `try`/`catch (IllegalStateException)`,
    /// calls in a loop of at most 4 iterations that the parameters decide, or a new object.
    pub(super) fn nested_stmt(&mut self, depth: usize, id: usize) {
        match self.rng.below(7) {
            0 | 1 => {
                let c = self.nested_call();
                self.w(&c);
            }
            2 | 3 => {
                let e = self.name("e");
                self.w("try {\n");
                for _ in 0..1 + self.rng.below(3) {
                    self.indent(depth + 1);
                    let i = self.begin();
                    let c = self.nested_call();
                    self.w(&c);
                    self.end(i);
                    self.w("\n");
                }
                self.indent(depth);
                self.w(&format!("}} catch (IllegalStateException {e}) {{\n"));
                self.indent(depth + 1);
                let i = self.begin();
                let v = self.var_of(super::JTy::Int, true).unwrap_or_else(|| "a0".into());
                self.w(&format!("{v}++;"));
                self.end(i);
                self.w("\n");
                self.indent(depth);
                self.w("}");
            }
            4 | 5 => {
                let i = self.name("i");
                let bound = self.var_of(super::JTy::Int, false).unwrap_or_else(|| "a0".into());
                self.w(&format!("for (int {i} = 0; {i} < Math.floorMod({bound}, 5); {i}++) {{\n"));
                self.vars.push((i.clone(), super::JTy::Int, false));
                for _ in 0..1 + self.rng.below(3) {
                    self.indent(depth + 1);
                    let s = self.begin();
                    let c = self.nested_call();
                    self.w(&c);
                    self.end(s);
                    self.w("\n");
                }
                self.vars.retain(|v| v.0 != i);
                self.indent(depth);
                self.w("}");
            }
            _ => {
                let q = self.rng.pick(&self.objects).clone();
                let e = self.nested_new();
                self.w(&format!("{q} = {e};"));
            }
        }
        self.end(id);
        self.w("\n");
    }
}
