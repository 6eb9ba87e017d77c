//! The JDK models of the lowering (`lower::jdk`) against the real JDK: every modelled method is
//! called with boundary and random arguments in a Java program compiled and run here with the
//! machine's `javac` and `java`, and its lowering is run on the same arguments by the interpreter.
//! Results (bit for bit for floating values) and exceptions must be the same. A run the model
//! cannot compute (an unknown: `Character.toUpperCase` of a non-ASCII character) is no mismatch,
//! but every model must compute most of its calls, so a model that silently became an unknown
//! call fails here too.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use jreach_ir::interp::{run, End, Value};
use jreach_ir::lower::{lower_method, LowerOptions};
use jreach_ir::types::Ty;
use jreach_syntax::{MethodInfo, SourceFile};

/// A Java type of a parameter or a result.
#[derive(Clone, Copy, Debug, PartialEq)]
enum J {
    Bool,
    Char,
    Int,
    Long,
    Float,
    Double,
    Str,
    IntArray,
    /// An `int` holding a character, mostly ASCII.
    CodePoint,
}

impl J {
    fn java(self) -> &'static str {
        match self {
            J::Bool => "boolean",
            J::Char => "char",
            J::Int => "int",
            J::Long => "long",
            J::Float => "float",
            J::Double => "double",
            J::Str => "String",
            J::IntArray => "int[]",
            J::CodePoint => "int",
        }
    }
}

/// One modelled call: the result type, the expression over the parameters `a` and `b`, and the
/// parameters' types.
struct Case {
    ret: J,
    expr: &'static str,
    params: &'static [J],
}

const fn case(ret: J, expr: &'static str, params: &'static [J]) -> Case {
    Case { ret, expr, params }
}

const CASES: &[Case] = &[
    case(J::Str, "java.util.Objects.requireNonNull(a)", &[J::Str]),
    case(J::Str, "java.util.Objects.requireNonNull(a, \"a\")", &[J::Str]),
    case(J::Bool, "java.util.Objects.isNull(a)", &[J::Str]),
    case(J::Bool, "java.util.Objects.nonNull(a)", &[J::IntArray]),
    case(J::Bool, "Double.isNaN(a)", &[J::Double]),
    case(J::Bool, "Double.isInfinite(a)", &[J::Double]),
    case(J::Bool, "Double.isFinite(a)", &[J::Double]),
    case(J::Bool, "Float.isNaN(a)", &[J::Float]),
    case(J::Bool, "Float.isInfinite(a)", &[J::Float]),
    case(J::Bool, "Float.isFinite(a)", &[J::Float]),
    case(J::Double, "Math.max(a, b)", &[J::Double, J::Double]),
    case(J::Double, "Math.min(a, b)", &[J::Double, J::Double]),
    case(J::Float, "Math.max(a, b)", &[J::Float, J::Float]),
    case(J::Float, "Math.min(a, b)", &[J::Float, J::Float]),
    case(J::Double, "Math.max(a, b)", &[J::Int, J::Double]),
    case(J::Int, "Math.addExact(a, b)", &[J::Int, J::Int]),
    case(J::Long, "Math.addExact(a, b)", &[J::Long, J::Long]),
    case(J::Int, "Math.subtractExact(a, b)", &[J::Int, J::Int]),
    case(J::Long, "Math.subtractExact(a, b)", &[J::Long, J::Long]),
    case(J::Int, "Math.multiplyExact(a, b)", &[J::Int, J::Int]),
    case(J::Long, "Math.multiplyExact(a, b)", &[J::Long, J::Long]),
    case(J::Long, "Math.multiplyExact(a, b)", &[J::Long, J::Int]),
    case(J::Int, "Math.negateExact(a)", &[J::Int]),
    case(J::Long, "Math.negateExact(a)", &[J::Long]),
    case(J::Int, "Math.incrementExact(a)", &[J::Int]),
    case(J::Long, "Math.decrementExact(a)", &[J::Long]),
    case(J::Int, "Math.toIntExact(a)", &[J::Long]),
    case(J::Int, "Character.charCount(a)", &[J::Int]),
    case(J::Bool, "Character.isHighSurrogate(a)", &[J::Char]),
    case(J::Bool, "Character.isLowSurrogate(a)", &[J::Char]),
    case(J::Bool, "Character.isSurrogate(a)", &[J::Char]),
    case(J::Char, "Character.toUpperCase(a)", &[J::Char]),
    case(J::Char, "Character.toLowerCase(a)", &[J::Char]),
    case(J::Int, "Character.toUpperCase(a)", &[J::CodePoint]),
    case(J::Int, "Character.toLowerCase(a)", &[J::CodePoint]),
    case(J::Bool, "Boolean.parseBoolean(a)", &[J::Str]),
    case(J::Int, "Character.compare(a, b)", &[J::Char, J::Char]),
    case(J::Int, "Boolean.compare(a, b)", &[J::Bool, J::Bool]),
    case(J::Int, "Character.digit(a, 10)", &[J::Char]),
    case(J::Int, "Character.digit(a, 16)", &[J::CodePoint]),
    case(J::Int, "Character.digit(a, 36)", &[J::Char]),
    case(J::Int, "Character.digit(a, b)", &[J::CodePoint, J::Int]),
    case(J::Char, "Character.forDigit(a, b)", &[J::Int, J::Int]),
    case(J::Char, "Character.forDigit(a, 16)", &[J::Int]),
    case(J::Char, "Character.forDigit(a & 63, 36)", &[J::Int]),
    case(J::Int, "Character.digit(Character.forDigit(a & 63, b), b)", &[J::Int, J::Int]),
    case(J::Bool, "Character.isDigit(a)", &[J::Char]),
    case(J::Bool, "Character.isLetter(a)", &[J::CodePoint]),
    case(J::Bool, "Character.isLetterOrDigit(a)", &[J::Char]),
    case(J::Bool, "Character.isUpperCase(a)", &[J::Char]),
    case(J::Bool, "Character.isLowerCase(a)", &[J::CodePoint]),
    case(J::Bool, "Character.isWhitespace(a)", &[J::Char]),
    // `System.arraycopy`, through the helpers of `HELPERS`: into another array, and within one
    // array forwards and backwards (overlapping ranges).
    case(J::Int, "copied(a, b)", &[J::IntArray, J::Int]),
    case(J::Int, "shifted(a, b)", &[J::IntArray, J::Int]),
    case(J::Int, "pulled(a, b)", &[J::IntArray, J::Int]),
];

/// Methods the cases call, compiled and lowered with them (jreach inlines them, so the JDK
/// method they call is the one modelled).
const HELPERS: &str = r#"
    static int copied(int[] a, int p) {
        int[] d = {9, 9, 9, 9, 9};
        System.arraycopy(a, p, d, 1, 3);
        return d[0] + 10 * d[1] + 100 * d[2] + 1000 * d[3] + 10000 * d[4];
    }
    static int shifted(int[] a, int n) {
        System.arraycopy(a, 0, a, 1, n);
        return digest(a);
    }
    static int pulled(int[] a, int n) {
        System.arraycopy(a, 1, a, 0, n);
        return digest(a);
    }
    static int digest(int[] a) {
        int s = a.length;
        if (a.length > 0) s = 31 * s + a[0];
        if (a.length > 1) s = 31 * s + a[1];
        if (a.length > 2) s = 31 * s + a[2];
        if (a.length > 3) s = 31 * s + a[3];
        if (a.length > 4) s = 31 * s + a[4];
        if (a.length > 5) s = 31 * s + a[5];
        return s;
    }
"#;

/// Arguments per case: the boundary values of each parameter's type first, then random ones.
const CALLS_PER_CASE: usize = 120;

/// xorshift64*: the same arguments on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() >> 33) as usize % n
    }
}

fn boundaries(t: J) -> Vec<Value> {
    let ints = |ty: Ty, xs: &[i64]| xs.iter().map(|x| Value::int(ty, *x)).collect::<Vec<_>>();
    match t {
        J::Bool => vec![Value::Bool(false), Value::Bool(true)],
        J::Char => ints(
            Ty::Char,
            &[
                0, 'a' as i64, 'z' as i64, 'A' as i64, 'Z' as i64, '0' as i64, '@' as i64, '[' as i64, 0x7f, 0xd7ff,
                0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000, 0xffff,
            ],
        ),
        J::Int => ints(
            Ty::Int,
            &[
                0,
                1,
                -1,
                2,
                i32::MAX as i64,
                i32::MIN as i64,
                i32::MAX as i64 - 1,
                i32::MIN as i64 + 1,
                0xffff,
                0x10000,
                0x10ffff,
                'a' as i64,
                'Z' as i64,
                127,
                128,
                46341,
                -46341,
                65536,
            ],
        ),
        J::Long => ints(
            Ty::Long,
            &[
                0,
                1,
                -1,
                2,
                i64::MAX,
                i64::MIN,
                i64::MAX - 1,
                i64::MIN + 1,
                i32::MAX as i64,
                i32::MIN as i64,
                i32::MAX as i64 + 1,
                i32::MIN as i64 - 1,
                3037000500,
                -3037000500,
                1 << 32,
            ],
        ),
        J::Double => [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MAX,
            -f64::MAX,
            f64::MIN_POSITIVE,
            4.9e-324,
            1e308,
        ]
        .map(Value::Double)
        .to_vec(),
        J::Float => [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MAX,
            -f32::MAX,
            f32::MIN_POSITIVE,
            1.4e-45,
        ]
        .map(Value::Float)
        .to_vec(),
        J::Str => ["", "true", "TRUE", "tRuE", "false", "yes", "a", "true "]
            .map(|s| Value::Str(s.into()))
            .into_iter()
            .chain([Value::Null])
            .collect(),
        J::IntArray => vec![
            Value::Null,
            Value::Array { id: 1, items: vec![] },
            Value::Array { id: 1, items: vec![Value::int(Ty::Int, 3)] },
            Value::Array { id: 1, items: [1, 2, 3, 4, 5].map(|x| Value::int(Ty::Int, x)).to_vec() },
        ],
        J::CodePoint => {
            ints(Ty::Int, &[-1, 0, 'a' as i64, 'z' as i64, 'A' as i64, 'Z' as i64, 127, 128, 0xdf, 0x10400])
        }
    }
}

fn random(t: J, r: &mut Rng) -> Value {
    let small = |r: &mut Rng| (r.below(2001) as i64) - 1000;
    match t {
        J::Bool => Value::Bool(r.below(2) == 1),
        // Mostly ASCII: what the models compute without the JDK's tables.
        J::Char => Value::int(Ty::Char, if r.below(4) > 0 { r.below(128) as i64 } else { r.below(0x10000) as i64 }),
        J::Int => Value::int(Ty::Int, if r.below(2) == 0 { small(r) } else { r.next() as u32 as i32 as i64 }),
        J::Long => Value::int(Ty::Long, if r.below(2) == 0 { small(r) } else { r.next() as i64 }),
        J::Double => Value::Double(if r.below(2) == 0 { small(r) as f64 / 8.0 } else { f64::from_bits(r.next()) }),
        J::Float => Value::Float(if r.below(2) == 0 { small(r) as f32 / 8.0 } else { f32::from_bits(r.next() as u32) }),
        J::Str => {
            let pieces = ["t", "r", "u", "e", "T", "R", "U", "E", "x", " "];
            let n = r.below(6);
            Value::Str((0..n).map(|_| pieces[r.below(pieces.len())]).collect())
        }
        J::IntArray => match r.below(4) {
            0 => boundaries(J::IntArray)[r.below(4)].clone(),
            _ => Value::Array { id: 1, items: (0..r.below(7)).map(|_| Value::int(Ty::Int, small(r))).collect() },
        },
        J::CodePoint => {
            Value::int(Ty::Int, if r.below(4) > 0 { r.below(128) as i64 } else { r.below(0x110000) as i64 })
        }
    }
}

/// Argument tuples for `params`: every combination of the first boundary values, then random.
fn arguments(params: &[J], r: &mut Rng) -> Vec<Vec<Value>> {
    let mut out: Vec<Vec<Value>> = vec![vec![]];
    for p in params {
        let b = boundaries(*p);
        out = out.iter().flat_map(|prefix| b.iter().map(move |x| [prefix.clone(), vec![x.clone()]].concat())).collect();
    }
    out.truncate(CALLS_PER_CASE / 2 + CALLS_PER_CASE / 4);
    while out.len() < CALLS_PER_CASE {
        out.push(params.iter().map(|p| random(*p, r)).collect());
    }
    out
}

/// A value as a Java expression of type `t`.
fn java_literal(v: &Value, t: J) -> String {
    match (v, t) {
        (Value::Bool(b), _) => b.to_string(),
        (Value::Int(_, x), J::Char) => format!("(char) 0x{:x}", *x as u16),
        (Value::Int(_, x), J::Int | J::CodePoint) => format!("0x{:x}", *x as u32),
        (Value::Int(_, x), J::Long) => format!("0x{:x}L", *x as u64),
        (Value::Double(x), _) => format!("Double.longBitsToDouble(0x{:x}L)", x.to_bits()),
        (Value::Float(x), _) => format!("Float.intBitsToFloat(0x{:x})", x.to_bits()),
        (Value::Str(s), _) => format!("{s:?}"),
        (Value::Null, J::IntArray) => "(int[]) null".into(),
        (Value::Null, _) => "(String) null".into(),
        (Value::Array { items, .. }, _) => {
            let xs: Vec<String> = items.iter().map(|x| java_literal(x, J::Int)).collect();
            format!("new int[] {{{}}}", xs.join(", "))
        }
        _ => panic!("no literal for {v:?}"),
    }
}

/// What a call printed or computed, in the format the Java side prints.
fn outcome(end: &End) -> Option<String> {
    Some(match end {
        End::Return(Some(v)) => match v {
            Value::Bool(b) => b.to_string(),
            Value::Int(Ty::Char, x) => format!("c:{x}"),
            Value::Int(_, x) => x.to_string(),
            // `doubleToLongBits` and `floatToIntBits` make every NaN the canonical one.
            Value::Double(x) if x.is_nan() => format!("d:{}", 0x7ff8_0000_0000_0000_i64),
            Value::Double(x) => format!("d:{}", x.to_bits() as i64),
            Value::Float(x) if x.is_nan() => format!("f:{}", 0x7fc0_0000_i32),
            Value::Float(x) => format!("f:{}", x.to_bits() as i32),
            Value::Str(s) => format!("s:{s}"),
            Value::Null => "null".into(),
            Value::Array { .. } | Value::ArrRef(_) => "array".into(),
            _ => return None,
        },
        End::Throw(class) => format!("throw:{}", class.rsplit('.').next().unwrap_or(class)),
        End::Return(None) | End::Cutoff(_) | End::Unknown(_) => return None,
    })
}

const JAVA_MAIN: &str = r#"
    static void p(int c, int k, java.util.function.Supplier<Object> s) {
        String out;
        try {
            Object r = s.get();
            if (r == null) out = "null";
            else if (r instanceof Character) out = "c:" + (int) (Character) r;
            else if (r instanceof Double) out = "d:" + Double.doubleToLongBits((Double) r);
            else if (r instanceof Float) out = "f:" + Float.floatToIntBits((Float) r);
            else if (r instanceof String) out = "s:" + r;
            else if (r instanceof int[]) out = "array";
            else out = String.valueOf(r);
        } catch (Throwable t) {
            out = "throw:" + t.getClass().getSimpleName();
        }
        System.out.println(c + " " + k + " " + out);
    }
"#;

#[test]
fn jdk_models_agree_with_the_jdk() {
    let mut rng = Rng(0x6a09_e667_f3bc_c908);
    let args: Vec<Vec<Vec<Value>>> = CASES.iter().map(|c| arguments(c.params, &mut rng)).collect();

    // The methods, once for the lowering and once (with the calls) for the JVM.
    let mut methods = String::new();
    for (i, c) in CASES.iter().enumerate() {
        let params: Vec<String> = c.params.iter().zip(["a", "b"]).map(|(t, n)| format!("{} {n}", t.java())).collect();
        writeln!(
            methods,
            "    static {} m{i}({}) {{\n        return {};\n    }}",
            c.ret.java(),
            params.join(", "),
            c.expr
        )
        .unwrap();
    }
    methods.push_str(HELPERS);
    let mut java = format!("public class Models {{\n{methods}{JAVA_MAIN}");
    for (i, c) in CASES.iter().enumerate() {
        writeln!(java, "    static void run{i}() {{").unwrap();
        for (k, a) in args[i].iter().enumerate() {
            let lits: Vec<String> = a.iter().zip(c.params).map(|(v, t)| java_literal(v, *t)).collect();
            writeln!(java, "        p({i}, {k}, () -> m{i}({}));", lits.join(", ")).unwrap();
        }
        writeln!(java, "    }}").unwrap();
    }
    java.push_str("    public static void main(String[] args) {\n");
    for i in 0..CASES.len() {
        writeln!(java, "        run{i}();").unwrap();
    }
    java.push_str("    }\n}\n");

    let dir = std::env::temp_dir().join(format!("jreach-jdk-models-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("Models.java"), &java).unwrap();
    let jvm = run_java(&dir);
    std::fs::remove_dir_all(&dir).ok();

    let file = SourceFile::parse(&format!("class Models {{\n{methods}}}\n"));
    assert!(!file.has_errors(), "the models' methods parse");
    let all = MethodInfo::all(&file);
    let mut mismatches = Vec::new();
    let mut compared = 0;
    for (i, c) in CASES.iter().enumerate() {
        let m = all.iter().find(|m| m.name == format!("m{i}")).expect("each case has its method");
        let f = lower_method(&file, m, &LowerOptions::default());
        let mut known = 0;
        for (k, a) in args[i].iter().enumerate() {
            let expected = jvm.get(&(i, k)).unwrap_or_else(|| panic!("the JVM printed nothing for {} #{k}", c.expr));
            let Some(got) = outcome(&run(&f, a, 10_000).end) else { continue };
            known += 1;
            compared += 1;
            if got != *expected {
                mismatches.push(format!("{} with {a:?}: the JDK says {expected}, the model {got}", c.expr));
            }
        }
        assert!(
            known * 2 > args[i].len(),
            "{} ({:?}): the model computed only {known} of {} calls; is it still modelled?",
            c.expr,
            c.params,
            args[i].len()
        );
    }
    assert!(mismatches.is_empty(), "{} mismatches of {compared} calls:\n{}", mismatches.len(), mismatches.join("\n"));
    eprintln!("{} JDK methods, {compared} calls compared with the JDK, 0 mismatches", CASES.len());
}

/// Compiles and runs `dir/Models.java`; what each call printed, by case and call.
fn run_java(dir: &Path) -> std::collections::HashMap<(usize, usize), String> {
    let need = "a JDK (javac and java on the PATH; on Debian: apt-get install default-jdk-headless)";
    let javac = Command::new("javac")
        .args(["-nowarn", "-d"])
        .arg(dir)
        .arg(dir.join("Models.java"))
        .output()
        .unwrap_or_else(|e| panic!("this test needs {need}: {e}"));
    assert!(javac.status.success(), "javac failed:\n{}", String::from_utf8_lossy(&javac.stderr));
    let java = Command::new("java")
        .arg("-cp")
        .arg(dir)
        .arg("Models")
        .output()
        .unwrap_or_else(|e| panic!("this test needs {need}: {e}"));
    assert!(java.status.success(), "java failed:\n{}", String::from_utf8_lossy(&java.stderr));
    String::from_utf8_lossy(&java.stdout)
        .lines()
        .map(|l| {
            let mut it = l.splitn(3, ' ');
            let c: usize = it.next().unwrap().parse().unwrap();
            let k: usize = it.next().unwrap().parse().unwrap();
            ((c, k), it.next().unwrap_or("").to_string())
        })
        .collect()
}
