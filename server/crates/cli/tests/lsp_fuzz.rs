//! A short run of the language server's stdio fuzzer (`examples/lsp_fuzz.rs`, where the long
//! run is documented): random incremental edits and malformed messages; the server never exits,
//! and the edited document's diagnostics equal a fresh open's at every checkpoint.

#[path = "../examples/lsp_fuzz.rs"]
mod lsp_fuzz;

#[test]
fn random_edits_and_malformed_messages_leave_the_server_up_and_in_step() {
    let seed = std::env::var("JREACH_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(7);
    let cfg = lsp_fuzz::Config {
        jreach: env!("CARGO_BIN_EXE_jreach").into(),
        edits: 4_000,
        malformed: 600,
        checkpoint: 500,
        seed,
    };
    let r = lsp_fuzz::run(&cfg);
    assert_eq!(r.edits, cfg.edits);
    assert_eq!(r.malformed, cfg.malformed);
    assert!(r.checkpoints >= 8, "{r:?}");
}
