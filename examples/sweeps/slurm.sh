#!/bin/bash
# A conjecture sweep as a Slurm array job: 8 tasks, each one shard of 1000 misère games, each
# appending its records to results/<task>.jsonl. `lg` reads its shard from SLURM_ARRAY_TASK_ID
# and SLURM_ARRAY_TASK_COUNT. Resubmitting (or `sbatch --array=3 ...` for one task) resumes: the
# games already in a task's file are skipped. Then: lg --summary results/*.jsonl
#
#SBATCH --job-name=lg-sweep
#SBATCH --array=1-8
#SBATCH --cpus-per-task=1
#SBATCH --mem=4G
#SBATCH --time=04:00:00
#SBATCH --output=results/slurm-%a.log
set -euo pipefail
mkdir -p results
# With --cpus-per-task=1, the solver uses one thread.
export RAYON_NUM_THREADS="${SLURM_CPUS_PER_TASK:-1}"
lg --results "results/${SLURM_ARRAY_TASK_ID}.jsonl" \
   --set games=1000 --set timeout=120 \
   examples/sweeps/misere_squarefree.lg
