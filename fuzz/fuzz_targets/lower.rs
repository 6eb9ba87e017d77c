//! Any text as a Java file: parsing never fails, and every method lowers, in proofs and in
//! synthesis, to a function the verifier accepts. Runs on a 256 MiB stack, as the CLI and the
//! language server run the engine.
#![no_main]

use jreach_ir::lower::{lower_in, FileContext, LowerOptions};
use jreach_ir::LowerMode;
use jreach_syntax::{MethodInfo, SourceFile};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let file = SourceFile::parse(text);
            let ctx = FileContext::new(&file, None, None);
            for m in MethodInfo::all(&file) {
                if m.has_error {
                    continue;
                }
                for mode in [LowerMode::OverApprox, LowerMode::Synthesis { unroll: 4 }] {
                    let f = lower_in(&ctx, &m, &LowerOptions { mode, ..Default::default() });
                    if let Err(errors) = jreach_ir::verify::verify(&f) {
                        panic!("{} ({mode:?}) does not verify: {errors:?}", m.signature());
                    }
                }
            }
        })
        .expect("a thread")
        .join()
        .expect("the front end panicked");
});
