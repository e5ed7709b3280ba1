# Sourced by the benches that time this checkout's `lg` beside an earlier commit's:
# `baseline_lg REV` builds REV once into target/baseline-REV (from a temporary git worktree) and
# prints the path of its `lg`. Run from the repository's root.
baseline_lg() {
    local rev=$1 dir=target/baseline-$1
    if [ ! -x "$dir/release/lg" ]; then
        echo "building the baseline $rev into $dir" >&2
        local wt
        wt=$(mktemp -d)
        git worktree add -q --detach "$wt" "$rev"
        cargo build --release -q --manifest-path "$wt/Cargo.toml" --target-dir "$dir"
        git worktree remove --force "$wt"
    fi
    echo "$PWD/$dir/release/lg"
}
