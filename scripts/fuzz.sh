#!/usr/bin/env bash
# Random-program differential testing for a while: `scripts/fuzz.sh
# [seconds] [backend]` (default 600 s, cpu) runs `futmlir fuzz` with a seed
# from the clock; findings go to fuzz-findings/ (see README, "Fuzzing").
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-600}
backend=${2:-cpu}
seed=${FUTMLIR_FUZZ_SEED:-$(date +%s)}
cargo build --release -q
echo "futmlir fuzz --seed $seed --seconds $secs --backend $backend"
exec target/release/futmlir fuzz --seed "$seed" --count 1000000 --seconds "$secs" --backend "$backend" --out fuzz-findings
