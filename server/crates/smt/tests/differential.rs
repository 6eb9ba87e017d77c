//! Differential test of the production encoding (`solve_reach`, with sharing) against the
//! reference engine (`solve_naive`, Lichman & Gross's resolution by substitution): on every
//! statement of a set of loop-free methods both must agree on SAT vs UNSAT, and the reference
//! engine's model, replayed on the IR interpreter, must reach the statement.

use std::collections::HashMap;
use std::time::Duration;

use jreach_ir::interp::run;
use jreach_ir::lower::{lower_method, LowerOptions};
use jreach_ir::{BlockId, Function};
use jreach_smt::{solve_naive, solve_reach, SolveOptions, Verdict};
use jreach_syntax::{find_target, SourceFile};

const FIXTURES: &str = r#"
class Fixtures {
    static int abs(int x) {
        if (x < 0) {
            return -x;
        }
        return x;
    }

    static int max(int a, int b) {
        return a > b ? a : b;
    }

    static int ifElseChain(int a, int b) {
        int r = 0;
        if (a > 10) {
            r = 1;
        } else if (a > 5) {
            r = 2;
        } else if (a > 0) {
            r = 3;
        } else {
            r = 4;
        }
        if (r == 2 && b == a) {
            r = r + b;
        }
        if (r == 5 && a > 10) {
            return -1;
        }
        return r;
    }

    static int shortCircuit(int a, int b, int c) {
        int r = 0;
        if (a > 0 && b > 0) {
            r = 1;
        }
        if (a > 0 || c > 0) {
            r = r + 2;
        }
        if (r == 1) {
            r = 100;
        }
        if (!(a > 0) && r == 3) {
            r = 7;
        }
        if ((a > 0 && b < 0) || (a < 0 && b > 0)) {
            r = r * 2;
        }
        return r;
    }

    static int ternaries(int a, int b) {
        int m = a < b ? a : b;
        int n = m > 0 ? m : -m;
        if (n == 3 && m < 0) {
            n = 0;
        }
        if (m > a) {
            n = 1;
        }
        return n;
    }

    static String grade(int score) {
        String g = "F";
        switch (score / 10) {
            case 10:
            case 9:
                g = "A";
                break;
            case 8:
                g = "B";
                break;
            case 7:
                g = "C";
                break;
            default:
                if (score < 0) {
                    g = "?";
                }
        }
        if (score == 95) {
            g = "A+";
        }
        return g;
    }

    static int arrowSwitch(int day) {
        int kind = switch (day) {
            case 1, 7 -> 0;
            case 2, 3, 4, 5, 6 -> 1;
            default -> -1;
        };
        if (kind == 0 && day > 5) {
            return 70;
        }
        if (kind == -1 && day > 0 && day < 8) {
            return 99;
        }
        return kind;
    }

    static int overflow(int a) {
        int b = a + 1;
        if (b < a) {
            return 1;
        }
        int c = a * 2;
        if (a > 0 && c < 0) {
            return 2;
        }
        if (-a == a && a != 0) {
            return 3;
        }
        return 0;
    }

    static int division(int a, int b) {
        if (b == 0) {
            return -1;
        }
        int q = a / b;
        int r = a % b;
        if (q == 0 && r == a && a > 3) {
            return -2;
        }
        if (r < 0 && a > 0) {
            return -3;
        }
        if (q == -7 && r == -2) {
            return 42;
        }
        return q;
    }

    static int divideUnchecked(int a, int b) {
        int q = a / b;
        if (q > 3) {
            return q;
        }
        return 0;
    }

    static int casts(int a, long l) {
        byte b = (byte) a;
        if (b < 0 && a > 0) {
            return 1;
        }
        char c = (char) a;
        if (c > 60000 && a < 0) {
            return 2;
        }
        int lo = (int) l;
        if (lo == 7 && l != 7) {
            return 3;
        }
        short s = (short) lo;
        if (s != lo && lo > 0 && lo < 30000) {
            return 4;
        }
        return 0;
    }

    static int helpers(int a, int b) {
        int x = abs(a);
        int y = max(x, b);
        if (x < 0) {
            return 1;
        }
        if (y == b && b > 1000) {
            return 2;
        }
        if (y > 100 && y == abs(b) && b < 0) {
            return 3;
        }
        return 0;
    }

    static int redefined(int p, int q) {
        int x = 0, y = 1, z = 2;
        if (x > p) {
            x = y + 3;
        } else {
            y = x - 2;
        }
        if (y < q) {
            z = x + y;
        } else {
            x = z - 1;
        }
        if (z != x) {
            y = z + 5;
        } else {
            z = y + q;
        }
        if (x == 3 && y == 7 && z == 2) {
            return 1;
        }
        if (x - x != 0) {
            return 2;
        }
        return 0;
    }

    static long longs(long a, int shift) {
        long b = a << shift;
        if (b < 0 && a > 0) {
            return 1;
        }
        if ((a >>> 60) == 15 && a > 0) {
            return 2;
        }
        long m = a & 0xFF;
        if (m == 300) {
            return 3;
        }
        return 0;
    }

    static int bits(int a, boolean flag) {
        int r = a ^ (a >> 31);
        if (flag & r < 0) {
            return 1;
        }
        if (flag ^ (a > 0)) {
            if (flag) {
                return 2;
            }
            return 3;
        }
        if ((a | 1) == 0) {
            return 4;
        }
        return 0;
    }

    static int doubles(double d, int a) {
        int i = (int) d;
        if (d > 2.5 && i == 2) {
            return 1;
        }
        double h = d + 1.0;
        if (h == 1.5 && a > 0) {
            return 2;
        }
        if (d != d) {
            return 3;
        }
        return 0;
    }

    static int nested(int a, int b, int c) {
        int r = 0;
        if (a > b) {
            if (b > c) {
                r = a - c;
            } else {
                r = a + c;
            }
        } else {
            if (a > c) {
                r = b;
            } else {
                r = c;
            }
        }
        if (r > a && r > b && r > c) {
            return 1;
        }
        if (r < a && r < b && r < c && c > 0) {
            return 2;
        }
        return r;
    }

    static int throwing(int a) {
        int r = 0;
        try {
            if (a == 0) {
                throw new IllegalArgumentException();
            }
            r = 10 / (a - 5);
        } catch (ArithmeticException e) {
            r = -1;
        } catch (IllegalArgumentException e) {
            r = -2;
        }
        if (r == -1 && a != 5) {
            return 1;
        }
        return r;
    }
}
"#;

/// One statement compared.
#[derive(Debug)]
struct Outcome {
    line: usize,
    method: String,
    production: Verdict,
    reference: Verdict,
}

fn kind(v: &Verdict) -> &'static str {
    match v {
        Verdict::Sat(_) => "sat",
        Verdict::Unsat => "unsat",
        Verdict::Unknown(_) => "unknown",
    }
}

fn compare(src: &str, prefer_small: bool) -> Vec<Outcome> {
    let file = SourceFile::parse(src);
    assert!(!file.has_errors(), "fixtures parse");
    let opts = SolveOptions { timeout: Duration::from_secs(20), prefer_small, cancel: None };
    let mut lowered: HashMap<usize, Function> = HashMap::new();
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for line in 0..file.lines.line_count() {
        let Ok(target) = find_target(&file, line) else { continue };
        if !seen.insert(target.stmt.start) {
            continue;
        }
        let method = &target.method;
        let f =
            lowered.entry(method.range.start).or_insert_with(|| lower_method(&file, method, &LowerOptions::default()));
        let targets: Vec<BlockId> = f.blocks_of_stmt(target.stmt.start);
        if targets.is_empty() {
            continue;
        }
        let started = std::time::Instant::now();
        let production = solve_reach(f, &targets, &opts);
        let shared_time = started.elapsed();
        let reference = solve_naive(f, &targets, &opts);
        let naive_time = started.elapsed() - shared_time;
        if let Verdict::Sat(args) = &reference {
            let r = run(f, args, 100_000);
            assert!(
                r.reached(&targets),
                "line {}: the reference model {args:?} does not reach the target in {} (run ended {:?})",
                line + 1,
                method.name,
                r.end
            );
        }
        if std::env::var_os("DIFF_VERBOSE").is_some() {
            eprintln!(
                "line {}: {} {} / {} in {shared_time:?} / {naive_time:?}",
                line + 1,
                method.name,
                kind(&production),
                kind(&reference)
            );
        }
        out.push(Outcome { line: line + 1, method: method.name.clone(), production, reference });
    }
    out
}

#[test]
fn shared_and_reference_encodings_agree_on_every_statement() {
    let outcomes = compare(FIXTURES, true);
    let mut compared = 0;
    let mut unsat = 0;
    let mut sat = 0;
    let mut disagreements = Vec::new();
    for o in &outcomes {
        let (p, r) = (kind(&o.production), kind(&o.reference));
        if p == "unknown" || r == "unknown" {
            eprintln!("line {} ({}): skipped, {p} vs {r}: {:?} / {:?}", o.line, o.method, o.production, o.reference);
            continue;
        }
        compared += 1;
        if p != r {
            disagreements.push(format!("line {} ({}): shared {p}, reference {r}", o.line, o.method));
        } else if p == "unsat" {
            unsat += 1;
        } else {
            sat += 1;
        }
    }
    eprintln!("{compared} statements compared: {sat} SAT, {unsat} UNSAT, {} skipped", outcomes.len() - compared);
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
    assert!(compared >= 40, "only {compared} statements compared");
    assert!(unsat >= 5, "only {unsat} UNSAT statements");
    assert!(sat >= 30, "only {sat} SAT statements");
    // Every method contributed.
    let methods: std::collections::HashSet<&str> = outcomes.iter().map(|o| o.method.as_str()).collect();
    assert!(methods.len() >= 15, "{methods:?}");
}

/// A small deterministic generator (xorshift64*) for random programs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
}

const VARS: [&str; 3] = ["x", "y", "z"];
const OPERANDS: [&str; 6] = ["x", "y", "z", "a", "b", "c"];

fn gen_expr(r: &mut Rng, depth: usize) -> String {
    if depth == 0 || r.below(3) == 0 {
        return if r.below(4) == 0 { format!("{}", r.below(21) as i64 - 10) } else { r.pick(&OPERANDS).to_string() };
    }
    let (l, rr) = (gen_expr(r, depth - 1), gen_expr(r, depth - 1));
    match r.below(7) {
        0 | 1 => format!("({l} + {rr})"),
        2 | 3 => format!("({l} - {rr})"),
        4 => format!("({l} * {rr})"),
        5 => format!("({l} / {})", r.below(5) + 1),
        _ => format!("({} ? {l} : {rr})", gen_cond(r, 0)),
    }
}

fn gen_cond(r: &mut Rng, depth: usize) -> String {
    let cmp = r.pick(&["<", "<=", ">", ">=", "==", "!="]);
    let atom = format!("{} {cmp} {}", gen_expr(r, 1), gen_expr(r, 1));
    if depth == 0 {
        return atom;
    }
    match r.below(4) {
        0 => format!("{atom} && {}", gen_cond(r, depth - 1)),
        1 => format!("({atom} || {})", gen_cond(r, depth - 1)),
        2 => format!("!({atom})"),
        _ => atom,
    }
}

fn gen_block(r: &mut Rng, out: &mut String, indent: usize, depth: usize, budget: &mut usize) {
    let pad = "    ".repeat(indent);
    let n = 1 + r.below(3);
    for _ in 0..n {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        if depth > 0 && r.below(2) == 0 {
            out.push_str(&format!("{pad}if ({}) {{\n", gen_cond(r, 1)));
            gen_block(r, out, indent + 1, depth - 1, budget);
            if r.below(2) == 0 {
                out.push_str(&format!("{pad}}} else {{\n"));
                gen_block(r, out, indent + 1, depth - 1, budget);
            }
            out.push_str(&format!("{pad}}}\n"));
        } else {
            out.push_str(&format!("{pad}{} = {};\n", r.pick(&VARS), gen_expr(r, 2)));
        }
    }
}

/// A random loop-free method over three int parameters and three locals.
fn gen_method(r: &mut Rng, name: &str) -> String {
    let mut body = String::new();
    let mut budget = 7;
    gen_block(r, &mut body, 2, 2, &mut budget);
    format!(
        "    static int {name}(int a, int b, int c) {{\n        int x = 0, y = 1, z = 2;\n{body}        if ({}) {{\n            return x;\n        }}\n        return y + z;\n    }}\n",
        gen_cond(r, 2)
    )
}

#[test]
fn shared_and_reference_encodings_agree_on_random_programs() {
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    let mut src = String::from("class Random {\n");
    for i in 0..30 {
        src.push_str(&gen_method(&mut r, &format!("m{i}")));
    }
    src.push_str("}\n");
    let outcomes = compare(&src, false);
    let (mut compared, mut unsat) = (0, 0);
    for o in &outcomes {
        let (p, q) = (kind(&o.production), kind(&o.reference));
        if p == "unknown" || q == "unknown" {
            eprintln!("line {} ({}): skipped: {:?} / {:?}", o.line, o.method, o.production, o.reference);
            continue;
        }
        compared += 1;
        unsat += usize::from(p == "unsat");
        assert_eq!(p, q, "line {} ({}) disagrees; program:\n{src}", o.line, o.method);
    }
    eprintln!("{compared} random statements compared ({unsat} UNSAT) of {}", outcomes.len());
    assert!(compared >= 100, "only {compared} statements compared");
    assert!(compared * 10 >= outcomes.len() * 9, "too many unknowns: {compared} of {}", outcomes.len());
}
