//! The methods through which a test can reach a private method or constructor (or one of a
//! private class): the methods of the same top-level class whose bodies call it by name with as
//! many arguments (on no receiver, `this`, or the class's name; on any object for an instance
//! method of a nested class; `new C(...)` or `this(...)` for a constructor) or refer to it
//! (`this::name`), and, when a test cannot call those either, their callers in turn.

use std::collections::HashSet;

use jreach_ir::lower::FileContext;
use jreach_syntax::{find_target, MethodInfo, Node, SourceFile, Target, TargetError};

use super::MAX_CALLERS;

/// How many private methods deep the search for a caller a test can call goes.
const MAX_DEPTH: usize = 3;

/// How deep it goes when it found none within [`MAX_DEPTH`] (a parser's constructor calling
/// private set-up methods, each calling the next).
const MAX_DEPTH_FOR_NONE: usize = 8;

/// The target on 0-based `line` of `file` and the methods a test may enter to reach it: its own,
/// or for a private one, up to [`MAX_CALLERS`] methods calling it. `None` for no target or a
/// method with syntax errors. A statement in an anonymous class whose object a field holds is
/// entered by the methods reading that field ([`super::field_held`]).
pub(crate) fn target_entries(file: &SourceFile, line: usize) -> Option<(Target, Vec<MethodInfo>)> {
    let target = match find_target(file, line) {
        // In an anonymous class a field holds: the methods reading the field.
        Err(TargetError::InLocalOrAnonymousClass { .. }) => {
            let held = super::field_held::field_held(file, line)?;
            let entries = super::field_held::entries(file, &held, MAX_CALLERS);
            return Some((held.target, entries));
        }
        found => found.ok()?,
    };
    if target.method.has_error {
        return None;
    }
    let entries = if target.method.hidden_from_tests() {
        let ctx = FileContext::new(file, None, None);
        entry_callers(&ctx, &target.method, MAX_CALLERS)
    } else {
        vec![target.method.clone()]
    };
    Some((target, entries))
}

/// [`target_entries`] for a search on the JVM: a method a test may call that its class does not
/// offer publicly (package-private or protected) and that takes an object of a class of its file
/// (a tree's `removeInternal(Node, boolean)`) needs what only its class makes in the right state
/// (a node that is in the tree), so the methods of its class calling it follow it as ways in
/// (`removeInternalByKey(key)` after the receiver's `put`s). Others keep the search's whole time
/// for themselves.
pub(crate) fn search_entries(file: &SourceFile, line: usize) -> Option<(Target, Vec<MethodInfo>)> {
    let (target, mut entries) = target_entries(file, line)?;
    let m = &target.method;
    let (root, src) = (file.tree.root_node(), file.text.as_str());
    let of_the_file = |ty: &str| {
        let raw = jreach_syntax::erase(ty.trim().trim_start_matches("final "));
        let simple = raw.trim_end_matches(['[', ']', '.']).rsplit('.').next().unwrap_or("").to_string();
        ["class_declaration", "interface_declaration"]
            .iter()
            .any(|kind| jreach_syntax::tree::declaration_named(root, src, kind, &simple).is_some())
    };
    let takes_own_object = m.params.iter().any(|p| of_the_file(&p.ty));
    if !m.hidden_from_tests() && !m.is_public && !m.is_constructor && takes_own_object {
        let ctx = FileContext::new(file, None, None);
        entries.extend(entry_callers(&ctx, m, MAX_CALLERS - 1));
    }
    Some((target, entries))
}

/// Up to `max` methods a test can call whose bodies lead to private method `m`, the simplest
/// first (static, public, fewest parameters, then in source order).
pub(crate) fn entry_callers(ctx: &FileContext<'_>, m: &MethodInfo, max: usize) -> Vec<MethodInfo> {
    let file = ctx.file();
    let same_class = |c: &MethodInfo| c.classes.first() == m.classes.first() && c.package == m.package && !c.has_error;
    let mut seen: HashSet<std::ops::Range<usize>> = HashSet::from([m.range.clone()]);
    let mut frontier = vec![m.clone()];
    let mut entries = Vec::new();
    for depth in 0..MAX_DEPTH_FOR_NONE {
        if depth >= MAX_DEPTH && !entries.is_empty() {
            break;
        }
        let mut next = Vec::new();
        for callee in &frontier {
            for c in ctx.methods().iter().filter(|c| same_class(c)) {
                if !seen.contains(&c.range) && calls(file, c, callee) {
                    seen.insert(c.range.clone());
                    // A method of an anonymous or local class runs when the code holding its
                    // object calls it: a test enters by the method creating that object (none
                    // for a field's initializer), and only a run shows whether the line runs.
                    let c = match c.in_unnamed_class(file) {
                        true => match creating_method(file, c) {
                            Some(k) if seen.insert(k.range.clone()) => k,
                            _ => continue,
                        },
                        false => c.clone(),
                    };
                    if c.hidden_from_tests() {
                        next.push(c);
                    } else {
                        entries.push(c);
                    }
                }
            }
        }
        if next.is_empty() {
            break;
        }
        frontier = next;
    }
    entries.sort_by_key(|c| (!c.is_static, !c.is_public, c.params.len(), c.range.start));
    entries.truncate(max);
    entries
}

/// The method or constructor whose body declares the anonymous or local class `m` is a method of
/// (when that is itself a method of such a class, the one declaring that class, and so on).
fn creating_method(file: &SourceFile, m: &MethodInfo) -> Option<MethodInfo> {
    let mut up = m.node(file).parent().and_then(|body| body.parent()).and_then(|class| class.parent());
    while let Some(n) = up {
        if matches!(n.kind(), "method_declaration" | "constructor_declaration") {
            let k = MethodInfo::from_node(n, file).filter(|k| !k.has_error)?;
            return match k.in_unnamed_class(file) {
                true => creating_method(file, &k),
                false => Some(k),
            };
        }
        if matches!(n.kind(), "field_declaration" | "static_initializer") {
            return None;
        }
        up = n.parent();
    }
    None
}

/// The private methods of `m`'s top-level class through which the code there reaches private
/// method `m` (`m` itself first, then those calling it, up to [`MAX_DEPTH`] deep).
pub(crate) fn private_chain(ctx: &FileContext<'_>, m: &MethodInfo) -> Vec<MethodInfo> {
    let file = ctx.file();
    let same_class = |c: &MethodInfo| c.classes.first() == m.classes.first() && c.package == m.package && !c.has_error;
    let mut chain = vec![m.clone()];
    let mut frontier = vec![m.clone()];
    for _ in 0..MAX_DEPTH {
        let mut next = Vec::new();
        for callee in &frontier {
            for c in ctx.methods().iter().filter(|c| same_class(c) && c.hidden_from_tests()) {
                if !chain.iter().any(|k| k.range == c.range) && calls(file, c, callee) {
                    chain.push(c.clone());
                    next.push(c.clone());
                }
            }
        }
        if next.is_empty() {
            break;
        }
        frontier = next;
    }
    chain
}

/// Whether the body of `caller` calls `callee` (by name and number of arguments, on no receiver,
/// `this` or the class's name, or any object for an instance method of a nested class).
fn calls(file: &SourceFile, caller: &MethodInfo, callee: &MethodInfo) -> bool {
    calls_in(file, caller.body_node(file), &caller.classes, callee)
}

/// Whether the code under `root`, of the class named by `classes`, calls `callee` (see [`calls`]).
pub(crate) fn calls_in(file: &SourceFile, root: Node<'_>, classes: &[String], callee: &MethodInfo) -> bool {
    calls_under(file, root, classes, callee, false)
}

/// [`calls_in`], counting only the calls that run as the code under `root` runs: not those in
/// the body of a lambda or of an anonymous class it creates, nor a method reference, which run
/// when something calls them later.
pub(crate) fn calls_now_in(file: &SourceFile, root: Node<'_>, classes: &[String], callee: &MethodInfo) -> bool {
    calls_under(file, root, classes, callee, true)
}

fn calls_under(file: &SourceFile, root: Node<'_>, classes: &[String], callee: &MethodInfo, now: bool) -> bool {
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if now && matches!(n.kind(), "lambda_expression" | "class_body" | "method_reference") {
            continue;
        }
        let hit = match n.kind() {
            "method_invocation" => !callee.is_constructor && invokes(file, n, callee),
            "object_creation_expression" => callee.is_constructor && creates(file, n, callee),
            // `this(...)` in another constructor of the class.
            "explicit_constructor_invocation" => callee.is_constructor && delegates(file, n, classes, callee),
            "method_reference" => !callee.is_constructor && references(file, n, callee),
            _ => false,
        };
        if hit {
            return true;
        }
        let mut cur = n.walk();
        stack.extend(n.children(&mut cur));
    }
    false
}

/// `new C(args)` of `callee`'s class (by its simple name) with as many arguments.
fn creates(file: &SourceFile, new: Node<'_>, callee: &MethodInfo) -> bool {
    let Some(ty) = new.child_by_field_name("type") else { return false };
    let ty = &file.text[ty.byte_range()];
    // `new Collector<>(...)`, `new Outer.Inner<T>(...)`: the class's name without type arguments.
    let ty = ty.split('<').next().unwrap_or(ty).trim();
    let simple = ty.rsplit('.').next().unwrap_or(ty);
    let arity = arity(new);
    new.child_by_field_name("body").is_none()
        && callee.classes.last().is_some_and(|c| c == simple)
        && takes(file, callee, arity)
}

/// `this::name` or `C::name` naming `callee` (whatever its arity: the functional interface
/// decides which overload, and any may be the one).
fn references(file: &SourceFile, r: Node<'_>, callee: &MethodInfo) -> bool {
    let text = |n: Node<'_>| &file.text[n.byte_range()];
    let parts: Vec<Node<'_>> = r.named_children(&mut r.walk()).collect();
    let (Some(object), Some(name)) = (parts.first(), parts.last()) else { return false };
    if parts.len() != 2 || name.kind() != "identifier" || text(*name) != callee.name {
        return false;
    }
    let o = text(*object);
    o == "this" || callee.classes.iter().any(|c| c == o) || o == callee.classes.join(".")
}

fn invokes(file: &SourceFile, call: Node<'_>, callee: &MethodInfo) -> bool {
    let text = |n: Node<'_>| &file.text[n.byte_range()];
    let Some(name) = call.child_by_field_name("name") else { return false };
    if text(name) != callee.name {
        return false;
    }
    // A method of a nested class runs on objects the enclosing classes hold in fields and
    // locals (`rule.check(x)`, `new Rule(5).check(x)`): any receiver may be one. So does one
    // of an object a static member holds (an enum constant's body, taken as static for the
    // test that names the member): `state.isStarted()` with `state` an enum's constant.
    let receiver_ok = match call.child_by_field_name("object") {
        None => true,
        Some(_) if callee.classes.len() > 1 && !callee.is_static => true,
        Some(_) if callee.held_by.is_some() => true,
        Some(o) => {
            let o = text(o);
            o == "this" || callee.classes.iter().any(|c| c == o) || o == callee.classes.join(".")
        }
    };
    receiver_ok && takes(file, callee, arity(call))
}

/// Whether `callee` takes `n` arguments: as many as it has parameters, or for varargs
/// (`f(Type t, Class<?>... more)`), at least all but the last.
fn takes(file: &SourceFile, callee: &MethodInfo, n: usize) -> bool {
    let k = callee.params.len();
    if n == k {
        return true;
    }
    let varargs = callee
        .node(file)
        .child_by_field_name("parameters")
        .and_then(|ps| ps.named_children(&mut ps.walk()).filter(|p| !p.is_extra()).last())
        .is_some_and(|last| last.kind() == "spread_parameter");
    varargs && n + 1 >= k
}

/// `this(args)` in a constructor of `callee`'s class, with as many arguments.
fn delegates(file: &SourceFile, call: Node<'_>, classes: &[String], callee: &MethodInfo) -> bool {
    let this = call.child_by_field_name("constructor").is_some_and(|c| &file.text[c.byte_range()] == "this");
    this && classes == callee.classes && arity(call) == callee.params.len()
}

/// The number of arguments of a call or creation (comments between them are no argument).
fn arity(call: Node<'_>) -> usize {
    call.child_by_field_name("arguments")
        .map_or(0, |a| a.named_children(&mut a.walk()).filter(|n| !n.is_extra()).count())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names of the entries through which a test reaches the private method named `name`.
    fn entries(src: &str, name: &str) -> Vec<String> {
        let file = SourceFile::parse(src);
        let ctx = FileContext::new(&file, None, None);
        let m = ctx.methods().iter().find(|m| m.name == name).expect("the method").clone();
        entry_callers(&ctx, &m, MAX_CALLERS).into_iter().map(|c| c.name).collect()
    }

    #[test]
    fn calls_references_and_objects_of_nested_classes() {
        let src = "public class T {\n  private static int twice(int x) { return 2 * x; }\n  private int thrice(int x) { return 3 * x; }\n  public static int viaCall(int x) { return twice(x); }\n  public int viaRef(int[] xs) { return java.util.Arrays.stream(xs).map(this::thrice).sum(); }\n  public static int viaClassRef(int[] xs) { return java.util.Arrays.stream(xs).map(T::twice).sum(); }\n  private static class Rule {\n    int check(int x) { return x; }\n  }\n  public static int viaObject(int x) { return new Rule().check(x); }\n  public static int unrelated(String s) { return s.length(); }\n}\n";
        assert_eq!(entries(src, "twice"), vec!["viaCall", "viaClassRef"]);
        assert_eq!(entries(src, "thrice"), vec!["viaRef"]);
        assert_eq!(entries(src, "check"), vec!["viaObject"]);
    }

    #[test]
    fn a_method_of_an_enum_constant_s_body_is_called_on_any_object() {
        let src = "public class Watch {\n  private enum State {\n    RUNNING {\n      @Override boolean started() { return true; }\n    },\n    STOPPED {\n      @Override boolean started() { return false; }\n    };\n    abstract boolean started();\n  }\n  private State state = State.STOPPED;\n  public void start() { state = State.RUNNING; }\n  public boolean isStarted() { return state.started(); }\n}\n";
        let file = SourceFile::parse(src);
        let ctx = FileContext::new(&file, None, None);
        let stopped = ctx.methods().iter().filter(|m| m.name == "started").nth(1).expect("STOPPED's").clone();
        assert!(stopped.held_by.is_some(), "{stopped:?}");
        let names: Vec<String> = entry_callers(&ctx, &stopped, MAX_CALLERS).into_iter().map(|c| c.name).collect();
        assert_eq!(names, ["isStarted"]);
    }

    #[test]
    fn a_constructor_made_with_a_diamond_and_a_long_chain_of_private_callers() {
        let src = "public class P {\n  private static class Box<T> {\n    private Box(T t) { }\n  }\n  public static Box<String> box(String s) { return new Box<>(s); }\n  private static int a(int x) { return x + 1; }\n  private static int b(int x) { return a(x); }\n  private static int c(int x) { return b(x); }\n  private static int d(int x) { return c(x); }\n  private static int e(int x) { return d(x); }\n  public P(int x) { e(x); }\n}\n";
        let file = SourceFile::parse(src);
        let ctx = FileContext::new(&file, None, None);
        let ctor = ctx.methods().iter().find(|m| m.is_constructor && m.classes.len() == 2).expect("Box's").clone();
        let names: Vec<String> = entry_callers(&ctx, &ctor, MAX_CALLERS).into_iter().map(|c| c.name).collect();
        assert_eq!(names, ["box"]);
        // Five private methods deep: found, as nothing is nearer.
        let outer: Vec<bool> = entry_callers(&ctx, &ctx.methods().iter().find(|m| m.name == "a").unwrap().clone(), 4)
            .into_iter()
            .map(|c| c.is_constructor)
            .collect();
        assert_eq!(outer, [true]);
    }

    #[test]
    fn delegating_constructors_and_commented_arguments() {
        let src = "public class T {\n  private final int n;\n  private T(int n, boolean flag) { this.n = flag ? n : -n; }\n  public T(int n) { this(n, true /* positive */); }\n  private int scaled(int k, boolean up) { return up ? n * k : n / k; }\n  public int up(int k) { return scaled(k, true /* up */); }\n}\n";
        let file = SourceFile::parse(src);
        let ctx = FileContext::new(&file, None, None);
        let private_ctor = ctx.methods().iter().find(|m| m.is_constructor && m.params.len() == 2).unwrap().clone();
        let names: Vec<usize> =
            entry_callers(&ctx, &private_ctor, MAX_CALLERS).into_iter().map(|c| c.params.len()).collect();
        assert_eq!(names, vec![1], "the public constructor delegates to it");
        assert_eq!(entries(src, "scaled"), vec!["up"]);
        // Varargs take more arguments, or one fewer.
        let src = "public class V {\n  private static int count(String s, int... more) { return more.length; }\n  public static int none() { return count(\"a\"); }\n  public static int three() { return count(\"a\", 1, 2, 3); }\n  public static int other(int x) { return x; }\n}\n";
        assert_eq!(entries(src, "count"), vec!["none", "three"]);
    }
}
