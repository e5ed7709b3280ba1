//! Parse and evaluate arbitrary input: no input may panic. A step limit keeps each run short.
//! Run with `cargo fuzz run parse_eval` from the repository root (needs cargo-fuzz).

#![no_main]

use lattice_games::eval::{Interpreter, Style};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let mut interp = Interpreter::with_output(Box::new(std::io::sink()));
        interp.set_step_limit(Some(50_000));
        if let Err(e) = interp.run("<fuzz>", text) {
            let _ = interp.render(&e, Style::Plain);
        }
    }
});
