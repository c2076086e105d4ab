#!/bin/sh
# Written by boolprog batch --slurm: submission 3 of the batch in $DIR,
# 3 tasks in 2 array tasks. Each array task runs its tasks' checks
# (boolprog check --format json, 2 at a time) and writes their records
# to records/ there. The binary, that directory, the working directory
# and the programs must be on a filesystem that the nodes share.
#SBATCH --job-name=boolprog-batch
#SBATCH --array=0-1
#SBATCH --output=$DIR/logs/%A_%a.out
#SBATCH --chdir=$CWD
#SBATCH --cpus-per-task=2
#SBATCH --mem=2080M
#SBATCH --time=2
exec /shared/bin/boolprog batch --slurm-worker $DIR/plan-3.json
