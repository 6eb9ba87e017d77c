//! How a test gets the receiver and the parameters of the method under test: the constructor it
//! calls (or reflection), and the signatures and parameter types `gen` cannot serve yet.

use jreach_ir::lower::{FileContext, LowerOptions};
use jreach_ir::{Function, LowerMode, Ty};
use jreach_syntax::{MethodInfo, SourceFile};
use jreach_synth::{jdk_choices, JavaValue};

/// The lowering `gen` makes of `m` for synthesis at unroll bound `unroll` (the receiver created
/// as the test will create it), with or without optional calls on created objects.
pub fn synthesis_options(ctx: &FileContext<'_>, m: &MethodInfo, unroll: u32, setup_calls: bool) -> LowerOptions {
    LowerOptions {
        mode: LowerMode::Synthesis { unroll },
        receiver_ctor: test_receiver_ctor(ctx, m).map(|c| c.range),
        setup_calls,
        receiver_by_reflection: ctx.receiver_by_reflection(m),
        ..Default::default()
    }
}

pub(crate) fn test_receiver_ctor(ctx: &FileContext<'_>, m: &MethodInfo) -> Option<MethodInfo> {
    if m.is_static || m.is_constructor {
        None
    } else {
        receiver_constructor(ctx, m).ok().flatten()
    }
}

/// Parameters whose values jreach cannot model or build in a test.
pub(crate) fn unmodelled_params(f: &Function) -> Option<String> {
    for p in &f.params {
        match p.ty {
            // A test passes a value of its own (`jreach_ir::opaque_jdk`).
            Ty::Ref if jreach_ir::opaque_jdk::test_writes_value_of(&p.java_ty) => {}
            Ty::Ref => {
                return Some(format!(
                    "parameter `{}` needs a value of type {}, which jreach cannot see: its source is not in this \
                     file, its package or the imported classes of its source root, and of the JDK's types \
                     jreach models String (and CharSequence, as a String), the boxed types, List, Map and \
                     Optional, and writes values of readers, writers, streams, Locale, BigDecimal and a few \
                     more",
                    p.name, p.java_ty
                ))
            }
            _ => {}
        }
    }
    None
}

/// Why an instance of `m`'s abstract class cannot be made.
pub(crate) fn abstract_receiver(m: &MethodInfo) -> String {
    format!(
        "{} is abstract, and jreach cannot write an anonymous subclass of it to call {} on: its \
         abstract methods take or return types a test cannot write, or it is an interface with one method",
        m.class_name(),
        m.name
    )
}

/// Methods whose inputs jreach cannot construct yet.
pub(crate) fn unsupported_signature(ctx: &FileContext<'_>, m: &MethodInfo) -> Option<String> {
    unsupported(ctx, m, false)
}

/// [`unsupported_signature`] for a member of an inner class made on an object of its enclosing
/// class ([`outer_object`]).
pub(crate) fn unsupported_signature_on_outer(ctx: &FileContext<'_>, m: &MethodInfo) -> Option<String> {
    unsupported(ctx, m, true)
}

fn unsupported(ctx: &FileContext<'_>, m: &MethodInfo, on_outer: bool) -> Option<String> {
    let file = ctx.file();
    if m.is_constructor || !m.is_static {
        // Instance methods of abstract classes run on an anonymous subclass, when the lowering
        // can make one (see `abstract_receiver`).
        if m.class_is_abstract && m.is_constructor {
            return Some(abstract_receiver(m));
        }
        if !m.is_constructor && receiver_constructor(ctx, m).is_err() && !ctx.receiver_by_reflection(m) {
            return Some(format!(
                "{} has no accessible constructor whose arguments jreach can write to create the instance",
                m.class_name()
            ));
        }
        if m.classes.len() > 1 && !on_outer && !is_static_nested(file, m) {
            // (A search on the JVM makes one on an object of the enclosing class: `outer_object`.)
            return Some(match outer_object(ctx, m, &mut vec![]) {
                Some(_) => {
                    format!("{} is an inner class, whose code jreach's model does not follow yet", m.class_name())
                }
                None => format!("{} is an inner class: jreach cannot create an instance yet", m.class_name()),
            });
        }
    }
    if let Some(why) = m.why_hidden() {
        return Some(format!("{why}: a test cannot call it directly"));
    }
    None
}

/// The constructor a test creates the receiver of instance method `m` with: `Ok(None)` for the
/// no-argument one (declared or implicit), else the accessible constructor with the fewest
/// parameters, all of types jreach can write as literals, else all of types jreach models (the
/// test creates those arguments like parameters: `new Service(new Config(3), x -> 1)`), else
/// also of JDK types whose values a search on the JVM chooses (see `jreach_synth::jdk_choices`).
pub(crate) fn receiver_constructor(ctx: &FileContext<'_>, m: &MethodInfo) -> Result<Option<MethodInfo>, ()> {
    class_constructor(ctx, &m.classes)
}

/// [`receiver_constructor`] for the class of the file whose chain of names is `classes`
/// (`["Heap", "Node"]`).
fn class_constructor(ctx: &FileContext<'_>, classes: &[String]) -> Result<Option<MethodInfo>, ()> {
    // The class's own constructors: `ctx` may hold the package's and the imported sources after
    // the file's, so that the constructors' parameters of those classes count as seen.
    let own_end = ctx.own_end().unwrap_or(ctx.file().text.len());
    let ctors: Vec<MethodInfo> = ctx
        .methods()
        .iter()
        .filter(|c| c.is_constructor && c.classes == classes && !c.has_error && c.range.end <= own_end)
        .cloned()
        .collect();
    if ctors.is_empty() || ctors.iter().any(|c| c.params.is_empty() && !c.hidden_from_tests()) {
        return Ok(None);
    }
    let writable = |ty: &str| {
        matches!(
            Ty::of_java(ty),
            Ty::Bool | Ty::Byte | Ty::Short | Ty::Char | Ty::Int | Ty::Long | Ty::Float | Ty::Double | Ty::Str
        ) || matches!(Ty::of_java(ty), Ty::Arr(a) if a.leaf != jreach_ir::Leaf::Ref)
    };
    let fewest = |ok: &dyn Fn(&str) -> bool| {
        ctors
            .iter()
            .filter(|c| !c.hidden_from_tests() && c.params.iter().all(|p| ok(&p.ty)))
            .min_by_key(|c| c.params.len())
            .cloned()
    };
    let types: Vec<&str> = ctors.iter().flat_map(|c| &c.params).map(|p| p.ty.as_str()).collect();
    let seen_flags = std::cell::OnceCell::new();
    let seen = |ty: &str| {
        let seen = seen_flags.get_or_init(|| ctx.sees_types(&types));
        types.iter().zip(seen).any(|(t, s)| *s && *t == ty)
    };
    fewest(&writable)
        .or_else(|| fewest(&|ty: &str| writable(ty) || seen(ty)))
        // Then JDK types a search on the JVM chooses values of (`new Printer("x", Locale.US)`).
        .or_else(|| fewest(&|ty: &str| writable(ty) || seen(ty) || jdk_choices(ty, "").is_some()))
        .map(Some)
        .ok_or(())
}

pub(crate) fn is_static_nested(file: &SourceFile, m: &MethodInfo) -> bool {
    let mut n = m.node(file).parent();
    while let Some(p) = n {
        if matches!(p.kind(), "class_declaration" | "enum_declaration" | "record_declaration" | "interface_declaration")
        {
            let mut c = p.walk();
            let is_static = p.children(&mut c).any(|ch| {
                ch.kind() == "modifiers"
                    && jreach_syntax::text_of(ch, &file.text).split_whitespace().any(|w| w == "static")
            });
            return is_static || p.kind() != "class_declaration";
        }
        n = p.parent();
    }
    false
}

/// For a member of an inner class `m` whose enclosing class is top-level and not abstract, the
/// class not private: the object of the enclosing class a test makes it on
/// ([`jreach_synth::TestRequest::outer`]), by the constructor [`receiver_constructor`] would
/// choose, its arguments a search on the JVM moves. `None` for any other class, or when no such
/// constructor is there.
pub(crate) fn outer_object(ctx: &FileContext<'_>, m: &MethodInfo, imports: &mut Vec<String>) -> Option<JavaValue> {
    let file = ctx.file();
    if m.classes.len() != 2 || is_static_nested(file, m) || m.class_is_private || m.hidden_from_tests() {
        return None;
    }
    let outer = &m.classes[..1];
    let outer_abstract = ctx.methods().iter().any(|c| c.classes == outer && c.class_is_abstract);
    if outer_abstract {
        return None;
    }
    let name = outer[0].clone();
    match class_constructor(ctx, outer).ok()? {
        None => Some(JavaValue::new_object(name)),
        Some(ctor) => {
            let args = super::start::searched_args(ctx, &ctor.params, &name, imports)?;
            Some(JavaValue::new_with(name, args))
        }
    }
}
