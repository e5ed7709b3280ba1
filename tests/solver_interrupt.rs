//! Ctrl-C stops a long solve cleanly, and the next solve works (its own process: the interrupt
//! flag is global).

use std::time::{Duration, Instant};

use lattice_games::algebra::Vector;
use lattice_games::game::solver::{Region, Solution, SolveError, SolveOptions};

#[test]
fn a_long_solve_stops_on_request() {
    let game = lattice_games::game::papers::gm09_example_8_12();
    let options = || SolveOptions {
        functional: Some(Vector::from_i64s(&[1, 2, 3, 4, 5])),
        ..SolveOptions::default()
    };
    let stopper = std::thread::spawn(|| {
        std::thread::sleep(Duration::from_millis(100));
        lattice_games::interrupt::request();
    });
    let start = Instant::now();
    let result = Solution::solve(&game, &Region::Weight(400.into()), options());
    stopper.join().unwrap();
    assert!(matches!(result, Err(SolveError::Interrupted)), "{result:?}");
    assert!(start.elapsed() < Duration::from_secs(5), "stopped promptly");
    lattice_games::interrupt::clear();
    let small = Solution::solve(&game, &Region::Weight(30.into()), options()).unwrap();
    assert!(small.counts().0 > 0);
}
