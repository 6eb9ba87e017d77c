//! The name of a test jreach writes: the method it calls and what the target statement does
//! (`withdraw_returnsMinus1`, `add_setsTotal`, `parse_throwsIllegalArgumentException`), read
//! from the statement's tree ([`jreach_syntax::statement_action`]). A line number would go stale
//! with the first edit above the statement; the comment inside the test says which line and
//! member it reaches ([`crate::markers_in`]).

use jreach_syntax::{Action, Term};

use crate::render::identifier;
use crate::TestRequest;

/// Longest part of a name that says what the statement does.
const ACTION_MAX: usize = 40;

/// `<method>_<what the statement does>`, `new<Class>_...` for a constructor, `initialize<Class>_...`
/// for a static initializer: a valid Java identifier.
pub fn test_method_name(req: &TestRequest) -> String {
    let base = if req.initializes_class {
        format!("initialize{}", identifier(&req.classes.join("")))
    } else if req.is_constructor {
        let class = req.classes.last().map(String::as_str).unwrap_or(req.method.as_str());
        format!("new{}", identifier(class))
    } else {
        identifier(&req.method)
    };
    format!("{base}_{}", action_words(&req.target_action))
}

/// `returnsMinus1`, `setsTotal`, `callsPrintln`: the statement's action in camel case.
fn action_words(action: &Action) -> String {
    let with = |verb: &str, what: Option<&str>| match what.map(capitalized).filter(|w| !w.is_empty()) {
        Some(w) => format!("{verb}{w}"),
        None => verb.to_string(),
    };
    let words = match action {
        Action::Returns(term) => with("returns", term.as_ref().map(term_words).as_deref()),
        Action::Throws(what) => with("throws", what.as_deref()),
        Action::Sets(name) => with("sets", Some(name)),
        Action::Computes(name) => with("computes", Some(name)),
        Action::Calls(name) => with("calls", Some(name)),
        Action::Creates(class) => with("creates", Some(class)),
        Action::Checks(name) => with("checks", name.as_deref()),
        Action::Switches(name) => with("switchesOn", name.as_deref()),
        Action::Loops => "loops".into(),
        Action::Breaks => "breaks".into(),
        Action::Continues => "continues".into(),
        Action::Yields => "yields".into(),
        Action::Tries => "tries".into(),
        Action::Asserts => "asserts".into(),
        Action::Locks => "locks".into(),
        Action::Other => "runs".into(),
    };
    // Cut at a character boundary: names stay readable.
    match words.char_indices().nth(ACTION_MAX) {
        Some((at, _)) => words[..at].to_string(),
        None => words,
    }
}

/// A term as words of an identifier: `-1` → `Minus1`, `"not found"` → `NotFound`, `2.5` → `2_5`.
fn term_words(term: &Term) -> String {
    match term {
        Term::Name(name) => name.clone(),
        Term::Number(n) => {
            let digits: String =
                n.trim_start_matches('-').chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
            if n.starts_with('-') {
                format!("Minus{digits}")
            } else {
                digits
            }
        }
        Term::Text(text) => {
            let words: Vec<String> = text
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .take(3)
                .map(|w| capitalized(&w.to_lowercase()))
                .collect();
            if words.is_empty() {
                if text.is_empty() {
                    "Empty".into()
                } else {
                    "Text".into()
                }
            } else {
                words.concat()
            }
        }
        Term::Char(c) => match c.chars().next().filter(|c| c.is_alphanumeric() && c.is_ascii()) {
            Some(ch) if c.len() == 1 => format!("Char{}", ch.to_ascii_uppercase()),
            _ => "Char".into(),
        },
        Term::Keyword(k) => k.clone(),
        Term::New(class) => format!("New{}", capitalized(class)),
    }
}

/// The word with its first letter upper-case, characters an identifier cannot hold dropped.
fn capitalized(word: &str) -> String {
    let word: String = word.chars().filter(|c| c.is_alphanumeric() || *c == '_' || *c == '$').collect();
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_read_as_words() {
        let cases = [
            (Action::Returns(Some(Term::Number("-1".into()))), "returnsMinus1"),
            (Action::Returns(Some(Term::Number("2.5e3".into()))), "returns2_5e3"),
            (Action::Returns(Some(Term::Text("not found!".into()))), "returnsNotFound"),
            (Action::Returns(Some(Term::Text(String::new()))), "returnsEmpty"),
            (Action::Returns(Some(Term::Text("%%".into()))), "returnsText"),
            (Action::Returns(Some(Term::Char("a".into()))), "returnsCharA"),
            (Action::Returns(Some(Term::Char("\\n".into()))), "returnsChar"),
            (Action::Returns(Some(Term::Keyword("null".into()))), "returnsNull"),
            (Action::Returns(Some(Term::New("ArrayList".into()))), "returnsNewArrayList"),
            (Action::Returns(Some(Term::Name("élan".into()))), "returnsÉlan"),
            (Action::Returns(None), "returns"),
            (Action::Throws(Some("IllegalStateException".into())), "throwsIllegalStateException"),
            (Action::Sets("total".into()), "setsTotal"),
            (Action::Checks(None), "checks"),
            (Action::Switches(Some("kind".into())), "switchesOnKind"),
            (Action::Other, "runs"),
            (
                Action::Calls("aVeryLongMethodNameThatGoesOnAndOnForever".into()),
                "callsAVeryLongMethodNameThatGoesOnAndOnF",
            ),
        ];
        for (action, want) in cases {
            let got = action_words(&action);
            assert_eq!(got, want, "{action:?}");
            assert!(jreach_syntax::is_java_identifier(&format!("f_{got}")), "{got}");
        }
    }
}
