//! Containment of internal errors: a panic while analysing one method becomes that method's
//! "internal error" answer instead of ending the whole run (`jreach check` goes on with the other
//! methods and files; the language server keeps serving).

use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs `f`; a panic becomes `Err` with a message for the user.
pub(crate) fn contain<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".into());
        format!("jreach hit an internal error ({what}); please report it together with the method")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panics_become_messages() {
        assert_eq!(contain(|| 7), Ok(7));
        let err = contain(|| -> u8 { panic!("boom {}", 1) }).unwrap_err();
        assert!(err.contains("internal error (boom 1)"), "{err}");
    }
}
