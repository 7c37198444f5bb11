"""The everyday job over the pipeline: `tidings run` (runner.py), its queue for many
machines (queue.py), the notifications of new reports (delivery.py) and the project
starter that sets the job up (starter/)."""
