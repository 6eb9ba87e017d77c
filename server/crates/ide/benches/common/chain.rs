//! Deterministic generator of "superLong"-style methods for scaling measurements, the shape of
//! `../shared/tools/gen_chain.py` without the Python dependency: `N` sequential `if`/`else` blocks
//! whose conditions read locals `x`, `y`, `z` that earlier blocks redefined (and parameters
//! `p0..p3`), so resolving conditional definitions by substitution grows as `2^N`, followed by a
//! reachable target (its witness found by simulating Java `int` semantics) and an unreachable one.
//!
//! Shared by `benches/gen_chain.rs` and `examples/bench_corpus.rs` through `#[path]`.

/// One generated class `Chain<N>` with its two target lines.
pub struct Chain {
    /// Number of sequential branches.
    pub n: usize,
    /// The Java source of the class.
    pub text: String,
    /// 0-based line of the reachable target (`// @reach`).
    pub reach_line: usize,
    /// 0-based line of the unreachable target (`// @unreachable`).
    pub unreach_line: usize,
}

/// The sizes the benchmarks measure.
pub const SIZES: [usize; 5] = [10, 30, 100, 300, 1000];

const VARS: [&str; 3] = ["x", "y", "z"];
const OPERANDS: [&str; 7] = ["x", "y", "z", "p0", "p1", "p2", "p3"];
const CMPS: [&str; 4] = [">", "<", ">=", "!="];

/// SplitMix64: small, deterministic and identical on every platform.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    fn between(&mut self, lo: i32, hi: i32) -> i32 {
        lo + self.below((hi - lo + 1) as usize) as i32
    }
}

/// `target = source op k`.
struct Assign {
    target: usize,
    source: usize,
    plus: bool,
    k: i32,
}

/// `if (OPERANDS[left] CMPS[cmp] OPERANDS[right]) { then } else { els }`.
struct Block {
    left: usize,
    cmp: usize,
    right: usize,
    then: Vec<Assign>,
    els: Vec<Assign>,
}

fn assign(rng: &mut Rng) -> Assign {
    Assign {
        target: rng.below(VARS.len()),
        source: rng.below(OPERANDS.len()),
        plus: rng.below(2) == 0,
        k: rng.between(1, 9),
    }
}

fn blocks(n: usize, rng: &mut Rng) -> Vec<Block> {
    (0..n)
        .map(|_| {
            let left = rng.below(VARS.len());
            let right = rng.below(OPERANDS.len());
            let cmp = rng.below(CMPS.len());
            let then = (0..1 + rng.below(2)).map(|_| assign(rng)).collect();
            let els = (0..1 + rng.below(2)).map(|_| assign(rng)).collect();
            Block { left, cmp, right, then, els }
        })
        .collect()
}

/// Runs the blocks on `params` with Java `int` semantics; returns the final `x`, `y`, `z`.
fn simulate(blocks: &[Block], params: [i32; 4]) -> [i32; 3] {
    // Indexed like OPERANDS: x, y, z, p0..p3.
    let mut env = [0, 1, 2, params[0], params[1], params[2], params[3]];
    for b in blocks {
        let (l, r) = (env[b.left], env[b.right]);
        let taken = match CMPS[b.cmp] {
            ">" => l > r,
            "<" => l < r,
            ">=" => l >= r,
            _ => l != r,
        };
        for a in if taken { &b.then } else { &b.els } {
            let s = env[a.source];
            env[a.target] = if a.plus { s.wrapping_add(a.k) } else { s.wrapping_sub(a.k) };
        }
    }
    [env[0], env[1], env[2]]
}

fn push_assigns(out: &mut Vec<String>, assigns: &[Assign]) {
    for a in assigns {
        let op = if a.plus { '+' } else { '-' };
        out.push(format!("            {} = {} {op} {};", VARS[a.target], OPERANDS[a.source], a.k));
    }
}

/// The class `Chain<n>`; the same `n` always gives the same text.
pub fn chain(n: usize) -> Chain {
    let mut rng = Rng(n as u64);
    let blocks = blocks(n, &mut rng);
    let witness = [0; 4].map(|_| rng.between(-20, 20));
    let [x, y, z] = simulate(&blocks, witness);
    let name = format!("chain{n}");
    let mut out = vec![
        "package scale;".to_string(),
        String::new(),
        format!("/** {n} sequential branches over redefined locals. */"),
        format!("public class Chain{n} {{"),
        "    static void hit() {".to_string(),
        "        System.out.println(\"hit\");".to_string(),
        "    }".to_string(),
        String::new(),
        format!("    public static void {name}(int p0, int p1, int p2, int p3) {{"),
        "        int x = 0, y = 1, z = 2;".to_string(),
    ];
    for b in &blocks {
        out.push(format!("        if ({} {} {}) {{", VARS[b.left], CMPS[b.cmp], OPERANDS[b.right]));
        push_assigns(&mut out, &b.then);
        out.push("        } else {".to_string());
        push_assigns(&mut out, &b.els);
        out.push("        }".to_string());
    }
    let args = witness.map(|p| p.to_string()).join(", ");
    out.push(format!("        if (x == {x} && y == {y} && z == {z}) {{"));
    let reach_line = out.len();
    out.push(format!("            hit(); // @reach {name}({args})"));
    out.push("        }".to_string());
    out.push("        if (x - x != 0 || (y > z && z > x && x > y)) {".to_string());
    let unreach_line = out.len();
    out.push("            hit(); // @unreachable".to_string());
    out.push("        }".to_string());
    out.push("    }".to_string());
    out.push("}".to_string());
    let mut text = out.join("\n");
    text.push('\n');
    Chain { n, text, reach_line, unreach_line }
}
