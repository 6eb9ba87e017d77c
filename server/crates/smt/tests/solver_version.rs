//! The linked libz3 is one jreach runs on without known faults (Debian's 4.8.12 crashes inside
//! `Z3_solver_check_assumptions` on real code; `scripts/setup.sh` installs a current release).

#[test]
fn the_linked_solver_is_current() {
    let v = jreach_smt::solver_version();
    assert!(
        jreach_smt::solver_version_warning().is_none(),
        "linked against libz3 {}.{}.{}: run scripts/setup.sh (it installs libz3 {}.{} or newer under /usr/local), then `cargo clean -p z3-sys` and rebuild",
        v.0,
        v.1,
        v.2,
        jreach_smt::MIN_SOLVER_VERSION.0,
        jreach_smt::MIN_SOLVER_VERSION.1
    );
}
