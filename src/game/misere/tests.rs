use super::*;
use crate::game::heap::HeapCode;
use std::collections::HashMap as Map;

/// Misère values of heap-game positions plus a copies of *2 and b copies of *1, by plain
/// recursion over the moves (no canonical forms): a game with no move has misère value 1.
struct Brute {
    code: HeapCode,
    memo: Map<(Vec<usize>, usize, usize), u32>,
}

impl Brute {
    fn value(&mut self, pos: &[usize], a: usize, b: usize) -> u32 {
        let key = (pos.to_vec(), a, b);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let mut seen = Vec::new();
        for i in 0..pos.len() {
            for parts in self.code.options(pos[i]) {
                let mut next: Vec<usize> = pos.to_vec();
                next.remove(i);
                next.extend(parts);
                next.sort_unstable();
                seen.push(self.value(&next, a, b));
            }
        }
        if a > 0 {
            seen.push(self.value(pos, a - 1, b + 1));
            seen.push(self.value(pos, a - 1, b));
        }
        if b > 0 {
            seen.push(self.value(pos, a, b - 1));
        }
        let v = if seen.is_empty() { 1 } else { mex(seen) };
        self.memo.insert(key, v);
        v
    }
}

#[test]
fn values_and_genus_sequences_agree_with_brute_force() {
    for code in ["0.77", "0.07", "4!.0", "0.3F", "0.0330003"] {
        let c = HeapCode::parse(code).unwrap();
        let mut brute = Brute {
            code: c.clone(),
            memo: Map::new(),
        };
        let mut heaps = HeapPositions::new(&c, 1 << 30);
        for h in 0..=12 {
            let pos: Vec<usize> = if h == 0 { vec![] } else { vec![h] };
            let id = heaps.heap(h).unwrap();
            let forms = heaps.forms();
            assert_eq!(
                forms.misere_value(id),
                brute.value(&pos, 0, 0),
                "{code} heap {h}"
            );
            let seq = forms.genus_sequence(id);
            for k in 0..7 {
                assert_eq!(
                    MisereForms::digit_of(&seq, k),
                    brute.value(&pos, k, 0),
                    "{code} heap {h}: γ{k} of {seq:?}"
                );
            }
        }
    }
}

#[test]
fn nim_heaps_and_their_sums() {
    let mut f = MisereForms::new();
    let (zero, one, two, three) = (f.nim_heap(0), f.nim_heap(1), f.nim_heap(2), f.nim_heap(3));
    // 0 has genus 0^{1202…}, *1 1^{031…}, *2 2^{20…}; nim heaps print as their value.
    assert_eq!(f.genus_sequence(zero), vec![1, 2, 0]);
    assert_eq!(f.genus_sequence(one), vec![0, 3, 1]);
    assert_eq!(f.genus_sequence(two), vec![2, 0]);
    assert_eq!(f.genus_string(three), "3");
    // *1 + *1 = 0 in misère play (its options are both *1, which reverses through 0).
    let one_plus_one = f.make(vec![one]);
    assert_eq!(one_plus_one, zero);
    // {*2} (a single move to *2) is not a nim heap: g = 0, g⁻ = 0, tame genus, printed 0^0.
    let to_two = f.make(vec![two]);
    assert_eq!((f.normal_value(to_two), f.misere_value(to_two)), (0, 0));
    assert_eq!(f.genus_string(to_two), "0^0");
    assert_eq!(superscript(&[6, 1, 10]), "(6,1,10)");
}
