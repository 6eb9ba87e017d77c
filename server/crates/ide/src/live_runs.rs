//! Live code without the solver: before `check` asks z3 about the blocks of a method, the concrete
//! interpreter runs the over-approximating lowering on inputs of its own, and every block and
//! branch edge a run visits is live (a run is one of the executions the lowering stands for, as a
//! model is). On real code almost every question `check` asks has the answer "live", and a run
//! answers dozens of them in the time one solver query takes; the solver is then asked only about
//! what no run reached.
//!
//! A run's inputs are its **slots**: the method's own parameters (an object parameter is a new
//! object or null, and each of its fields a slot, two objects deep), and the lowering's unknowns
//! (`Nondet`: the result of a call jreach cannot see into, a local after a havocked loop, whether
//! a call throws) of a type a run can pick (primitives, strings, and null for references). Each
//! slot has candidate values, simplest first: zero, false, "a", the method's own literals and
//! their neighbours, a few boundaries. The first run takes every slot's first candidate; then
//! three sources of picks take turns: breadth first over picks one change apart (from the first
//! pick to every candidate of every slot, from each later pick that visited something new to the
//! first few), grown strings (the string input whose change found something, with one or two
//! tokens appended: a character or short string literal of the method, a digit, a letter, so a
//! parser's input grows piece by piece, each piece getting further into it), and every slot at
//! random among all its candidates (a fixed seed). They stop once `done` says the caller has its
//! answers (every question of the check is "live"), every block is live, nothing is left to try,
//! or the time given is spent (runs that keep finding go on a little longer). The runs are the
//! same for the same method, start and effort, unless time cuts them short. The check gives them
//! a small budget first, more when the solver needs more than a quick look at a question
//! ([`Effort::more`]), and a start from a model's input after a full question ([`Effort::near_a_model`]).
//!
//! Runs only ever make a block live, so proofs of unreachability are untouched: a block a run
//! visits is satisfiable in the same lowering the solver is asked about (the interpreter computes
//! what Java computes, and the encoding over-approximates it; an unknown's value in the encoding is
//! any value of its type).

use std::collections::{BTreeSet, HashMap, HashSet};
use std::ops::Range;
use std::time::{Duration, Instant};

use jreach_ir::interp::{run_choosing, Value};
use jreach_ir::types::{normalize, Leaf, Ty};
use jreach_ir::{Const, Function, Op, ValueId};
use jreach_smt::DeadCode;
use jreach_syntax::MethodInfo;

/// Most blocks one run visits.
const MAX_STEPS: usize = 100_000;
/// Most time the first runs of one method take, whatever its size (found things included).
const MAX_TIME: Duration = Duration::from_millis(250);
/// Time for the runs of a method: a base and a share per block (a run costs about as much as
/// the blocks it visits; a solver query on a method of a few hundred blocks takes milliseconds).
const BASE_TIME: Duration = Duration::from_micros(500);
const TIME_PER_BLOCK: Duration = Duration::from_micros(40);
/// Random runs in a row that find nothing new before the first runs' random source stops.
const STALE_RUNS: usize = 64;
/// Runs go on past the budget while one of the last this many found something new (up to the
/// most time they may take): a parser's input is being pieced together, say.
const KEEP_FINDING_RUNS: usize = 256;
/// Most candidate values of one slot the breadth-first runs try from a pick after the first (the
/// simplest ones)...
const MAX_BREADTH: usize = 24;
/// ... and that a slot has, for the first pick's changes and the random runs (a method with a
/// `switch` of hundreds of `case`s gets a run into each of them, where each would otherwise take
/// a solver query).
const MAX_CANDIDATES: usize = 4096;
/// Longest string literal taken as a candidate.
const MAX_LITERAL: usize = 64;
/// Strings the breadth-first runs grow by tokens stop growing at this many characters.
const MAX_GROWN: usize = 12;
/// Longest string literal that is also a token strings grow by.
const MAX_TOKEN: usize = 3;

/// Where a slot's value goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SlotOf {
    Param(usize),
    Nondet(ValueId),
    /// Field `field` of the object slot `object` makes, when it makes one.
    Field {
        object: usize,
        field: u16,
    },
}

/// How deep objects of parameters are made (a parameter's object is at depth 1, an object in
/// one of its fields at 2); deeper ones are null or unknown.
const MAX_OBJECT_DEPTH: usize = 2;

/// One input of the runs and the values it may take, the default first.
struct Slot {
    of: SlotOf,
    candidates: Vec<Value>,
}

/// How long the runs of a method go on.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Effort {
    /// The time they take, unless they keep finding.
    budget: Duration,
    /// The time they take when they keep finding (grown strings, random runs).
    max_time: Duration,
    /// Random runs in a row that find nothing new before they stop.
    stale_runs: usize,
}

impl Effort {
    /// The runs before any question: a small budget that grows with the method.
    pub(crate) fn first(f: &Function) -> Effort {
        Effort {
            budget: (BASE_TIME + TIME_PER_BLOCK * f.blocks.len() as u32).min(MAX_TIME),
            max_time: MAX_TIME,
            stale_runs: STALE_RUNS,
        }
    }

    /// The runs from an input the solver found (a model): as much time as the first ones, near
    /// that input and its grown strings only.
    pub(crate) fn near_a_model(f: &Function) -> Effort {
        Effort { stale_runs: 0, ..Effort::first(f) }
    }

    /// The runs after the solver needed more than a quick look at a question: several times
    /// the time of the first ones (a solver query that takes long costs more still), and random
    /// runs that go on longer without finding.
    pub(crate) fn more(f: &Function) -> Effort {
        let time = (Effort::first(f).budget * MORE_TIMES).min(MORE_TIME);
        Effort { budget: time, max_time: time, stale_runs: MORE_STALE_RUNS }
    }
}

/// Time of the runs made when the solver needs more than a quick look at a question: this many
/// times the first runs' budget...
const MORE_TIMES: u32 = 8;
/// ... and at most this.
const MORE_TIME: Duration = Duration::from_millis(200);
/// Random runs in a row that find nothing new before those runs stop.
const MORE_STALE_RUNS: usize = 2048;

/// Runs `f` (the over-approximating lowering of `m`) on chosen inputs and marks what the runs
/// visit as live in `dc`, with the `effort` given; they stop early once `done` holds (checked
/// after each run that found something). They start from the simplest inputs, or from `start`
/// (values of some of the parameters: a model's). The runs are the same for the same method,
/// start and effort, so runs with more effort repeat the first ones and go on from there.
/// Returns the number of runs made.
pub(crate) fn mark_live_by_runs(
    f: &Function,
    m: &MethodInfo,
    dc: &mut DeadCode<'_>,
    effort: Effort,
    start: Option<&[Option<Value>]>,
    done: impl Fn(&DeadCode<'_>) -> bool,
) -> usize {
    let started = Instant::now();
    let Effort { budget, max_time, stale_runs } = effort;
    let lits = Literals::of(f);
    let slots = slots(f, m, &lits);
    let nondet_slot: HashMap<ValueId, usize> = slots
        .iter()
        .enumerate()
        .filter_map(|(i, s)| match s.of {
            SlotOf::Nondet(v) => Some((v, i)),
            SlotOf::Param(_) | SlotOf::Field { .. } => None,
        })
        .collect();
    let mut fields_of: Vec<Vec<(u16, usize)>> = vec![Vec::new(); slots.len()];
    for (i, s) in slots.iter().enumerate() {
        if let SlotOf::Field { object, field } = s.of {
            fields_of[object].push((field, i));
        }
    }
    let base_args: Vec<Value> = f.params.iter().map(|_| Value::Unknown("not chosen".into())).collect();
    let go = |slots: &[Slot], pick: &[usize], dc: &mut DeadCode<'_>| -> usize {
        let mut args = base_args.clone();
        let mut ids = 0;
        for (i, s) in slots.iter().enumerate() {
            if let SlotOf::Param(p) = s.of {
                args[p] = materialize(slots, &fields_of, pick, i, &mut ids);
            }
        }
        let choose = |v: ValueId, _: Ty| nondet_slot.get(&v).map(|&i| slots[i].candidates[pick[i]].clone());
        dc.mark_live_path(&run_choosing(f, &args, &choose, MAX_STEPS).blocks)
    };
    let finished = |dc: &DeadCode<'_>| dc.all_live() || done(dc);
    let mut slots = slots;
    let tokens = lits.tokens();
    let mut base = vec![0usize; slots.len()];
    for (i, slot) in slots.iter_mut().enumerate() {
        let SlotOf::Param(p) = slot.of else { continue };
        let Some(Some(v)) = start.and_then(|vs| vs.get(p)) else { continue };
        base[i] = match slot.candidates.iter().position(|c| same_value(c, v)) {
            Some(k) => k,
            None if matches!(v, Value::Unknown(_)) => continue,
            None => {
                slot.candidates.push(v.clone());
                slot.candidates.len() - 1
            }
        };
    }
    let mut runs = 1;
    go(&slots, &base, dc);
    if finished(dc) {
        return runs;
    }
    // Three sources of picks take turns, so that none waits behind another (each can be long):
    // - near: breadth first over picks one change apart, from the picks that visited something
    //   new, to each of the simplest few candidates of a slot (the first pick: to each of all of
    //   them, so a `switch` of many `case`s gets a run into each);
    // - grown: a string input whose change visited something new, with one or two tokens
    //   appended ("1" -> "1 " -> "1 2/"), which is how a run gets into the parsing code that
    //   inspects a string piece by piece (hundreds of candidates per pick);
    // - random: every slot at once (what needs two or more slots to change together), each
    //   going through its candidates in an order of its own, shuffled again at every round, so
    //   that every candidate comes up once in as many runs as the slot has.
    // What a run finds, whatever its source, is explored near it and grown. Past the budget, the
    // runs go on while they keep finding (each find spares a solver query), up to `max_time`.
    let mut search = Search::new(&slots, base);
    // From a model's input, only its near neighbours: all the candidates of every slot were
    // tried from the simplest input already.
    search.first_taken = start.is_some();
    let mut last_find = runs;
    loop {
        let mut any = false;
        for source in [Source::Near, Source::Grown, Source::Random] {
            let elapsed = started.elapsed();
            let finding = runs - last_find < KEEP_FINDING_RUNS;
            if elapsed >= budget && (!finding || elapsed >= max_time) {
                return runs;
            }
            let Some((pick, changed)) = search.next(source, &mut slots, &tokens, stale_runs) else { continue };
            any = true;
            runs += 1;
            let found = go(&slots, &pick, dc) > 0;
            if source == Source::Random {
                search.stale = if found { 0 } else { search.stale + 1 };
            }
            if found {
                if finished(dc) {
                    return runs;
                }
                last_find = runs;
                search.found(pick, changed);
            }
        }
        if !any {
            return runs;
        }
    }
}

/// Where a pick of the runs comes from (see [`mark_live_by_runs`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    Near,
    Grown,
    Random,
}

/// One pick and changes of it still to try: (slot, candidate) pairs.
struct Changes {
    from: Vec<usize>,
    changes: std::vec::IntoIter<(usize, usize)>,
}

impl Changes {
    fn next(&mut self) -> Option<(Vec<usize>, Option<usize>)> {
        let (i, k) = self.changes.next()?;
        let mut pick = self.from.clone();
        pick[i] = k;
        Some((pick, Some(i)))
    }
}

/// The state of the three sources of picks.
struct Search {
    /// Picks whose one-change neighbours are still to try, each with the slot whose change made
    /// it find something (none for the first pick).
    near: std::collections::VecDeque<(Vec<usize>, Option<usize>)>,
    /// The pick whose neighbours are being tried.
    near_now: Option<Changes>,
    /// Whether the first pick was taken from `near` (its neighbours are all the candidates).
    first_taken: bool,
    /// Picks whose strings are still to grow, with the slot as in `near`.
    to_grow: std::collections::VecDeque<(Vec<usize>, Option<usize>)>,
    /// The pick whose grown strings are being tried.
    grown_now: Option<Changes>,
    rng: Rng,
    orders: Vec<Vec<usize>>,
    round: usize,
    /// Random runs in a row that found nothing new.
    stale: usize,
}

impl Search {
    fn new(slots: &[Slot], base: Vec<usize>) -> Search {
        Search {
            near: std::collections::VecDeque::from([(base.clone(), None)]),
            near_now: None,
            first_taken: false,
            to_grow: std::collections::VecDeque::from([(base, None)]),
            grown_now: None,
            rng: Rng(0x9e37_79b9_7f4a_7c15 ^ slots.len() as u64),
            orders: slots.iter().map(|s| (0..s.candidates.len()).collect()).collect(),
            round: 0,
            stale: 0,
        }
    }

    /// A run found something new with `pick` (changed in slot `changed`): its neighbours and its
    /// grown strings are tried.
    fn found(&mut self, pick: Vec<usize>, changed: Option<usize>) {
        self.to_grow.push_back((pick.clone(), changed));
        self.near.push_back((pick, changed));
    }

    /// The next pick of `source` and the slot it changed, if it has any left.
    fn next(
        &mut self,
        source: Source,
        slots: &mut [Slot],
        tokens: &[String],
        stale_runs: usize,
    ) -> Option<(Vec<usize>, Option<usize>)> {
        match source {
            Source::Near => loop {
                if let Some(p) = self.near_now.as_mut().and_then(Changes::next) {
                    return Some(p);
                }
                let (from, _) = self.near.pop_front()?;
                let breadth = if self.first_taken { MAX_BREADTH } else { usize::MAX };
                self.first_taken = true;
                let changes: Vec<(usize, usize)> = (0..slots.len())
                    .flat_map(|i| (0..slots[i].candidates.len().min(breadth)).map(move |k| (i, k)))
                    .filter(|&(i, k)| k != from[i])
                    .collect();
                self.near_now = Some(Changes { from, changes: changes.into_iter() });
            },
            Source::Grown => loop {
                if let Some(p) = self.grown_now.as_mut().and_then(Changes::next) {
                    return Some(p);
                }
                let (from, changed) = self.to_grow.pop_front()?;
                let added = grow_strings(slots, &from, changed, tokens);
                let changes: Vec<(usize, usize)> =
                    added.iter().enumerate().flat_map(|(i, ks)| ks.clone().map(move |k| (i, k))).collect();
                self.grown_now = Some(Changes { from, changes: changes.into_iter() });
            },
            Source::Random => {
                if self.stale >= stale_runs || slots.is_empty() {
                    return None;
                }
                // Slots grown since the orders were made take part from the next shuffle on.
                for (order, slot) in self.orders.iter_mut().zip(slots.iter()) {
                    if self.round % order.len().max(1) == 0 && order.len() < slot.candidates.len() {
                        order.extend(order.len()..slot.candidates.len());
                    }
                }
                let round = self.round;
                let rng = &mut self.rng;
                let pick: Vec<usize> = self
                    .orders
                    .iter_mut()
                    .map(|order| {
                        let at = round % order.len();
                        if at == 0 {
                            rng.shuffle(order);
                        }
                        order[at]
                    })
                    .collect();
                self.round += 1;
                Some((pick, None))
            }
        }
    }
}

/// The value slot `i` takes in `pick`, with an object or array of its own where it makes one
/// (`ids` counts those made so far) and the object's fields from their slots.
fn materialize(slots: &[Slot], fields_of: &[Vec<(u16, usize)>], pick: &[usize], i: usize, ids: &mut i64) -> Value {
    match &slots[i].candidates[pick[i]] {
        Value::Object { fields, .. } => {
            *ids += 1;
            let id = *ids;
            let mut fields = fields.clone();
            for &(k, child) in &fields_of[i] {
                fields[k as usize] = materialize(slots, fields_of, pick, child, ids);
            }
            Value::Object { id, fields }
        }
        Value::Array { items, .. } => {
            *ids += 1;
            Value::Array { id: *ids, items: items.clone() }
        }
        v => v.clone(),
    }
}

/// Adds to the string inputs of the method (parameters and their objects' fields, not the
/// results of unknown calls) that `changed` names (all of them when it names none), where their
/// value in `from` is a string shorter than [`MAX_GROWN`], that string with one or two tokens
/// appended, as candidates the slot did not have (at most [`MAX_CANDIDATES`] in all). Growing
/// only the slot whose change found something keeps the growth where it pays. Returns, per
/// slot, the range of candidate indices added.
fn grow_strings(slots: &mut [Slot], from: &[usize], changed: Option<usize>, tokens: &[String]) -> Vec<Range<usize>> {
    let mut added = Vec::with_capacity(slots.len());
    for (i, slot) in slots.iter_mut().enumerate() {
        let start = slot.candidates.len();
        let input = !matches!(slot.of, SlotOf::Nondet(_));
        let wanted = changed.is_none_or(|c| c == i);
        if let (Value::Str(s), true) = (&slot.candidates[from[i]], input && wanted) {
            if s.chars().count() < MAX_GROWN && start < MAX_CANDIDATES {
                let s = s.clone();
                let mut seen: HashSet<String> = slot
                    .candidates
                    .iter()
                    .filter_map(|c| match c {
                        Value::Str(c) => Some(c.clone()),
                        _ => None,
                    })
                    .collect();
                // One token, then two: a piece that changes nothing on its own ("1 1", where
                // "1 " failed already) may be what the next one needs ("1 1/").
                let one = tokens.iter().map(|t| format!("{s}{t}"));
                let two = tokens
                    .iter()
                    .flat_map(|t| tokens.iter().map(move |u| format!("{t}{u}")))
                    .map(|tu| format!("{s}{tu}"));
                for longer in one.chain(two) {
                    if slot.candidates.len() >= MAX_CANDIDATES {
                        break;
                    }
                    if seen.insert(longer.clone()) {
                        slot.candidates.push(Value::Str(longer));
                    }
                }
            }
        }
        added.push(start..slot.candidates.len());
    }
    added
}

/// The slots of `f`: the method's own parameters (the lowering's first ones; an object's fields
/// slots of their own) and its unknowns, each of a type a run can pick a value of.
fn slots(f: &Function, m: &MethodInfo, lits: &Literals) -> Vec<Slot> {
    let mut out = Vec::new();
    for (i, p) in f.params.iter().enumerate().take(m.params.len()) {
        if p.name != m.params[i].name {
            break;
        }
        input_slot(f, SlotOf::Param(i), p.ty, 1, lits, &mut out);
    }
    for (k, v) in f.values.iter().enumerate() {
        if !matches!(v.op, Op::Nondet(_)) {
            continue;
        }
        let candidates = match v.ty {
            // An unknown object is null or stays unknown (its fields are not the arguments').
            Ty::Obj(_) | Ty::Ref | Ty::Arr(_) => vec![Value::Unknown("an object".into()), Value::Null],
            t => candidates(t, lits),
        };
        if !candidates.is_empty() {
            out.push(Slot { of: SlotOf::Nondet(ValueId(k as u32)), candidates });
        }
    }
    out
}

/// The slot of an input of type `ty` at object depth `depth`, and for an object its fields'.
fn input_slot(f: &Function, of: SlotOf, ty: Ty, depth: usize, lits: &Literals, out: &mut Vec<Slot>) {
    let candidates = match ty {
        Ty::Arr(a) if a.dims == 1 => array_candidates(a.leaf, lits),
        Ty::Obj(c) if depth <= MAX_OBJECT_DEPTH => {
            let n = f.classes[c as usize].fields.len();
            // A new object (id and fields filled in by `materialize`), or null.
            vec![Value::Object { id: 0, fields: vec![Value::Unknown("a field".into()); n] }, Value::Null]
        }
        Ty::Obj(_) | Ty::Ref | Ty::Arr(_) => vec![Value::Unknown("an object".into()), Value::Null],
        t => candidates(t, lits),
    };
    if candidates.is_empty() {
        return;
    }
    let at = out.len();
    out.push(Slot { of, candidates });
    if let (Ty::Obj(c), true) = (ty, depth <= MAX_OBJECT_DEPTH) {
        for k in 0..f.classes[c as usize].fields.len() {
            let fty = f.field_ty(c, k as u16);
            // Arrays in fields are left unknown.
            if !matches!(fty, Ty::Arr(_)) {
                input_slot(f, SlotOf::Field { object: at, field: k as u16 }, fty, depth + 1, lits, out);
            }
        }
    }
}

/// Candidate values of a primitive or string slot, simplest first; empty for other types.
fn candidates(ty: Ty, lits: &Literals) -> Vec<Value> {
    let mut out: Vec<Value> = match ty {
        Ty::Bool => vec![Value::Bool(false), Value::Bool(true)],
        Ty::Char => {
            let mut codes: Vec<i64> = vec!['a' as i64];
            codes.extend(lits.chars.iter().copied());
            codes.extend([0, '0' as i64, ' ' as i64, 'A' as i64, 0xffff]);
            dedup(codes.into_iter().map(|c| Value::int(Ty::Char, c)))
        }
        t if t.is_integral() => {
            let mut xs: Vec<i64> = vec![0, 1, -1, 2];
            xs.extend(lits.ints.iter().copied());
            xs.extend([i32::MAX as i64, i32::MIN as i64, i64::MAX, i64::MIN]);
            dedup(xs.into_iter().map(|x| Value::int(t, normalize(t, x))))
        }
        Ty::Float | Ty::Double => {
            // 1.0 first: zeros divided by each other make NaN, which every comparison rejects.
            let mut xs: Vec<f64> = vec![1.0, 0.0, -1.0, 0.5, 2.0];
            xs.extend(lits.doubles.iter().copied());
            xs.extend([f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0]);
            let vals = xs.into_iter().map(|x| if ty == Ty::Float { Value::Float(x as f32) } else { Value::Double(x) });
            dedup(vals)
        }
        Ty::Str => {
            let mut xs: Vec<Value> = vec![Value::Str("a".into()), Value::Str(String::new()), Value::Null];
            xs.extend(lits.strings.iter().map(|s| Value::Str(s.clone())));
            xs.extend(lits.chars.iter().filter_map(|c| char::from_u32(*c as u32)).map(|c| Value::Str(c.to_string())));
            xs.extend(["0", "1", " ", "A", "abc"].map(|s| Value::Str(s.into())));
            dedup(xs.into_iter())
        }
        _ => vec![],
    };
    out.truncate(MAX_CANDIDATES);
    out
}

/// Arrays for a one-dimensional array of `leaf`: one element, null, empty, three elements (each
/// its own: its id is given by `materialize`).
fn array_candidates(leaf: Leaf, lits: &Literals) -> Vec<Value> {
    let elem = candidates(leaf.ty(), lits);
    let Some(first) = elem.first() else { return vec![Value::Unknown("an array".into()), Value::Null] };
    let id = 0;
    let second = elem.get(1).unwrap_or(first);
    vec![
        Value::Array { id, items: vec![first.clone()] },
        Value::Null,
        Value::Array { id, items: vec![] },
        Value::Array { id, items: vec![second.clone(), first.clone(), second.clone()] },
    ]
}

fn dedup(xs: impl Iterator<Item = Value>) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for x in xs {
        if !out.iter().any(|y| same_value(&x, y)) {
            out.push(x);
        }
    }
    out
}

/// Whether two candidates are the same value: `PartialEq`, but doubles by their bits (NaN is
/// kept once, -0.0 apart from 0.0).
fn same_value(x: &Value, y: &Value) -> bool {
    match (x, y) {
        (Value::Double(a), Value::Double(b)) => a.to_bits() == b.to_bits(),
        (Value::Float(a), Value::Float(b)) => a.to_bits() == b.to_bits(),
        _ => x == y,
    }
}

/// The literals of a lowering, each integer with its neighbours.
struct Literals {
    ints: BTreeSet<i64>,
    chars: BTreeSet<i64>,
    doubles: Vec<f64>,
    strings: BTreeSet<String>,
}

impl Literals {
    /// What strings grow by: each character literal, each short string literal, a digit and a
    /// letter (numbers and words are what parsing code looks for between its literals).
    fn tokens(&self) -> Vec<String> {
        let mut out: Vec<String> = ["1", "0", "a"].map(String::from).to_vec();
        out.extend(self.chars.iter().filter_map(|c| char::from_u32(*c as u32)).map(String::from));
        out.extend(self.strings.iter().filter(|s| !s.is_empty() && s.chars().count() <= MAX_TOKEN).cloned());
        let mut seen = BTreeSet::new();
        out.retain(|t| seen.insert(t.clone()));
        out
    }

    fn of(f: &Function) -> Literals {
        let mut l =
            Literals { ints: BTreeSet::new(), chars: BTreeSet::new(), doubles: vec![], strings: BTreeSet::new() };
        for v in &f.values {
            let Op::Const(c) = &v.op else { continue };
            match c {
                Const::Int(Ty::Char, x) => {
                    l.chars.insert(*x);
                    l.ints.insert(*x);
                }
                Const::Int(_, x) => {
                    for d in [-1, 0, 1] {
                        l.ints.insert(x.saturating_add(d));
                    }
                }
                Const::Double(bits) => l.doubles.push(f64::from_bits(*bits)),
                Const::Float(bits) => l.doubles.push(f32::from_bits(*bits) as f64),
                Const::Str(s) if s.len() <= MAX_LITERAL => {
                    l.strings.insert(s.clone());
                }
                _ => {}
            }
        }
        l
    }
}

/// xorshift64*: a small deterministic generator (the same method gets the same runs).
struct Rng(u64);

impl Rng {
    /// Fisher-Yates.
    fn shuffle(&mut self, xs: &mut [usize]) {
        for i in (1..xs.len()).rev() {
            xs.swap(i, self.below(i + 1));
        }
    }

    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n.max(1)
    }
}
