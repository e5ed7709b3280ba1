//! See `lattice_games::fuzzing::take_break`: a crash or a wrong answer (against a brute force) panics.
//! Run with `cargo +nightly fuzz run take_break` from the repository root (needs cargo-fuzz).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| lattice_games::fuzzing::take_break(data));
