// Placeholder until the benchmark issue lands: says so and exits 0.
console.log('npm run bench: benchmarks are not implemented yet (see the Benchmarks issue).');
