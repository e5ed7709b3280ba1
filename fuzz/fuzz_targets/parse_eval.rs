//! See `lattice_games::fuzzing::parse_eval`: parse and evaluate arbitrary input, which may never
//! panic. Run with `cargo +nightly fuzz run parse_eval` from the repository root (needs cargo-fuzz).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| lattice_games::fuzzing::parse_eval(data));
