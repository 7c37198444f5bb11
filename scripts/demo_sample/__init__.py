"""The demo snapshot's builder: the story in `story/` (TOML) made into `sample.jsonl`.

`load` reads the story, `build` turns it into tidings records (numbers, ids, SHAs and the
bookkeeping fields derived, the result checked for consistency) and `snapshot` writes them as
`tidings export` would. scripts/build_demo_sample.py is the command; README.md here says how
the story is written.
"""
