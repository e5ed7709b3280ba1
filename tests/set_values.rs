//! The set values of the language: each wrong or refused answer of issue 14 as a test. A set-
//! algebra result keeps its dimension when empty, a finite result is a finite set that `members`
//! reads through its box, `==` compares finite sets with modules as sets, and a complement whose
//! printed stratification would be huge is still computed (and printed as basic sets).

mod common;

fn ok(script: &str) -> String {
    let (out, err) = common::run_script("set_values.lg", script);
    assert!(err.is_none(), "{script}\nfailed with\n{}", err.unwrap());
    out
}

#[test]
fn members_of_a_finite_result_reads_the_box() {
    let out = ok("
        let S = ((3, 1) + N{(0, 1), (0, 3), (1, 2)}) ∩ ({(0, 0), (0, 1), (3, 0)} + N{(3, 1)})
        print(S)
        assert members(S, ((0, 0), (14, 14))) == [(3, 1), (3, 2)]
        assert members(S, ((3, 2), (9, 9))) == [(3, 2)]
        assert members(S, 4) == [(3, 1)]
        assert members({(1, 1)}, ((0, 0), (2, 2))) == [(1, 1)]
        assert members({(1, 1), (5, 0)}, 5) == [(1, 1), (5, 0)]
        assert members({(1, 1), (5, 0)}, 4) == [(1, 1)]
        assert members(orthant(2), ((0, 0), (1, 1))) == [(0, 0), (0, 1), (1, 0), (1, 1)]
        assert members(polyhedron([1 0; 0 1; -1 -1], (0, 0, -2)), 5) == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (2, 0)]
    ");
    assert_eq!(out.trim(), "{(3, 1), (3, 2)}");
}

#[test]
fn a_finite_set_equals_a_module_with_the_same_points() {
    ok("
        let S = (0, 4) + N{(0, 0)}
        assert complement(complement(S)) == S
        assert {(0, 4)} == S and S == {(0, 4)}
        assert not ({(0, 5)} == S) and {(0, 5)} != S
        assert {(0, 0), (2, 0)} == N{(2, 0)} ∖ ((4, 0) + N{(2, 0)})
    ");
}

#[test]
fn an_empty_result_keeps_its_dimension() {
    let out = ok("
        let S = (1, 0) + N{(2, 0)}
        let E = S ∖ S
        print(E, ambient_dim(E), len(E), is_empty(E))
        assert (E ∪ S) == S and (S ∪ E) == S and is_empty(E ∩ S)
        assert genfunc(E) == genfunc(E) and is_empty(genfunc(E))
        assert complement(E) == N^2
        assert E == {} and {} == E
        assert (E ⊎ S) == S and (S ⊎ E) == S
        assert certified(verify(game(nim(2), normal_play(nim(2))), complement(N^2)) ) == false
        let v = verify(game(nim(2), normal_play(nim(2))), {})
        assert counterexample(v) == (0, 0)
    ");
    assert_eq!(out.trim(), "{} 2 0 true");
}

#[test]
fn the_complement_of_three_small_modules_is_computed() {
    let out = ok("
        let U = (({(0,1,2), (1,2,4), (3,0,2)} + N{(1,3,1), (2,2,3)}) ∪ ({(2,3,4), (3,0,4), (4,2,4)} + N{(3,0,0)}) ∪ ({(0,2,0)} + N{(1,0,2), (1,3,2), (3,2,3)}))
        let C = complement(U)
        assert not is_empty(C)
        assert is_empty(C ∩ U) and (C ∪ U) == N^3
        assert (0, 0, 0) in C and (0, 1, 2) in U and not ((0, 1, 2) in C)
        assert members(U, ((0, 0, 0), (2, 2, 2))) == [(0, 1, 2), (0, 2, 0), (1, 2, 2)]
        let box = members(C, ((0, 0, 0), (2, 2, 2)))
        assert len(box) + len(members(U, ((0, 0, 0), (2, 2, 2)))) == 27
        print(len(box))
    ");
    // By hand: the points of U in [0, 2]^3 are (0, 1, 2), (0, 2, 0) and (0, 2, 0) + (1, 0, 2) (any
    // other offset or generator step leaves the box), so 24 of the 27 points are in the complement.
    assert_eq!(out.trim(), "24");
}

#[test]
fn set_values_print_as_the_papers_write_them() {
    let out = ok("
        print(N{(1, 2), (2, 1)} ∖ ((0, 0) + N{(1, 2)}))
        print(type_of(2N^2 ∖ 2N^2), type_of(2N^2 ∖ ((2, 0) + 2N^2)))
        print(pieces(N^2 ∖ ((1, 1) + N^2)))
    ");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "(2, 1) + ℕ{(1, 2), (2, 1)}");
    assert_eq!(lines[1], "stratified set stratified set");
    assert!(lines[2].starts_with('['), "{out}");
}
