"""What tests/ and benchmarks/ both use, and tidings does not ship: the loopback GitHub and
OpenAI servers (servers/), the synthetic vLLM-scale data generator (generate.py), the
vllm-ascend history as `git log` bytes (gitlog.py), a store seeder (seed.py) and where
`../shared` lives (shared.py).

Not under tests/, so a benchmark never imports the test suite; not in the wheel, because the
fake GitHub needs graphql-core (a dev dependency) and none of it is for users. Importable from
the repository root: pytest puts the root on sys.path (tests/ is a package there), and each
benchmark adds it. Nothing here imports pytest: skipping on absent data is the tests' business
(tests/shared.py).
"""
