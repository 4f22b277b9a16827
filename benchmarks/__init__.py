"""bow3d benchmarks: `python -m benchmarks` runs them all and rewrites benchmarks/RESULTS.md."""
