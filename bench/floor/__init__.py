"""The write floor of the benchmark (issue 13): the cheapest durable write this stack can make, a
bare Django view that commits one row. Mounted only when COMPANION_BENCH_FLOOR is set, which only
bench/run.py does; the app and its table are never part of a deployment."""
