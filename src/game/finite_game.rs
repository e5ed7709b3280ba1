//! Finite impartial games as lattice games ([GM09] Theorem 5.1).
//!
//! A [`FiniteGame`] is a finite acyclic directed graph: each node is a game, and its arrows go to
//! its options. It is built from nested lists (a game is the list of its options, `[]` the zero
//! game; see [`GameTree`]) or from named nodes listing the names of their options.
//!
//! [`FiniteGame::encode`] follows the proof of Theorem 5.1. Let G_1 = G (the root) and
//! G_2, ..., G_d the other distinct games among the nodes. The disjunctive sum
//! G_{i_1} + ... + G_{i_r} is the position e_{i_1} + ... + e_{i_r} ∈ N^d, the rule set consists of
//! e_i − e_j for each option G_j of G_i, and the board is N^d: normal play has D = ∅, misère play
//! D = {0}. Three details the proof leaves implicit are made precise here.
//!
//! * **Distinct games.** Nodes are compared as games, that is as sets of options, recursively:
//!   two nodes with the same options (or a node listing one option twice) give one axis, so
//!   G_1, ..., G_d are distinct as the theorem asks.
//! * **The zero game is the origin.** The empty sum and the zero game {} are the same game, so
//!   the zero game gets no axis: it is the position 0, and the move from G_i to the zero game is
//!   e_i − 0 = e_i. This is what makes the tangent cone axiom hold (every ray e_i has the move
//!   e_i − e_j or e_i, whose other coordinates are ≤ 0; an axis for the zero game would have no
//!   move at all), and it is why D = {0} encodes misère play: moving to the zero game ends the
//!   game, and under misère play the player who does so loses. So under misère play the zero
//!   game's position is the defeated origin (off the board B = N^d ∖ {0}); its misère outcome,
//!   a win for the player to move, is the one every defeated position has.
//! * **Positivity.** The proof's functional, the birthday, vanishes on the zero game's
//!   coordinate; with the zero game at the origin every axis has birthday ≥ 1, so the birthday is
//!   positive on N^d ∖ {0} and on Γ (an option has a smaller birthday).
//!
//! When every node is the zero game there would be no axis at all (d = 0, and a rule set needs a
//! move); then the encoding uses d = 1 and Γ = {e_1}, the closure of * = {0}, which contains the
//! zero game at the origin.
//!
//! The axioms are not taken on trust: [`LatticeGame::new`] decides them exactly.

use std::collections::{HashMap, VecDeque};
use std::fmt;

use super::{GameBoard, GameError, LatticeGame, RuleSet};
use crate::algebra::Vector;

/// A game written as the list of its options, recursively: `GameTree(vec![])` is the zero game.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct GameTree(pub Vec<GameTree>);

impl fmt::Display for GameTree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[")?;
        for (i, g) in self.0.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{g}")?;
        }
        write!(f, "]")
    }
}

/// Normal play (the last player to move wins) or misère play (the last player to move loses).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Play {
    /// The player who cannot move loses: D = ∅.
    Normal,
    /// The player who cannot move wins: D = {0}.
    Misere,
}

/// What is wrong with the description of a finite game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FiniteGameError {
    /// No nodes were given.
    #[error("a finite game needs at least one node (the first is the game itself)")]
    NoNodes,
    /// Two nodes share a name.
    #[error("the name {0:?} is given to two nodes")]
    DuplicateName(String),
    /// A node lists an option that is not the name of a node.
    #[error("{node:?} has the option {option:?}, which is not the name of any node")]
    UnknownOption {
        /// The node listing the option.
        node: String,
        /// The name that is not defined.
        option: String,
    },
    /// The options lead back to a node: games are finite, so their graph has no cycle.
    #[error("the options go round in a cycle, {}: a finite game cannot be its own follower", .0.join(" → "))]
    Cycle(Vec<String>),
    /// The lattice game could not be built (this would contradict Theorem 5.1).
    #[error(transparent)]
    Game(#[from] GameError),
}

/// A finite impartial game with all its followers: a finite acyclic graph of named nodes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FiniteGame {
    names: Vec<String>,
    options: Vec<Vec<usize>>,
    root: usize,
}

/// A finite game encoded as a lattice game on N^d ([GM09] Theorem 5.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Encoding {
    /// The lattice game: rule set {e_i − e_j : G_j an option of G_i} on N^d, D = ∅ or {0}.
    pub game: LatticeGame,
    /// The position of each node of the finite game, in node order (0 for the zero game).
    pub positions: Vec<Vector>,
    /// For each axis i = 1, ..., d (at index i − 1), a node whose game is G_i; the root's game
    /// (when it is not the zero game) is axis 1.
    pub axes: Vec<usize>,
}

impl FiniteGame {
    /// The game of a tree and all its followers. Subtrees that are equal as games (the same
    /// set of options) become one node, named by their canonical nested-list form.
    pub fn from_tree(tree: &GameTree) -> FiniteGame {
        // Iterative post-order, so that deep chains do not exhaust the stack.
        let mut keys: HashMap<Vec<usize>, usize> = HashMap::new();
        let mut options: Vec<Vec<usize>> = Vec::new();
        let mut stack: Vec<(&GameTree, usize)> = vec![(tree, 0)];
        let mut done: Vec<usize> = Vec::new();
        let mut root = 0;
        while let Some((t, next)) = stack.pop() {
            if next < t.0.len() {
                stack.push((t, next + 1));
                stack.push((&t.0[next], 0));
                continue;
            }
            let mut key: Vec<usize> = done.split_off(done.len() - t.0.len());
            key.sort_unstable();
            key.dedup();
            let n = options.len();
            let id = *keys.entry(key.clone()).or_insert(n);
            if id == n {
                options.push(key);
            }
            done.push(id);
            root = id;
        }
        let mut names: Vec<String> = Vec::with_capacity(options.len());
        for opts in &options {
            let parts: Vec<&str> = opts.iter().map(|&o| names[o].as_str()).collect();
            names.push(format!("[{}]", parts.join(", ")));
        }
        FiniteGame {
            names,
            options,
            root,
        }
    }

    /// The game from named nodes, each with the names of its options; the first node is the
    /// game itself. Unknown names, repeated names and cycles are errors.
    pub fn from_named(nodes: &[(String, Vec<String>)]) -> Result<FiniteGame, FiniteGameError> {
        if nodes.is_empty() {
            return Err(FiniteGameError::NoNodes);
        }
        let mut index: HashMap<&str, usize> = HashMap::with_capacity(nodes.len());
        for (i, (name, _)) in nodes.iter().enumerate() {
            if index.insert(name.as_str(), i).is_some() {
                return Err(FiniteGameError::DuplicateName(name.clone()));
            }
        }
        let mut options = Vec::with_capacity(nodes.len());
        for (name, opts) in nodes {
            let mut ids = Vec::with_capacity(opts.len());
            for o in opts {
                match index.get(o.as_str()) {
                    Some(&j) => ids.push(j),
                    None => {
                        return Err(FiniteGameError::UnknownOption {
                            node: name.clone(),
                            option: o.clone(),
                        })
                    }
                }
            }
            options.push(ids);
        }
        let game = FiniteGame {
            names: nodes.iter().map(|(n, _)| n.clone()).collect(),
            options,
            root: 0,
        };
        game.topological_order()?;
        Ok(game)
    }

    /// The number of nodes.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there are no nodes (never true for a constructed game).
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The node of the game itself.
    pub fn root(&self) -> usize {
        self.root
    }

    /// The name of a node.
    pub fn name(&self, node: usize) -> &str {
        &self.names[node]
    }

    /// The node called `name`.
    pub fn node(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// The options of a node, as given (possibly with repetitions).
    pub fn options(&self, node: usize) -> &[usize] {
        &self.options[node]
    }

    /// The nodes with every option before the node itself, or the cycle that prevents it.
    fn topological_order(&self) -> Result<Vec<usize>, FiniteGameError> {
        #[derive(Clone, Copy, PartialEq)]
        enum Mark {
            New,
            Open,
            Done,
        }
        let n = self.len();
        let mut mark = vec![Mark::New; n];
        let mut order = Vec::with_capacity(n);
        for start in 0..n {
            if mark[start] != Mark::New {
                continue;
            }
            let mut path: Vec<(usize, usize)> = vec![(start, 0)];
            mark[start] = Mark::Open;
            while let Some(top) = path.last_mut() {
                let v = top.0;
                if let Some(&w) = self.options[v].get(top.1) {
                    top.1 += 1;
                    match mark[w] {
                        Mark::New => {
                            mark[w] = Mark::Open;
                            path.push((w, 0));
                        }
                        Mark::Open => {
                            let from = path.iter().position(|&(u, _)| u == w).unwrap_or(0);
                            let mut cycle: Vec<String> = path[from..]
                                .iter()
                                .map(|&(u, _)| self.names[u].clone())
                                .collect();
                            cycle.push(self.names[w].clone());
                            return Err(FiniteGameError::Cycle(cycle));
                        }
                        Mark::Done => {}
                    }
                } else {
                    mark[v] = Mark::Done;
                    order.push(v);
                    path.pop();
                }
            }
        }
        Ok(order)
    }

    /// The class of each node as a game (equal classes: equal sets of options, recursively),
    /// with the class of the zero game first (class 0, whether or not a node is zero), and the
    /// options of each class.
    fn classes(&self) -> Result<(Vec<usize>, Vec<Vec<usize>>), FiniteGameError> {
        let mut keys: HashMap<Vec<usize>, usize> = HashMap::new();
        keys.insert(Vec::new(), 0);
        let mut class_options: Vec<Vec<usize>> = vec![Vec::new()];
        let mut class = vec![0; self.len()];
        for v in self.topological_order()? {
            let mut key: Vec<usize> = self.options[v].iter().map(|&w| class[w]).collect();
            key.sort_unstable();
            key.dedup();
            let fresh = class_options.len();
            let c = *keys.entry(key.clone()).or_insert(fresh);
            if c == fresh {
                class_options.push(key);
            }
            class[v] = c;
        }
        Ok((class, class_options))
    }

    /// The lattice game of [GM09] Theorem 5.1 on N^d, with each node's position (see the module
    /// documentation for the precise construction).
    pub fn encode(&self, play: Play) -> Result<Encoding, FiniteGameError> {
        let (class, class_options) = self.classes()?;
        // Axes in breadth-first order from the root, then the nodes the root does not reach.
        let mut seen = vec![false; self.len()];
        let mut order = Vec::with_capacity(self.len());
        let mut queue = VecDeque::from([self.root]);
        seen[self.root] = true;
        while let Some(v) = queue.pop_front() {
            order.push(v);
            for &w in &self.options[v] {
                if !seen[w] {
                    seen[w] = true;
                    queue.push_back(w);
                }
            }
        }
        order.extend((0..self.len()).filter(|&v| !seen[v]));
        let mut axis_of_class: Vec<Option<usize>> = vec![None; class_options.len()];
        let mut axes = Vec::new();
        for v in order {
            let c = class[v];
            if c != 0 && axis_of_class[c].is_none() {
                axis_of_class[c] = Some(axes.len());
                axes.push(v);
            }
        }
        let d = axes.len().max(1);
        let unit = |c: usize| match axis_of_class[c] {
            Some(i) => Vector::unit(d, i),
            None => Vector::zero(d),
        };
        let mut moves = Vec::new();
        for &v in &axes {
            let c = class[v];
            for &o in &class_options[c] {
                moves.push(unit(c).sub(&unit(o)));
            }
        }
        if moves.is_empty() {
            // Every node is the zero game: the closure of * = {0} on N^1.
            moves.push(Vector::unit(1, 0));
        }
        let rules = RuleSet::new(moves)?;
        let board = match play {
            Play::Normal => GameBoard::normal_play(d)?,
            Play::Misere => GameBoard::misere(d)?,
        };
        let game = LatticeGame::new(rules, board)?;
        let positions = class.iter().map(|&c| unit(c)).collect();
        Ok(Encoding {
            game,
            positions,
            axes,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{HashMap, HashSet};

    use super::*;
    use crate::algebra::{Cone, Polyhedron};
    use crate::game::axioms;

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Outcome {
        P,
        N,
    }

    /// The outcome of a disjunctive sum of nodes, by brute force on the graph.
    fn dag_outcome(
        g: &FiniteGame,
        play: Play,
        sum: &[usize],
        memo: &mut HashMap<Vec<usize>, Outcome>,
    ) -> Outcome {
        let mut key = sum.to_vec();
        key.sort_unstable();
        if let Some(&o) = memo.get(&key) {
            return o;
        }
        let (mut any, mut to_p) = (false, false);
        for k in 0..key.len() {
            for &w in g.options(key[k]) {
                any = true;
                let mut next = key.clone();
                next[k] = w;
                to_p |= dag_outcome(g, play, &next, memo) == Outcome::P;
            }
        }
        let o = match (any, play) {
            (false, Play::Normal) => Outcome::P,
            (false, Play::Misere) => Outcome::N,
            (true, _) if to_p => Outcome::N,
            (true, _) => Outcome::P,
        };
        memo.insert(key, o);
        o
    }

    fn ints(v: &Vector) -> Vec<i64> {
        v.0.iter().map(|x| x.to_i64().unwrap()).collect()
    }

    /// A plain recursive solver for a lattice game on N^d, its defeated ideal found by brute force.
    struct Solver {
        moves: Vec<Vec<i64>>,
        defeated: HashSet<Vec<i64>>,
        memo: HashMap<Vec<i64>, Outcome>,
    }

    impl Solver {
        fn new(game: &LatticeGame) -> Solver {
            let d = game.dim();
            assert_eq!(
                game.board().polyhedron(),
                &Polyhedron::Cone(Cone::orthant(d).unwrap())
            );
            let cone = axioms::recession_cone(game.board()).unwrap();
            let l = ints(
                &axioms::check_axioms(game.rules(), &cone)
                    .unwrap()
                    .functional,
            );
            let moves: Vec<Vec<i64>> = game.rules().moves().iter().map(ints).collect();
            let weight = |p: &[i64]| p.iter().zip(&l).map(|(a, b)| a * b).sum::<i64>();
            // D = {q ∈ N^d : δ − q ∈ NΓ for a generator δ}: walk down from δ by moves; ℓ drops
            // at every step and is ≥ 0 on N^d, so the walk stops where ℓ < 0.
            let mut defeated = HashSet::new();
            let mut seen = HashSet::new();
            let mut stack: Vec<Vec<i64>> = game.board().defeated().iter().map(ints).collect();
            while let Some(q) = stack.pop() {
                if weight(&q) < 0 || !seen.insert(q.clone()) {
                    continue;
                }
                if q.iter().all(|&x| x >= 0) {
                    defeated.insert(q.clone());
                }
                for m in &moves {
                    stack.push(q.iter().zip(m).map(|(a, b)| a - b).collect());
                }
            }
            Solver {
                moves,
                defeated,
                memo: HashMap::new(),
            }
        }

        fn on_board(&self, p: &[i64]) -> bool {
            p.iter().all(|&x| x >= 0) && !self.defeated.contains(p)
        }

        /// p is a P-position iff no legal option p − γ is a P-position.
        fn outcome(&mut self, p: &[i64]) -> Outcome {
            assert!(self.on_board(p));
            if let Some(&o) = self.memo.get(p) {
                return o;
            }
            let mut o = Outcome::P;
            for k in 0..self.moves.len() {
                let q: Vec<i64> = p.iter().zip(&self.moves[k]).map(|(a, b)| a - b).collect();
                if self.on_board(&q) && self.outcome(&q) == Outcome::P {
                    o = Outcome::N;
                    break;
                }
            }
            self.memo.insert(p.to_vec(), o);
            o
        }
    }

    /// Every node and every sum of two nodes has the outcome of its lattice position.
    fn check(g: &FiniteGame, play: Play) -> Encoding {
        let enc = g.encode(play).unwrap();
        let mut solver = Solver::new(&enc.game);
        let mut memo = HashMap::new();
        let root = &enc.positions[g.root()];
        if !root.is_zero() {
            assert_eq!(root, &Vector::unit(enc.game.dim(), 0), "G_1 = G");
        }
        let mut sums: Vec<Vec<usize>> = (0..g.len()).map(|v| vec![v]).collect();
        for u in 0..g.len() {
            for v in u..g.len() {
                sums.push(vec![u, v]);
            }
        }
        for sum in sums {
            let p = sum.iter().fold(Vector::zero(enc.game.dim()), |p, &v| {
                p.add(&enc.positions[v])
            });
            let expected = dag_outcome(g, play, &sum, &mut memo);
            let p = ints(&p);
            if solver.on_board(&p) {
                assert_eq!(
                    solver.outcome(&p),
                    expected,
                    "{sum:?} at {p:?} in {}",
                    enc.game
                );
            } else {
                // Only the zero game is off the board: the defeated origin of misère play.
                assert_eq!(play, Play::Misere);
                assert!(p.iter().all(|&x| x == 0), "{p:?}");
                assert_eq!(expected, Outcome::N);
            }
        }
        enc
    }

    fn tree(s: &str) -> GameTree {
        // Nested brackets only: "[[], [[]]]".
        let mut stack: Vec<Vec<GameTree>> = vec![Vec::new()];
        for c in s.chars() {
            match c {
                '[' => stack.push(Vec::new()),
                ']' => {
                    let t = GameTree(stack.pop().unwrap());
                    stack.last_mut().unwrap().push(t);
                }
                _ => {}
            }
        }
        stack.pop().unwrap().pop().unwrap()
    }

    fn named(nodes: &[(&str, &[&str])]) -> Result<FiniteGame, FiniteGameError> {
        let nodes: Vec<(String, Vec<String>)> = nodes
            .iter()
            .map(|(n, o)| (n.to_string(), o.iter().map(|s| s.to_string()).collect()))
            .collect();
        FiniteGame::from_named(&nodes)
    }

    #[test]
    fn star_two_is_the_proof_construction() {
        let g = FiniteGame::from_tree(&tree("[[], [[]]]"));
        assert_eq!(g.len(), 3);
        assert_eq!(g.name(g.root()), "[[], [[]]]");
        for play in [Play::Normal, Play::Misere] {
            let enc = check(&g, play);
            // G_1 = *2, G_2 = *; the zero game is the origin.
            assert_eq!(enc.game.dim(), 2);
            let mut moves: Vec<Vec<i64>> = enc.game.rules().moves().iter().map(ints).collect();
            moves.sort();
            assert_eq!(moves, vec![vec![0, 1], vec![1, -1], vec![1, 0]]);
            assert_eq!(enc.game.board().is_misere(), play == Play::Misere);
            assert_eq!(ints(&enc.positions[g.node("[[]]").unwrap()]), vec![0, 1]);
            assert_eq!(ints(&enc.positions[g.node("[]").unwrap()]), vec![0, 0]);
        }
        // * + * is the zero game in normal play, a win for the player to move in misère play.
        let mut s = Solver::new(&g.encode(Play::Normal).unwrap().game);
        assert_eq!(s.outcome(&[0, 2]), Outcome::P);
        let mut s = Solver::new(&g.encode(Play::Misere).unwrap().game);
        assert_eq!(s.outcome(&[0, 2]), Outcome::N);
        assert_eq!(s.outcome(&[0, 1]), Outcome::P);
    }

    #[test]
    fn repeated_options_and_equal_nodes_share_an_axis() {
        let g = FiniteGame::from_tree(&tree("[[], []]"));
        assert_eq!(g.len(), 2);
        let g = named(&[
            ("g", &["a", "a", "b", "z1"]),
            ("a", &["z1"]),
            ("b", &["z2"]),
            ("z1", &[]),
            ("z2", &[]),
        ])
        .unwrap();
        assert_eq!(g.options(0), &[1, 1, 2, 3]);
        for play in [Play::Normal, Play::Misere] {
            let enc = check(&g, play);
            // g = *2 (options 0 and *), a = b = *, z1 = z2 = 0.
            assert_eq!(enc.game.dim(), 2);
            assert_eq!(enc.positions[1], enc.positions[2]);
            assert!(enc.positions[3].is_zero() && enc.positions[4].is_zero());
        }
    }

    #[test]
    fn the_zero_game_alone_lives_in_the_closure_of_star() {
        let g = FiniteGame::from_tree(&GameTree::default());
        for play in [Play::Normal, Play::Misere] {
            let enc = check(&g, play);
            assert_eq!(enc.game.dim(), 1);
            assert!(enc.positions[0].is_zero());
            assert!(enc.axes.is_empty());
        }
    }

    #[test]
    fn a_deep_chain() {
        let n = 40;
        let mut t = GameTree::default();
        for _ in 0..n {
            t = GameTree(vec![t]);
        }
        let g = FiniteGame::from_tree(&t);
        assert_eq!(g.len(), n + 1);
        for play in [Play::Normal, Play::Misere] {
            let enc = g.encode(play).unwrap();
            assert_eq!(enc.game.dim(), n);
            let mut s = Solver::new(&enc.game);
            let root = ints(&enc.positions[g.root()]);
            // A chain of n moves: the first player wins iff n is odd (normal) or even (misère).
            let first_wins = (n % 2 == 1) == (play == Play::Normal);
            assert_eq!(s.outcome(&root) == Outcome::N, first_wins);
        }
        let names: Vec<(String, Vec<String>)> = (0..=n)
            .rev()
            .map(|k| {
                let opts = if k == 0 {
                    vec![]
                } else {
                    vec![format!("c{}", k - 1)]
                };
                (format!("c{k}"), opts)
            })
            .collect();
        let g = FiniteGame::from_named(&names).unwrap();
        check(&g, Play::Normal);
        check(&g, Play::Misere);
    }

    #[test]
    fn seeded_random_graphs() {
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move |m: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % m
        };
        for _ in 0..120 {
            let n = 1 + next(12) as usize;
            // Node i has options among the nodes before it; the last node is the root.
            let mut nodes: Vec<(String, Vec<String>)> = (0..n)
                .map(|i| {
                    let k = if i == 0 { 0 } else { next(4) };
                    let opts = (0..k).map(|_| format!("g{}", next(i as u64))).collect();
                    (format!("g{i}"), opts)
                })
                .collect();
            nodes.reverse();
            let g = FiniteGame::from_named(&nodes).unwrap();
            check(&g, Play::Normal);
            check(&g, Play::Misere);
        }
    }

    #[test]
    fn cycles_unknown_names_and_repeats_are_errors() {
        assert_eq!(
            named(&[("a", &["b"]), ("b", &["c"]), ("c", &["a"])]),
            Err(FiniteGameError::Cycle(vec![
                "a".into(),
                "b".into(),
                "c".into(),
                "a".into()
            ]))
        );
        assert_eq!(
            named(&[("g", &["z"]), ("z", &["z"])]),
            Err(FiniteGameError::Cycle(vec!["z".into(), "z".into()]))
        );
        assert_eq!(
            named(&[("g", &["h"])]),
            Err(FiniteGameError::UnknownOption {
                node: "g".into(),
                option: "h".into()
            })
        );
        assert_eq!(
            named(&[("g", &[]), ("g", &[])]),
            Err(FiniteGameError::DuplicateName("g".into()))
        );
        assert_eq!(named(&[]), Err(FiniteGameError::NoNodes));
        let e = named(&[("a", &["b"]), ("b", &["a"])]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the options go round in a cycle, a → b → a: a finite game cannot be its own follower"
        );
    }
}
