"""``python -m kozyri_cli``: the same as the ``kozyri`` command."""

from kozyri_cli.start import run

run()
